# SPDX-License-Identifier: Apache-2.0
"""l1_cache_faults: radix_l1_cache under DDR error responses and responses that never come.

Each injected fault (SLVERR on a fill or a write-back, a fill or write-back that hangs
past TimeoutCycles) meets each kind of request that issues that traffic (a read miss,
a write miss, a flush). The cache must raise fault_o with the right kind, release the
core, stop writing DDR, answer a flush, and after clear_i serve traffic that is checked
against DDR again, with the late responses of hung requests dropped.
"""

from __future__ import annotations

import pyuvm

from uvm_env.radix.l1_base_test import L1TestBase
from uvm_env.radix.l1_seqs import FAULT_CASES, L1FaultSeq


@pyuvm.test()
class L1CacheFaultsTest(L1TestBase):
    coverage_prefix = "radix.l1_fault"

    async def body(self) -> None:
        env = self.env
        geo = self.geometry()
        seq = L1FaultSeq("faults", geo, self.cfg.child_rng("seq"), env.ddr, self.dut,
                         env.scoreboard, env.ddr.hang_cycles)
        await seq.start(env.seqr)
        env.scoreboard.compare("faults seen and cleared", len(FAULT_CASES),
                               env.scoreboard.faults_cleared)
        self.figures.update(faults=env.scoreboard.faults_cleared, ticks=env.driver.ticks)
