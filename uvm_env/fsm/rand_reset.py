# SPDX-License-Identifier: Apache-2.0
"""FsmResetHooks: fsm_top's side of uvm_env/common/rand_reset.py.

Reset points (FSM_POINTS):
  random        a random cycle of traffic;
  mid_load      a table image half taken on the load stream;
  cmd_frame     a multi-beat command (VALIDATE, MASK_BATCH) half taken;
  mid_response  a result stalled, or a mask frame stalled or half taken.
A reset forgets every table, so each round loads its grammars again (which is where
mid_load lands) and then walks; the grammars are drawn once per test.
"""

from __future__ import annotations

import random

import cocotb
from cocotb.task import Task
from cocotb.triggers import ClockCycles

from uvm_env.common.csr_suite import CsrSuite
from uvm_env.common.rand_reset import RandResetHooks, StreamPins, wait_until
from uvm_env.fsm.csr_regs import BLOCK
from uvm_env.fsm.fsm_base_test import FsmBaseTest
from uvm_env.fsm.fsm_seqs import FsmBaseSeq, LoadSeq, RandomWalkSeq
from uvm_env.fsm.grammars import Grammar

FSM_POINTS = ("random", "mid_load", "cmd_frame", "mid_response")


class FsmResetHooks(RandResetHooks):
    def __init__(self, test: FsmBaseTest, grammars: dict[int, Grammar], walk_ops: int,
                 warmup: int = 1500, limit: int = 20_000, p_error: float = 0.05) -> None:
        self.env = test.env
        self.test, self.grammars, self.walk_ops = test, grammars, walk_ops
        self.warmup, self.limit, self.p_error = warmup, limit, p_error
        dut = test.dut
        self.pins = {name: StreamPins(getattr(dut, f"{name}_tvalid"),
                                      getattr(dut, f"{name}_tready"),
                                      getattr(dut, f"{name}_tlast"))
                     for name in ("s_axis_cmd", "m_axis_rsp", "m_axis_mask", "s_axis_load")}
        self.seqs: list[FsmBaseSeq] = []

    # ---- traffic
    def start_traffic(self, round_no: int) -> Task:
        env, rng = self.test.env, self.test.rng(f"round{round_no}")
        load = LoadSeq(f"load{round_no}", env, rng, self.grammars)
        walk = RandomWalkSeq(f"walk{round_no}", env, rng, n_ops=self.walk_ops,
                             slots=rng.sample(range(env.params.n_slots),
                                              min(6, env.params.n_slots)),
                             p_error=self.p_error, burst=0.3)
        self.seqs = [load, walk]
        return cocotb.start_soon(self._traffic(load, walk))

    async def _traffic(self, load: LoadSeq, walk: RandomWalkSeq) -> None:
        env = self.test.env
        # IRQ_EN set, so the reset must clear CTRL as well as the violation it flags.
        await env.write_csr("CTRL", 1)
        await load.start(env.seqr)
        await walk.start(env.seqr)

    def stop_traffic(self) -> None:
        for seq in self.seqs:
            seq.stop()

    # ---- where the reset lands
    async def wait_point(self, point: str, rng: random.Random) -> bool:
        clock, pins = self.test.clock, self.pins
        if point == "mid_load":   # the loads open every round
            return await wait_until(clock, pins["s_axis_load"].mid_frame, self.limit)
        await ClockCycles(clock, rng.randint(50, self.warmup))
        if point == "random":
            return True
        cond = {
            "cmd_frame": pins["s_axis_cmd"].mid_frame,
            "mid_response": lambda: (pins["m_axis_rsp"].stalled()
                                     or pins["m_axis_mask"].stalled()
                                     or pins["m_axis_mask"].mid_frame()),
        }[point]
        return await wait_until(clock, cond, self.limit)

    # ---- the reset
    async def after_reset(self) -> None:
        """Every register reads its reset value; the interrupt line is low."""
        test, env = self.test, self.test.env
        await ClockCycles(test.clock, 2)
        suite = CsrSuite.on_dut(BLOCK, env.csr, test.clock, test.dut, env.scoreboard,
                                test.rng(f"reset{self.resets}"))
        await suite.hw_reset()
        env.scoreboard.compare(f"reset {self.resets}: irq line", 0, int(test.dut.irq_o.value))
