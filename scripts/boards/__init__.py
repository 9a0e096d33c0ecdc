# SPDX-License-Identifier: Apache-2.0
"""Boards registry: one `<name>.toml` file per board in this folder.

Adding a board (say an HBM U55C) means adding one file; nothing else names a
board. Every synthesis flow (`make synth`, `make package`, `make
synth-estimate`) reads the part, platform, clocks, memory target and resource
budget from here, so a wrong number has exactly one place to live.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

BOARDS_DIR = Path(__file__).resolve().parent

# Resources a board file must state, in the order reports print them.
RESOURCE_KEYS = ("lut", "ff", "bram36", "uram", "dsp")
_TOP_KEYS = {
    "name", "description", "part", "platform", "vitis_version", "kernel_clocks_mhz",
    "link_output", "package_options", "memory", "resources",
}
# Optional: [config.<kernel>] tables, the named configuration of each kernel on
# this board (parameter -> integer), used by synthesis flows and scale tests.
_OPTIONAL_KEYS = {"config"}
_MEMORY_KEYS = {"target", "kind", "size_gb"}


class BoardError(ValueError):
    """A board file is missing, malformed or names an unknown board."""


@dataclass(frozen=True)
class Board:
    name: str
    description: str
    part: str                          # Vivado part string, e.g. xcvc1902-vsvd1760-2MP-e-S
    platform: str                      # Vitis platform (shell) name
    vitis_version: str                 # the only Vitis release the platform ships for
    kernel_clocks_mhz: tuple[int, ...]  # fixed platform clocks, default first
    link_output: str                   # "xsa" (Versal: link then package) or "xclbin"
    package_options: tuple[str, ...]   # extra `v++ --package` options
    memory_target: str                 # v++ connectivity bank, e.g. MC_NOC0
    memory_kind: str                   # DDR4, HBM2, ...
    memory_gb: int
    resources: dict[str, int]          # RESOURCE_KEYS -> count available to kernels
    configs: dict[str, dict[str, int]] = None  # kernel -> parameters of its board config

    @property
    def default_clock_mhz(self) -> int:
        return self.kernel_clocks_mhz[0]

    def clock_period_ns(self, mhz: int | None = None) -> str:
        """Period as XDC wants it: three decimals, so 300 MHz is 3.333."""
        return f"{1000.0 / (mhz or self.default_clock_mhz):.3f}"


def names() -> list[str]:
    """Every board with a file in this folder, sorted."""
    return sorted(p.stem for p in BOARDS_DIR.glob("*.toml"))


def load(name: str, boards_dir: Path | None = None) -> Board:
    """Read and check one board file; BoardError says what is wrong."""
    path = (boards_dir or BOARDS_DIR) / f"{name}.toml"
    if not path.is_file():
        raise BoardError(f"unknown board '{name}'; boards: {', '.join(names()) or '(none)'}")
    return parse(path)


def parse(path: Path) -> Board:
    try:
        raw = tomllib.loads(path.read_text())
    except tomllib.TOMLDecodeError as exc:
        raise BoardError(f"{path}: {exc}") from None
    _check_keys(path, "top level", set(raw) - _OPTIONAL_KEYS, _TOP_KEYS)
    configs: dict[str, dict[str, int]] = {}
    for kernel, params in raw.get("config", {}).items():
        if not isinstance(params, dict) or not all(isinstance(v, int) for v in params.values()):
            raise BoardError(f"{path} [config.{kernel}]: parameters must be integers")
        configs[kernel] = dict(params)
    _check_keys(path, "[memory]", set(raw["memory"]), _MEMORY_KEYS)
    _check_keys(path, "[resources]", set(raw["resources"]), set(RESOURCE_KEYS))
    if raw["name"] != path.stem:
        raise BoardError(f"{path}: name '{raw['name']}' differs from the file name")
    clocks = tuple(int(c) for c in raw["kernel_clocks_mhz"])
    if not clocks or min(clocks) <= 0:
        raise BoardError(f"{path}: kernel_clocks_mhz must list positive clocks")
    if raw["link_output"] not in ("xsa", "xclbin"):
        raise BoardError(f"{path}: link_output must be 'xsa' or 'xclbin'")
    resources = {k: int(raw["resources"][k]) for k in RESOURCE_KEYS}
    if min(resources.values()) <= 0:
        raise BoardError(f"{path}: every resource count must be positive")
    return Board(
        name=raw["name"],
        description=raw["description"],
        part=raw["part"],
        platform=raw["platform"],
        vitis_version=str(raw["vitis_version"]),
        kernel_clocks_mhz=clocks,
        link_output=raw["link_output"],
        package_options=tuple(raw["package_options"]),
        memory_target=raw["memory"]["target"],
        memory_kind=raw["memory"]["kind"],
        memory_gb=int(raw["memory"]["size_gb"]),
        resources=resources,
        configs=configs,
    )


def listing() -> str:
    """One line per board, for usage errors and `--list-boards`."""
    lines = []
    for name in names():
        try:
            b = load(name)
            lines.append(f"  {b.name:<10} {b.part}  {b.platform}  ({b.description})")
        except BoardError as exc:
            lines.append(f"  {name:<10} BROKEN: {exc}")
    return "\n".join(lines)


def _check_keys(path: Path, where: str, got: set[str], want: set[str]) -> None:
    if got != want:
        missing, extra = sorted(want - got), sorted(got - want)
        raise BoardError(f"{path} {where}: missing {missing}, unknown {extra}")
