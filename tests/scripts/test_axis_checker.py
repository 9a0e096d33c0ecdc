# SPDX-License-Identifier: Apache-2.0
"""common_axis_checker catches each planted protocol violation, on both simulators.

Each case simulates the checker alone (tests/common/axis_checker_stimulus.py) through
the same runner as every test (scripts/sim.py: COMMON_ASSERT_ON, Verilator --assert):
legal traffic must pass; a violation must fail the run, with the checker's message.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from scripts import registry
from tests.scripts.checker_runs import checker_test, run_case

CHECKER = checker_test("common_axis_checker", {"DataW": 8})

# (case, simulators, expected message); None: the run must pass.
CASES = [
    ("clean", registry.SIMULATORS, None),
    ("valid_drop", registry.SIMULATORS, "valid dropped while stalled"),
    ("data_change", registry.SIMULATORS, "data/last changed while stalled"),
    ("last_change", registry.SIMULATORS, "data/last changed while stalled"),
    # Verilator is two-state (X reads as 0): the X check can only bite on Icarus.
    ("x_ready", ("icarus",), "X/Z on valid, ready or last"),
]


@pytest.mark.parametrize(
    ("case", "simulator", "message"),
    [(c, s, m) for c, sims, m in CASES for s in sims],
    ids=lambda v: str(v) if v is not None and len(str(v)) < 16 else "",
)
def test_axis_checker(case: str, simulator: str, message: str | None, tmp_path: Path):
    run_case(CHECKER, "AXIS_CASE", case, simulator, message, "AXI4-Stream", tmp_path)
