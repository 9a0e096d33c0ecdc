# SPDX-License-Identifier: Apache-2.0
"""common_axil_checker catches each planted AXI4-Lite violation, on both simulators.

As test_axis_checker.py: the checker alone (tests/common/axil_checker_stimulus.py)
through the same runner as every test; legal traffic must pass, a violation must fail
the run with the checker's message.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from scripts import registry
from tests.scripts.checker_runs import checker_test, run_case

CHECKER = checker_test("common_axil_checker", {"AddrW": 8})

CASES = [
    ("clean", registry.SIMULATORS, None),
    ("b_early", registry.SIMULATORS, "B offered without a write whose AW and W were taken"),
    ("b_twice", registry.SIMULATORS, "B offered without a write whose AW and W were taken"),
    ("r_without_ar", registry.SIMULATORS, "R offered without a read whose AR was taken"),
    ("b_drop", registry.SIMULATORS, "valid dropped while stalled"),
    ("r_change", registry.SIMULATORS, "data/last changed while stalled"),
    ("x_bresp", ("icarus",), "X/Z on BRESP while BVALID"),
]


@pytest.mark.parametrize(
    ("case", "simulator", "message"),
    [(c, s, m) for c, sims, m in CASES for s in sims],
    ids=lambda v: str(v) if v is not None and len(str(v)) < 16 else "",
)
def test_axil_checker(case: str, simulator: str, message: str | None, tmp_path: Path):
    run_case(CHECKER, "AXIL_CASE", case, simulator, message, "AXI4-", tmp_path)
