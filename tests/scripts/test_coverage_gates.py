# SPDX-License-Identifier: Apache-2.0
"""Coverage gates: functional 100 % and line/branch 95 % per core, waived holes count as
covered, stale waivers are reported, a waiver without a reason is refused, and the
waiver file in docs/ loads."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scripts import coverage_gates as cg

LCOV = """TN:regress
SF:rtl/radix/radix_core.sv
BRDA:10,0,0,3
BRDA:10,0,1,-
DA:10,3
DA:11,0
end_of_record
"""


def _regress(tmp_path: Path) -> Path:
    (tmp_path / "coverage").mkdir()
    (tmp_path / "coverage" / "coverage.info").write_text(LCOV)
    points = [{"name": "op", "hit": 2, "size": 3, "pct": 66.7, "holes": ["RESET"]}]
    (tmp_path / "summary.json").write_text(json.dumps({"coverage": {"functional": {
        "top.radix": {"hit": 2, "size": 3, "pct": 66.7, "points": points}}}}))
    return tmp_path


def _gate(gates: list[cg.Gate], block: str, kind: str) -> cg.Gate:
    return next(g for g in gates if (g.block, g.kind) == (block, kind))


def test_holes_fail_the_gates(tmp_path: Path) -> None:
    gates, _ = cg.evaluate(_regress(tmp_path), [])
    assert _gate(gates, "radix", "functional").holes == ["top.radix.op: RESET"]
    assert (_gate(gates, "radix", "line").pct, _gate(gates, "radix", "branch").pct) == (50, 50)
    assert not any(g.passed for g in gates if g.block == "radix")
    assert not _gate(gates, "fsm", "line").passed    # nothing measured is not a pass


def test_waivers_close_holes_and_stale_ones_are_reported(tmp_path: Path) -> None:
    waivers = [cg.Waiver("functional", "top.radix.op: RES*", "r"),
               cg.Waiver("line", "rtl/radix/radix_core.sv:11", "r"),
               cg.Waiver("branch", "rtl/radix/radix_core.sv:10", "r"),
               cg.Waiver("line", "rtl/radix/radix_core.sv:99", "r")]
    gates, stale = cg.evaluate(_regress(tmp_path), waivers)
    assert all(g.passed for g in gates if g.block == "radix")
    assert [w.match for w in stale] == ["rtl/radix/radix_core.sv:99"]


def test_a_waiver_needs_a_reason(tmp_path: Path) -> None:
    f = tmp_path / "w.yml"
    f.write_text("waivers:\n  - {kind: line, match: 'rtl/x.sv:1', reason: ''}\n")
    with pytest.raises(ValueError, match="no reason"):
        cg.load_waivers(f)


def test_the_waiver_file_loads() -> None:
    assert isinstance(cg.load_waivers(), list)
