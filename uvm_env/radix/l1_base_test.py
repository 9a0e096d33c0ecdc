# SPDX-License-Identifier: Apache-2.0
"""L1TestBase: what every radix_l1_cache test shares (the env and the cache's geometry)."""

from __future__ import annotations

from uvm_env.common.base_test import BaseTest
from uvm_env.radix.l1_env import L1Env
from uvm_env.radix.l1_seqs import L1Geometry


class L1TestBase(BaseTest):
    require_full_coverage = True

    def make_env(self) -> L1Env:
        env = L1Env("env", self)
        env.dut, env.clock, env.reset = self.dut, self.clock, self.reset
        return env

    def geometry(self) -> L1Geometry:
        env = self.env
        return L1Geometry(env.width, env.depth, env.sets, env.ways)
