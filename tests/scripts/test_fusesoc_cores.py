# SPDX-License-Identifier: Apache-2.0
"""The FuseSoC core files name the same RTL as the file lists the simulators and
Vivado use: a file added to a `.f` list and forgotten in the `.core` (or the other
way round) fails here, before `make lint` meets it as a missing module."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]


def _core_files(core: Path) -> set[str]:
    doc = yaml.safe_load(core.read_text())
    return {next(iter(f)) if isinstance(f, dict) else f
            for fs in doc["filesets"].values() for f in fs.get("files", [])
            if str(next(iter(f)) if isinstance(f, dict) else f).endswith(".sv")}


def _list_files(*lists: Path) -> set[str]:
    """Files a `.f` list names from its own folder (other blocks come by dependency)."""
    return {line.strip() for f in lists for line in f.read_text().splitlines()
            if line.strip().endswith(".sv") and "/" not in line.strip()}


@pytest.mark.parametrize("block,lists", [
    ("common", ["common.f"]), ("radix", ["radix.f"]), ("fsm", ["fsm.f"]),
    ("top", ["krnl_radix.f", "krnl_fsm.f"]),
])
def test_core_file_set_matches_the_file_lists(block: str, lists: list[str]) -> None:
    folder = ROOT / "rtl" / block
    in_core = _core_files(folder / f"{block}.core")
    in_lists = _list_files(*(folder / f for f in lists))
    assert in_core == in_lists, (f"only in {block}.core: {sorted(in_core - in_lists)}; "
                                 f"only in the .f lists: {sorted(in_lists - in_core)}")
