# SPDX-License-Identifier: Apache-2.0
"""Stimulus for common_axil_checker alone, run by tests/scripts/test_axil_checker.py.

AXIL_CASE picks the traffic: `clean` plays a slave that obeys AXI4-Lite (AW before W,
W before AW, both together, back-pressured B and R) and must pass; every other case
breaks one rule once and the checker must end the run.
"""

from __future__ import annotations

import cocotb
from cocotb.triggers import RisingEdge
from cocotb.types import LogicArray

from uvm_env.common.checker_stim import start

CASES = ("clean", "b_early", "b_twice", "r_without_ar", "b_drop", "r_change", "x_bresp")
INPUTS = ("awaddr", "awvalid", "awready", "wdata", "wstrb", "wvalid", "wready", "bresp",
          "bvalid", "bready", "araddr", "arvalid", "arready", "rdata", "rresp", "rvalid",
          "rready")


def _set(dut, **values: int) -> None:
    for name, v in values.items():
        getattr(dut, f"{name}_i").value = v


async def _tick(dut, n: int = 1) -> None:
    for _ in range(n):
        await RisingEdge(dut.clk_i)


async def _write(dut, aw_first: int, w_first: int, b_stall: int) -> None:
    """AW taken after aw_first cycles, W after w_first, then B held b_stall cycles."""
    _set(dut, awaddr=0x10, wdata=0x1234, wstrb=0xF, awvalid=1, wvalid=1)
    aw_done = w_done = False
    for cyc in range(max(aw_first, w_first) + 1):
        take_aw, take_w = cyc == aw_first, cyc == w_first
        _set(dut, awready=int(take_aw and not aw_done), wready=int(take_w and not w_done))
        await _tick(dut)
        aw_done |= take_aw
        w_done |= take_w
        _set(dut, awvalid=int(not aw_done), wvalid=int(not w_done))
    _set(dut, awready=0, wready=0, bvalid=1, bresp=0, bready=0)
    await _tick(dut, b_stall)
    _set(dut, bready=1)
    await _tick(dut)
    _set(dut, bvalid=0, bready=0)


async def _read(dut, r_stall: int, data: int) -> None:
    _set(dut, araddr=0x20, arvalid=1, arready=1)
    await _tick(dut)
    _set(dut, arvalid=0, arready=0, rvalid=1, rdata=data, rresp=0, rready=0)
    await _tick(dut, r_stall)
    _set(dut, rready=1)
    await _tick(dut)
    _set(dut, rvalid=0, rready=0)


@cocotb.test()
async def axil_checker_stimulus(dut):
    case = await start(dut, "AXIL_CASE", CASES, tuple(f"{n}_i" for n in INPUTS))
    # Legal traffic: AW and W in either order or together, B and R back-pressured.
    for aw_first, w_first, stall in ((0, 0, 0), (2, 0, 1), (0, 3, 2), (1, 1, 3)):
        await _write(dut, aw_first, w_first, stall)
        await _read(dut, stall, 0xC0DE + stall)
    await _tick(dut, 2)
    # The planted violation.
    if case == "b_early":          # B while only AW has been taken
        _set(dut, awvalid=1, awready=1)
        await _tick(dut)
        _set(dut, awvalid=0, awready=0, bvalid=1, bready=1)
        await _tick(dut)
    elif case == "b_twice":        # a second B for one write
        await _write(dut, 0, 0, 0)
        _set(dut, bvalid=1, bready=1)
        await _tick(dut)
    elif case == "r_without_ar":
        _set(dut, rvalid=1, rready=1)
        await _tick(dut)
    elif case == "b_drop":         # BVALID dropped while BREADY is low
        _set(dut, awvalid=1, awready=1, wvalid=1, wready=1)
        await _tick(dut)
        _set(dut, awvalid=0, awready=0, wvalid=0, wready=0, bvalid=1, bready=0)
        await _tick(dut, 2)
        _set(dut, bvalid=0)
        await _tick(dut, 2)
    elif case == "r_change":       # RDATA changed while RREADY is low
        _set(dut, arvalid=1, arready=1)
        await _tick(dut)
        _set(dut, arvalid=0, arready=0, rvalid=1, rdata=1, rready=0)
        await _tick(dut, 2)
        _set(dut, rdata=2)
        await _tick(dut, 2)
    elif case == "x_bresp":        # Icarus only: Verilator is two-state
        _set(dut, awvalid=1, awready=1, wvalid=1, wready=1)
        await _tick(dut)
        _set(dut, awvalid=0, awready=0, wvalid=0, wready=0, bvalid=1, bready=1)
        dut.bresp_i.value = LogicArray("XX")
        await _tick(dut)
    _set(dut, **{name: 0 for name in INPUTS})
    await _tick(dut, 4)
    dut._log.info("stimulus done (case %s)", case)
