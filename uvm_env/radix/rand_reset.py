# SPDX-License-Identifier: Apache-2.0
"""RadixResetHooks: radix_top's side of uvm_env/common/rand_reset.py.

Reset points (RADIX_POINTS):
  random        a random cycle of traffic;
  cmd_frame     a command frame half taken (a beat without TLAST accepted);
  busy          the core executing a command, no response beat presented yet;
  mid_response  a response presented and stalled, or half taken;
  init_sweep    the sweep that clears the tables after a reset (a second reset lands in it).
Before looking for its point a round runs traffic for a random while, so the tree, the
counters, CTRL and IRQ_STATUS are not at their reset values when the reset comes.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import cocotb
from cocotb.task import Task
from cocotb.triggers import ClockCycles

from uvm_env.common.csr_suite import CsrSuite
from uvm_env.common.rand_reset import RandResetHooks, StreamPins, pulse_reset, wait_until
from uvm_env.radix.csr_regs import BLOCK
from uvm_env.radix.radix_base_test import RadixBaseTest
from uvm_env.radix.radix_seqs import RandomOpsSeq

RADIX_POINTS = ("random", "cmd_frame", "busy", "mid_response", "init_sweep")
# Points reached with no traffic of their own (the round only resets).
QUIET_POINTS = ("init_sweep",)


class RadixResetHooks(RandResetHooks):
    def __init__(self, test: RadixBaseTest, make_seq: Callable[[str], RandomOpsSeq],
                 warmup: int = 1500, limit: int = 20_000) -> None:
        self.env = test.env
        self.test, self.make_seq = test, make_seq
        self.warmup, self.limit = warmup, limit
        dut = test.dut
        self.cmd = StreamPins(dut.s_axis_cmd_tvalid, dut.s_axis_cmd_tready,
                              dut.s_axis_cmd_tlast)
        self.rsp = StreamPins(dut.m_axis_rsp_tvalid, dut.m_axis_rsp_tready,
                              dut.m_axis_rsp_tlast)
        self.seq: RandomOpsSeq | None = None
        self.sweep_checks = 0

    # ---- traffic
    def start_traffic(self, round_no: int) -> Task | None:
        self.seq = self.make_seq(f"round{round_no}")
        return cocotb.start_soon(self._traffic(self.seq))

    async def _traffic(self, seq: RandomOpsSeq) -> None:
        # IRQ_EN set, so the reset must clear CTRL as well as the interrupt it enables.
        await self.test.env.csr.write_dword(4 * BLOCK.by_name()["CTRL"].index, 1)
        await seq.start(self.test.env.seqr)

    def stop_traffic(self) -> None:
        if self.seq is not None:
            self.seq.stop()

    # ---- where the reset lands
    async def wait_point(self, point: str, rng: random.Random) -> bool:
        dut, clock = self.test.dut, self.test.clock
        if point == "init_sweep":
            return await self._into_sweep(rng)
        await ClockCycles(clock, rng.randint(50, self.warmup))
        if point == "random":
            return True
        cond = {
            "cmd_frame": self.cmd.mid_frame,
            "busy": lambda: bool(int(dut.busy.value)) and not int(dut.m_axis_rsp_tvalid.value),
            "mid_response": lambda: self.rsp.stalled() or self.rsp.mid_frame(),
        }[point]
        return await wait_until(clock, cond, self.limit)

    async def _into_sweep(self, rng: random.Random) -> bool:
        """Reset once (nothing is in flight: no traffic this round), then return a random
        number of cycles into the sweep that follows, with the sweep still running."""
        test = self.test
        await pulse_reset(test.clock, test.reset, test.cfg.reset_cycles)
        # The sweep clears TokenCap/16 lines; land anywhere before its last few cycles.
        lines = test.env.params.token_cap // 16
        await ClockCycles(test.clock, rng.randint(1, max(1, lines - 8)))
        return not int(test.dut.init_done.value)

    # ---- the reset
    async def after_reset(self) -> None:
        """The sweep runs again (INIT_DONE low at once), then every register reads its
        reset value and the interrupt line is low."""
        test, env, sb = self.test, self.test.env, self.test.env.scoreboard
        status = await env.read_csr("STATUS")
        sb.check(f"reset {self.resets}: init sweep restarted", not status & 2,
                 f"STATUS={status:#x} right after reset")
        await env.check_l2_idle(f"right after reset {self.resets}")
        self.sweep_checks += 1
        await env.wait_init_done()
        suite = CsrSuite.on_dut(BLOCK, env.csr, test.clock, test.dut, sb,
                                test.cfg.child_rng(f"reset{self.resets}"))
        await suite.hw_reset()
        sb.compare(f"reset {self.resets}: irq line", 0, int(test.dut.irq.value))
