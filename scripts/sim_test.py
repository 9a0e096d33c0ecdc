# SPDX-License-Identifier: Apache-2.0
"""SimTest: what one registered simulation test is (scripts/registry.py lists them).

A module of its own so that code which makes tests (scripts/regex2sv.py's
generated-DUT test) and the registry that lists them both import it, instead of
importing each other.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SIMULATORS = ("verilator", "icarus")


@dataclass(frozen=True)
class SimTest:
    name: str
    block: str  # common | radix | fsm | top
    top: str  # HDL toplevel module
    module: str  # Python module holding the pyuvm test
    testcase: str  # pyuvm uvm_test subclass to run
    description: str
    filelists: tuple[str, ...]  # rtl/<blk>/<blk>.f, in compile order
    parameters: Mapping[str, object] = field(default_factory=dict)
    sims: tuple[str, ...] = SIMULATORS
    ci_sims: tuple[str, ...] = SIMULATORS
    env: Mapping[str, str] = field(default_factory=dict)  # knobs for every run
    ci_env: Mapping[str, str] = field(default_factory=dict)  # overrides for `make test`
    # Overrides on top of ci_env for Icarus runs in CI: the same scenario, fewer items,
    # for the few builds Icarus runs several times slower than Verilator. Verilator
    # still runs ci_env's size, and the coverage gates merge both.
    icarus_ci_env: Mapping[str, str] = field(default_factory=dict)

    def sources(self) -> list[Path]:
        """Source files in compile order, read from the block file lists."""
        files: list[Path] = []
        for flist in self.filelists:
            fpath = ROOT / flist
            for line in fpath.read_text().splitlines():
                line = line.split("//")[0].strip()
                if line:
                    files.append(fpath.parent / line)
        return files

    def include_dirs(self) -> list[Path]:
        return sorted({(ROOT / f).parent for f in self.filelists} | {ROOT / "rtl/common"})

    def config_key(self) -> str:
        """Names one DUT build: same top and parameters share a build."""
        params = "_".join(f"{k}{v}" for k, v in sorted(self.parameters.items()))
        return f"{self.top}-{params}" if params else self.top
