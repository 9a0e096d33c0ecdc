# SPDX-License-Identifier: Apache-2.0
"""The table of synthesis tops: what `make synth`, `make package` and
`make synth-estimate` build.

Each entry names an RTL core top (synthesised out of context, and estimated
with Yosys) and the Vitis RTL kernel that will wrap it (packaged with
`package_xo`). Sources come from the same `rtl/<blk>/<blk>.f` lists that
simulation and lint read, so no flow keeps its own file list.

A top whose files are not on disk yet is *not available*: `TOP=all` skips it,
and naming it explicitly is an error that says which files are missing.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType

from scripts.registry import ROOT

# Every include directory any block needs; registry.SimTest adds the same one.
COMMON_INCDIR = "rtl/common"


def read_filelist(flist: Path) -> list[Path]:
    """Sources of one `.f` file in order: one path per line, relative to the
    `.f` file, `//` comments. Same format scripts/registry.py reads."""
    files: list[Path] = []
    for line in flist.read_text().splitlines():
        line = line.split("//")[0].strip()
        if line:
            files.append(flist.parent / line)
    return files


@dataclass(frozen=True)
class VitisKernel:
    """The Vitis RTL kernel wrapping a core (rtl/top/, written separately)."""

    name: str                        # kernel name, also its HDL top, e.g. krnl_radix
    filelists: tuple[str, ...]       # read after the core's own lists, relative to ROOT
    kernel_xml: str                  # package_xo kernel description, relative to ROOT
    clock_port: str = "ap_clk"       # the Vitis RTL kernel contract


@dataclass(frozen=True)
class Kernel:
    name: str                        # the TOP= value
    block: str                       # rtl/<block>/
    top: str                         # HDL top of the core, synthesised out of context
    filelists: tuple[str, ...]       # relative to ROOT, compile order
    clock_port: str                  # the top's clock input; the XDC constrains it
    description: str
    # The configuration every flow synthesises; empty means the RTL defaults.
    # Where given they equal those defaults today, spelled out so a changed
    # RTL default cannot silently change what the reports describe.
    parameters: Mapping[str, int] = field(default_factory=dict)
    vitis: VitisKernel | None = None

    def sources(self, root: Path = ROOT) -> list[Path]:
        """Sources in compile order. A file named by two lists is read once,
        where it first appears, since Vivado rejects a module defined twice."""
        seen: set[Path] = set()
        files: list[Path] = []
        for flist in self.filelists:
            for src in read_filelist(root / flist):
                key = src.resolve()
                if key not in seen:
                    seen.add(key)
                    files.append(src)
        return files

    def include_dirs(self, root: Path = ROOT) -> list[Path]:
        return sorted({(root / f).parent for f in self.filelists} | {root / COMMON_INCDIR})

    def missing(self, root: Path = ROOT) -> list[str]:
        """Files that must exist before this top can be built; empty when available."""
        lists = [root / f for f in self.filelists]
        gone = [_rel(p, root) for p in lists if not p.is_file()]
        if gone:
            return gone
        srcs = self.sources(root)
        gone = [_rel(p, root) for p in srcs if not p.is_file()]
        if not any(p.stem == self.top for p in srcs):
            gone.append(f"{self.top}.sv (top module, in none of {', '.join(self.filelists)})")
        return gone

    def available(self, root: Path = ROOT) -> bool:
        return not self.missing(root)

    def wrapper(self) -> Kernel:
        """The Vitis kernel as a synthesis top of its own (for its file checks)."""
        if self.vitis is None:
            raise ValueError(f"{self.name}: no Vitis kernel declared")
        return Kernel(
            name=self.vitis.name, block="top", top=self.vitis.name,
            filelists=self.filelists + self.vitis.filelists,
            clock_port=self.vitis.clock_port, description=f"Vitis kernel for {self.name}",
        )

    def vitis_missing(self, root: Path = ROOT) -> list[str]:
        """What `make package` still lacks for this kernel; empty when ready."""
        if self.vitis is None:
            return ["no Vitis kernel declared in scripts/kernels.py"]
        gone = self.wrapper().missing(root)
        if not (root / self.vitis.kernel_xml).is_file():
            gone.append(self.vitis.kernel_xml)
        return gone


def _rel(p: Path, root: Path) -> str:
    try:
        return str(p.resolve().relative_to(root.resolve()))
    except ValueError:
        return str(p)


KERNELS: dict[str, Kernel] = {
    k.name: k
    for k in (
        Kernel(
            name="radix",
            block="radix",
            top="radix_top",
            filelists=("rtl/radix/radix.f",),
            clock_port="clk_i",
            description="radix KV-cache controller: core + AXI4-Lite CSRs",
            # A small default; boards name their own configuration ([config.radix]).
            parameters=MappingProxyType(
                {"NodeCap": 1024, "TokenCap": 16384, "MaxLen": 1024, "PageSize": 1, "NumNs": 16}
            ),
            vitis=VitisKernel(name="krnl_radix", filelists=("rtl/top/krnl_radix.f",),
                              kernel_xml="rtl/top/krnl_radix.xml"),
        ),
        Kernel(
            name="fsm",
            block="fsm",
            top="fsm_top",
            filelists=("rtl/fsm/fsm.f",),
            clock_port="clk_i",
            description="token-FSM validator: core + loader + AXI4-Lite CSRs",
            parameters=MappingProxyType({}),   # the RTL defaults (rtl/fsm is in progress)
            # Planned wrapper, not written yet.
            vitis=VitisKernel(name="krnl_fsm", filelists=("rtl/top/krnl_fsm.f",),
                              kernel_xml="rtl/top/krnl_fsm.xml"),
        ),
    )
}


def select(top: str, table: Mapping[str, Kernel] | None = None,
           root: Path = ROOT) -> tuple[list[Kernel], dict[str, list[str]]]:
    """Tops for TOP=<name>|all: (buildable, {unavailable name: missing files}).

    `all` means every available top; an explicitly named top that is not
    available is returned in the second dict so the caller can refuse it.
    Raises KeyError for a name that is not in the table.
    """
    table = KERNELS if table is None else table
    chosen = list(table.values()) if top == "all" else [table[top]]
    ready = [k for k in chosen if k.available(root)]
    absent = {k.name: k.missing(root) for k in chosen if not k.available(root)}
    return ready, absent


def listing(table: Mapping[str, Kernel] | None = None, root: Path = ROOT) -> str:
    lines = []
    for k in (KERNELS if table is None else table).values():
        state = "available" if k.available(root) else "not yet available"
        lines.append(f"  {k.name:<6} {k.top:<10} {state:<18} {k.description}")
    return "\n".join(lines)
