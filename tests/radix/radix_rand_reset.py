# SPDX-License-Identifier: Apache-2.0
"""radix_rand_reset: rst_ni at a random cycle, N_ROUNDS times: mid-command frame, while
the core executes, mid-response (stalled or half sent), during the init sweep, and at a
random cycle. After each reset the predictor restarts from power-on, every register must
read its reset value (rtl/radix/radix_regs.yml) and traffic goes on; a last stretch of
N_OPS commands runs to the end and every counter is compared with the model."""

from __future__ import annotations

import pyuvm

from uvm_env.common.config import env_int
from uvm_env.common.csr_noise import CsrNoise
from uvm_env.common.rand_reset import RandResetRounds
from uvm_env.radix.radix_seqs import RandomOpsSeq
from uvm_env.radix.rand_reset import QUIET_POINTS, RADIX_POINTS, RadixResetHooks
from uvm_env.radix.random_test import RadixRandomBase


@pyuvm.test()
class RadixRandResetTest(RadixRandomBase):
    p_error = 0.05     # refusals set IRQ_STATUS and ERRORS before the reset clears them

    def round_seq(self, name: str) -> RandomOpsSeq:
        """Long enough to be still running when the reset point comes."""
        seq = self.make_sequence()
        seq.set_name(name)
        seq.n_ops = 100_000
        seq.checkpoints = None   # a snapshot's CSR reads would be cut by the reset
        return seq

    def noise(self) -> CsrNoise | None:
        """Background CSR traffic during the rounds (radix_stress_all)."""
        return None

    async def body(self) -> None:
        hooks = RadixResetHooks(self, self.round_seq)
        rounds = RandResetRounds(hooks, self.clock, self.reset, self.cfg.child_rng("reset"),
                                 RADIX_POINTS, quiet=QUIET_POINTS,
                                 reset_cycles=self.cfg.reset_cycles, noise=self.noise())
        await hooks.after_reset()    # the reset at time zero is checked like the others
        await rounds.run(env_int("N_ROUNDS", 10))
        rounds.require(self.env.scoreboard.check)
        await super().body()         # traffic after the last reset, then every counter
        self.figures["resets"] = {"reached": rounds.reached, "missed": rounds.missed}
        if rounds.noise is not None:
            self.figures["csr_noise_accesses"] = rounds.noise.accesses
        self.logger.info(f"resets: reached {rounds.reached}, missed {rounds.missed}; "
                         f"{self.env.driver.aborted} commands dropped by them")
