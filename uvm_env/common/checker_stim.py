# SPDX-License-Identifier: Apache-2.0
"""Bring-up shared by the protocol checkers' stimulus modules (tests/common/*_checker_*)."""

from __future__ import annotations

import os

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles


async def start(dut: object, case_var: str, cases: tuple[str, ...],
                inputs: tuple[str, ...]) -> str:
    """The case named by environment variable case_var (default "clean"), with the clock
    running, every input in ``inputs`` at 0 and reset held 3 cycles, then released."""
    case = os.environ.get(case_var, "clean")
    assert case in cases, f"unknown {case_var} {case}"
    cocotb.start_soon(Clock(dut.clk_i, 10, unit="ns").start())
    dut.rst_ni.value = 0
    for name in inputs:
        getattr(dut, name).value = 0
    await ClockCycles(dut.clk_i, 3)
    dut.rst_ni.value = 1
    return case
