# SPDX-License-Identifier: Apache-2.0
"""fsm_multislot: all slots interleaved over two grammars.

Three phases: round-robin ADVANCE over every slot with no idles or stalls (one
command per cycle through the pipeline, a different slot each cycle); runs of
ADVANCE and MASK on one slot (the same-slot forwarding and MASK hazard paths);
then random interleaving under idles and back-pressure.
"""

from __future__ import annotations

import pyuvm

from uvm_env.common.config import env_int
from uvm_env.fsm.fsm_base_test import FsmBaseTest
from uvm_env.fsm.fsm_seqs import InterleaveSeq, RandomWalkSeq
from uvm_env.fsm.grammars import random_grammar


@pyuvm.test()
class FsmMultislotTest(FsmBaseTest):
    async def scenario(self) -> None:
        rng = self.rng("grammars")
        gs = {0: random_grammar(rng), 1: random_grammar(rng)}
        for g in gs.values():
            self.logger.info(g.summary())
        await self.load(gs)
        n, slots = env_int("N_OPS", 500), list(range(self.env.params.n_slots))
        await self.drain()
        self.env.set_traffic(0.0, 0.0, "full")
        await InterleaveSeq("rr", self.env, self.rng("rr"), slots, rounds=max(2, n // 200),
                            same_slot_run=1).start(self.env.seqr)
        await InterleaveSeq("runs", self.env, self.rng("runs"), slots[:8],
                            rounds=max(2, n // 100), same_slot_run=6).start(self.env.seqr)
        await self.drain()
        self.env.set_traffic(self.cfg.p_idle, self.cfg.p_stall, "rand")
        await RandomWalkSeq("walk", self.env, self.rng("walk"), n_ops=n, slots=slots,
                            burst=0.1).start(self.env.seqr)
