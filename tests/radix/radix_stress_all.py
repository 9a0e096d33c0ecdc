# SPDX-License-Identifier: Apache-2.0
"""radix_stress_all: radix_rand_reset with everything at once: heavy idles and
back-pressure on both streams and on every AXI-Lite channel, 10 % malformed commands,
background CSR reads and writes (CsrNoise) and resets at random points."""

from __future__ import annotations

import pyuvm

from tests.radix.radix_rand_reset import RadixRandResetTest
from uvm_env.common.config import BenchConfig
from uvm_env.common.csr_noise import CsrNoise
from uvm_env.common.pause import stall_axil
from uvm_env.common.regs import dut_params
from uvm_env.radix.csr_regs import BLOCK


@pyuvm.test()
class RadixStressAllTest(RadixRandResetTest):
    p_error = 0.1

    def make_config(self) -> BenchConfig:
        cfg = super().make_config()
        cfg.p_idle = cfg.p_stall = 0.5
        cfg.timeout_us *= 3
        return cfg

    def noise(self) -> CsrNoise:
        stall_axil(self.env.csr, self.cfg.child_rng, self.cfg.p_idle, self.cfg.p_stall)
        return CsrNoise(BLOCK, self.env.csr, dut_params(BLOCK, self.dut), self.env.scoreboard,
                        self.cfg.child_rng("noise"))
