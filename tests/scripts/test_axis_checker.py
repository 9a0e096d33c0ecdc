# SPDX-License-Identifier: Apache-2.0
"""common_axis_checker catches each planted protocol violation, on both simulators.

Each case simulates the checker alone (tests/common/axis_checker_stimulus.py) through
the same runner as every test (scripts/sim.py: COMMON_ASSERT_ON, Verilator --assert):
legal traffic must pass; a violation must fail the run, with the checker's message.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from scripts import registry, sim

CHECKER = registry.SimTest(
    name="axis_checker",
    block="common",
    top="common_axis_checker",
    module="tests.common.axis_checker_stimulus",
    testcase="axis_checker_stimulus",
    description="protocol checker alone, with planted violations",
    filelists=("rtl/common/common.f",),
    parameters={"DataW": 8},
)

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
    res = sim.run_one(CHECKER, simulator, seed=1, out_dir=tmp_path,
                      extra_env={"AXIS_CASE": case})
    log_path = tmp_path / "sim.log"
    assert log_path.exists(), f"no simulation ran: {res.errors}"
    log = log_path.read_text(errors="replace")
    if message is None:
        assert res.passed, f"legal traffic failed: {res.errors}"
        assert "stimulus done" in log and "AXI4-Stream" not in log
    else:
        assert not res.passed, f"{case} on {simulator} was not caught"
        assert message in log, f"failed, but not by the checker: {res.errors}"
