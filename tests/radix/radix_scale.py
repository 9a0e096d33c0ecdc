# SPDX-License-Identifier: Apache-2.0
"""radix_scale: the VCK5000 configuration (scripts/boards/vck5000.toml [config.radix])
filled from workload traces until TOKENS tokens have been inserted."""

from __future__ import annotations

import pyuvm

from uvm_env.common.config import env_int
from uvm_env.radix.radix_base_test import RadixBaseTest
from uvm_env.radix.radix_directed_seqs import ScaleSeq


@pyuvm.test()
class RadixScaleTest(RadixBaseTest):
    def make_config(self):  # noqa: ANN201 - same type as the base
        cfg = super().make_config()
        cfg.p_idle = cfg.p_stall = 0.05
        cfg.timeout_us += env_int("TOKENS", 1_100_000) // 2
        return cfg

    def make_sequence(self) -> ScaleSeq:
        return ScaleSeq("scale", self.env.scoreboard.pred, self.cfg.child_rng("seq"),
                        tokens=env_int("TOKENS", 1_100_000))
