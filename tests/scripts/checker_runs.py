# SPDX-License-Identifier: Apache-2.0
"""Shared by the protocol-checker tests: one checker alone, one planted case per run.

Each case simulates the checker with its stimulus module through the same runner as
every test (scripts/sim.py: COMMON_ASSERT_ON, Verilator --assert). Legal traffic must
pass without a word from the checker; a violation must fail the run with its message.
"""

from __future__ import annotations

from pathlib import Path

from scripts import registry, sim


def checker_test(top: str, parameters: dict[str, int]) -> registry.SimTest:
    """The SimTest of checker `top` driven by tests/common/<name>_stimulus.py."""
    name = top.removeprefix("common_")
    return registry.SimTest(
        name=name, block="common", top=top, module=f"tests.common.{name}_stimulus",
        testcase=f"{name}_stimulus", description=f"{top} alone, with planted violations",
        filelists=("rtl/common/common.f",), parameters=parameters)


def run_case(checker: registry.SimTest, case_var: str, case: str, simulator: str,
             message: str | None, silent_tag: str, tmp_path: Path) -> None:
    res = sim.run_one(checker, simulator, seed=1, out_dir=tmp_path,
                      extra_env={case_var: case})
    log_path = tmp_path / "sim.log"
    assert log_path.exists(), f"no simulation ran: {res.errors}"
    log = log_path.read_text(errors="replace")
    if message is None:
        assert res.passed, f"legal traffic failed: {res.errors}"
        assert "stimulus done" in log and silent_tag not in log
    else:
        assert not res.passed, f"{case} on {simulator} was not caught"
        assert message in log, f"failed, but not by the checker: {res.errors}"
