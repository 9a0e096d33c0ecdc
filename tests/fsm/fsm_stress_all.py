# SPDX-License-Identifier: Apache-2.0
"""fsm_stress_all: fsm_rand_reset with everything at once: heavy idles and back-pressure
on the command, load, result and mask streams and on every AXI-Lite channel, 15 %
malformed commands, background CSR reads and writes (CsrNoise) and resets at random
points, mid-LOAD included."""

from __future__ import annotations

import pyuvm

from tests.fsm.fsm_rand_reset import FsmRandResetTest
from uvm_env.common.csr_noise import CsrNoise
from uvm_env.common.regs import dut_params
from uvm_env.fsm.csr_regs import BLOCK


@pyuvm.test()
class FsmStressAllTest(FsmRandResetTest):
    p_error = 0.15

    def extra_timeout_us(self) -> int:
        return 3 * super().extra_timeout_us()

    def noise(self) -> CsrNoise:
        self.env.set_traffic(0.5, 0.5, tag="stress")
        return CsrNoise(BLOCK, self.env.csr, dut_params(BLOCK, self.dut), self.env.scoreboard,
                        self.rng("noise"))
