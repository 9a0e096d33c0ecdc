# SPDX-License-Identifier: Apache-2.0
"""ram_random: common_ram_sdp against a dict, including read-during-write."""

from __future__ import annotations

import pyuvm

from uvm_env.common.base_test import BaseTest
from uvm_env.common.ram_env import RamEnv
from uvm_env.common.ram_seq import RamRandomSeq


@pyuvm.test()
class RamRandomTest(BaseTest):
    coverage_prefix = "common.ram"
    require_full_coverage = True
    reset_port = None   # memories carry no reset (FPGA practice)

    def make_env(self) -> RamEnv:
        env = RamEnv("env", self)
        env.dut, env.clock = self.dut, self.clock
        return env

    async def body(self) -> None:
        depth, width = int(self.dut.Depth.value), int(self.dut.Width.value)
        seq = RamRandomSeq("ram", self.cfg.n_items, depth, width, self.cfg.child_rng("ram"))
        await seq.start(self.env.seqr)
