# SPDX-License-Identifier: Apache-2.0
"""FsmRandomBase: load random grammars, then constrained-random traffic on several slots."""

from __future__ import annotations

from uvm_env.common.checkpoints import Checkpoints
from uvm_env.common.config import env_int
from uvm_env.fsm.fsm_base_test import FsmBaseTest
from uvm_env.fsm.fsm_seqs import RandomWalkSeq
from uvm_env.fsm.grammars import Grammar, random_grammar


class FsmRandomBase(FsmBaseTest):
    n_slots_used = 6
    p_error = 0.0
    weights: dict[str, int] | None = None
    burst = 0.3

    def grammars(self) -> dict[int, Grammar]:
        rng = self.rng("grammars")
        n = self.env.params.n_grammars
        return {gid: random_grammar(rng) for gid in range(n)}

    async def scenario(self) -> None:
        gs = self.grammars()
        for gid, g in gs.items():
            self.logger.info(f"grammar {gid}: {g.summary()} regex {g.pattern}")
        await self.load(gs)
        rng = self.rng("slots")
        slots = rng.sample(range(self.env.params.n_slots),
                           min(self.n_slots_used, self.env.params.n_slots))
        seq = RandomWalkSeq("walk", self.env, self.rng("walk"), n_ops=env_int("N_OPS", 500),
                            slots=slots, weights=self.weights, p_error=self.p_error,
                            burst=self.burst)
        seq.checkpoints = Checkpoints(self.snapshot)
        await seq.start(self.env.seqr)
