# SPDX-License-Identifier: Apache-2.0
"""Stimulus for common_axis_checker alone, run by tests/scripts/test_axis_checker.py.

AXIS_CASE picks the traffic: `clean` obeys the protocol (stalls included) and must
pass; every other case breaks one rule once and the checker must end the run.
"""

from __future__ import annotations

import cocotb
from cocotb.triggers import ClockCycles, RisingEdge
from cocotb.types import LogicArray

from uvm_env.common.checker_stim import start

CASES = ("clean", "valid_drop", "data_change", "last_change", "x_ready")


async def _beat(dut, data: int, last: int, stall: int) -> None:
    """Offer one beat, hold it `stall` cycles with ready low, then take it."""
    dut.valid_i.value = 1
    dut.data_i.value = data
    dut.last_i.value = last
    dut.ready_i.value = 0
    for _ in range(stall):
        await RisingEdge(dut.clk_i)
    dut.ready_i.value = 1
    await RisingEdge(dut.clk_i)
    dut.valid_i.value = 0
    dut.ready_i.value = 0


@cocotb.test()
async def axis_checker_stimulus(dut):
    case = await start(dut, "AXIS_CASE", CASES, ("valid_i", "ready_i", "data_i", "last_i"))
    # Legal traffic first: the checker must stay silent through stalls of 0..3 cycles.
    for i in range(8):
        await _beat(dut, data=0x10 + i, last=i % 2, stall=i % 4)
    await ClockCycles(dut.clk_i, 2)
    # Then the planted violation: a beat offered, stalled, and broken while stalled.
    dut.valid_i.value = 1
    dut.data_i.value = 0xA5
    dut.last_i.value = 0
    dut.ready_i.value = 0
    await ClockCycles(dut.clk_i, 2)
    if case == "valid_drop":
        dut.valid_i.value = 0
    elif case == "data_change":
        dut.data_i.value = 0x5A
    elif case == "last_change":
        dut.last_i.value = 1
    elif case == "x_ready":
        dut.ready_i.value = LogicArray("X")  # Icarus only: Verilator is two-state
    await ClockCycles(dut.clk_i, 2)
    dut.valid_i.value = 1
    dut.ready_i.value = 1
    await RisingEdge(dut.clk_i)
    dut.valid_i.value = 0
    await ClockCycles(dut.clk_i, 4)
    dut._log.info("stimulus done (case %s)", case)
