# SPDX-License-Identifier: Apache-2.0
"""seg_counter_random: common_seg_counter against an integer, every cycle: long runs of
increments (carries across every segment, wrap-around), clr_i, and rst_ni mid-run. Init
sits just below the wrap, so each clear or reset is followed by a full carry ripple.

The same test drives seg_counter_random_sub (common_seg_counter_sub: the counter as a
submodule, plus a second one whose clr_i is tied off, compared on value_nc_o against an
integer that only a reset brings back to Init)."""

from __future__ import annotations

import pyuvm
from cocotb.triggers import FallingEdge, RisingEdge
from pyuvm import uvm_env

from uvm_env.common.base_test import BaseTest
from uvm_env.common.scoreboard_base import ScoreboardBase


class _Env(uvm_env):
    def build_phase(self) -> None:
        self.scoreboard = ScoreboardBase("scoreboard", self)


@pyuvm.test()
class SegCounterRandomTest(BaseTest):
    def make_env(self) -> _Env:
        return _Env("env", self)

    async def body(self) -> None:
        dut, sb, rng = self.dut, self.env.scoreboard, self.cfg.child_rng("counter")
        width, init = int(dut.Width.value), int(dut.Init.value)
        mask = (1 << width) - 1
        # The wrapper's second counter, if this build has it.
        no_clear = dut.value_nc_o if hasattr(dut, "value_nc_o") else None
        model = model_nc = init
        dut.clr_i.value = 0
        dut.inc_i.value = 0
        resets = clears = wraps = 0
        for _ in range(self.cfg.n_items):
            await FallingEdge(self.clock)
            sb.compare("value_o", model, int(dut.value_o.value))
            if no_clear is not None:
                sb.compare("value_nc_o", model_nc, int(no_clear.value))
            roll = rng.random()
            rst, clr = roll < 0.002, 0.002 <= roll < 0.006
            inc = rng.random() < 0.97
            dut.rst_ni.value = int(not rst)
            dut.clr_i.value = int(clr)
            dut.inc_i.value = int(inc)
            await RisingEdge(self.clock)
            if rst:
                model_nc = init
            elif inc:
                model_nc = (model_nc + 1) & mask
            if rst or clr:
                model = init
                resets += rst
                clears += clr
            elif inc:
                wraps += model == mask
                model = (model + 1) & mask
        dut.rst_ni.value = 1
        sb.check("stimulus reached a reset, a clear and a wrap", min(resets, clears, wraps) > 0,
                 f"resets {resets}, clears {clears}, wraps {wraps}")
        self.logger.info(f"{self.cfg.n_items} cycles: {resets} resets, {clears} clears, "
                         f"{wraps} wraps{'; two counters' if no_clear is not None else ''}")
