# SPDX-License-Identifier: Apache-2.0
"""fsm_csr_suite: the OpenTitan-style CSR suite (uvm_env/common/csr_suite.py) on fsm_top,
driven from rtl/fsm/fsm_regs.yml: hw_reset, rw with every WSTRB, bit-bash, aliasing,
unmapped SLVERR, R-channel back-pressure, W1C strobes, W1C racing a violation in the same
cycle (the violation survives and its slot/position/token are recorded), then a random
walk with the counters read in the background (monotonic) and every counter compared with
the model at the end."""

from __future__ import annotations

import cocotb
import pyuvm

from uvm_env.common.config import env_int
from uvm_env.common.csr_suite import CsrSuite, W1cHooks
from uvm_env.fsm.csr_regs import BLOCK
from uvm_env.fsm.fsm_base_test import FsmBaseTest
from uvm_env.fsm.fsm_seqs import FsmBaseSeq, RandomWalkSeq
from uvm_env.fsm.grammars import random_grammar


class _Violations(W1cHooks):
    """An illegal ADVANCE on a freshly bound slot: one violation (viol_valid_i pulses)."""

    def __init__(self, test: FsmCsrSuiteTest, seq: FsmBaseSeq) -> None:
        self.test, self.seq, self.slot = test, seq, 0

    async def raise_event(self) -> None:
        env, seq = self.test.env, self.seq
        self.slot = (self.slot + 1) % env.params.n_slots
        await seq.reset(self.slot)
        await seq.bind(self.slot, 0)
        await self.test.drain()
        await seq.advance(self.slot, seq.illegal(self.slot))
        await self.test.drain()

    async def clear_models(self) -> None:
        self.test.env.scoreboard.pred.clear_irq()
        self.test.env.shadow.clear_irq()

    async def after_race(self, offset: int) -> None:
        env = self.test.env
        got = tuple([await env.read_csr(n) for n in ("VIOL_SLOT", "VIOL_POS", "VIOL_TOKEN")])
        env.scoreboard.compare(f"VIOL_SLOT/POS/TOKEN after the race (offset {offset})",
                               env.shadow.viol_regs, got)


@pyuvm.test()
class FsmCsrSuiteTest(FsmBaseTest):
    async def scenario(self) -> None:
        env, dut = self.env, self.dut
        env.set_traffic(0.0, 0.0)
        suite = CsrSuite.on_dut(BLOCK, env.csr, self.clock, dut, env.scoreboard,
                                self.rng("csr"))
        await suite.register_steps()

        await self.load({0: random_grammar(self.rng("grammar"))})
        seq = self.direct("csr")
        irq, hooks = BLOCK.by_name()["IRQ_STATUS"], _Violations(self, seq)
        await suite.w1c_strobes(irq, hooks)
        await suite.w1c_race(irq, dut.u_csr.viol_valid_i, hooks)

        env.set_traffic(self.cfg.p_idle, self.cfg.p_stall, tag="bg")
        traffic_done = False
        reader = cocotb.start_soon(suite.background_counters(lambda: traffic_done))
        walk = RandomWalkSeq("walk", env, self.rng("walk"), n_ops=env_int("N_OPS", 300),
                             slots=list(range(8)), burst=0.2,
                             weights={"advance": 50, "illegal": 5, "mask": 8,
                                      "validate": 8, "reset": 3})
        await walk.start(env.seqr)
        await self.drain()
        traffic_done = True
        await reader
        suite.require()
        self.figures["csr_suite"] = suite.counts
        self.logger.info(f"CSR suite checks: {suite.counts}")
