# SPDX-License-Identifier: Apache-2.0
"""fsm_rand_reset: rst_ni at a random cycle, N_ROUNDS times: mid-LOAD, mid-command frame,
mid-response (a result or mask stalled or half sent) and at a random cycle. After each
reset both predictors restart from power-on (no tables, no slot bound), every register
must read its reset value (rtl/fsm/fsm_regs.yml), and the next round loads the grammars
again; a last walk of N_OPS commands runs to the end and every counter is compared."""

from __future__ import annotations

import pyuvm

from uvm_env.common.checkpoints import Checkpoints
from uvm_env.common.config import env_int
from uvm_env.common.csr_noise import CsrNoise
from uvm_env.common.rand_reset import RandResetRounds
from uvm_env.fsm.fsm_seqs import RandomWalkSeq
from uvm_env.fsm.grammars import random_grammar
from uvm_env.fsm.rand_reset import FSM_POINTS, FsmResetHooks
from uvm_env.fsm.random_test import FsmRandomBase


@pyuvm.test()
class FsmRandResetTest(FsmRandomBase):
    p_error = 0.05     # malformed commands in each round's walk

    def extra_timeout_us(self) -> int:
        return 400 * env_int("N_ROUNDS", 8)

    def noise(self) -> CsrNoise | None:
        """Background CSR traffic during the rounds (fsm_stress_all)."""
        return None

    async def scenario(self) -> None:
        rng = self.rng("grammars")
        grammars = {gid: self.fitting(lambda: random_grammar(rng))
                    for gid in range(self.env.params.n_grammars)}
        hooks = FsmResetHooks(self, grammars, walk_ops=100_000, p_error=self.p_error)
        rounds = RandResetRounds(hooks, self.clock, self.reset, self.rng("reset"), FSM_POINTS,
                                 reset_cycles=self.cfg.reset_cycles, noise=self.noise())
        await hooks.after_reset()    # the reset at time zero is checked like the others
        await rounds.run(env_int("N_ROUNDS", 8))
        rounds.require(self.env.scoreboard.check)
        await self.load(grammars)
        slots = list(range(min(6, self.env.params.n_slots)))
        walk = RandomWalkSeq("walk", self.env, self.rng("walk"), n_ops=env_int("N_OPS", 300),
                             slots=slots, p_error=0.05)
        walk.checkpoints = Checkpoints(self.snapshot)
        await walk.start(self.env.seqr)
        self.figures["resets"] = {"reached": rounds.reached, "missed": rounds.missed}
        if rounds.noise is not None:
            self.figures["csr_noise_accesses"] = rounds.noise.accesses
        self.logger.info(f"resets: reached {rounds.reached}, missed {rounds.missed}; "
                         f"{self.env.driver.aborted} commands dropped by them")
