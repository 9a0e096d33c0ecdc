# SPDX-License-Identifier: Apache-2.0
"""radix_capacity: token lines, node slots and the child index each filled to refusal;
every refusal predicted, nothing half-written (all CSRs compared after each), and the
tree usable again after evictions."""

from __future__ import annotations

import pyuvm

from uvm_env.radix.radix_base_test import RadixBaseTest
from uvm_env.radix.radix_directed_seqs import CapacitySeq


@pyuvm.test()
class RadixCapacityTest(RadixBaseTest):
    async def body(self) -> None:
        async def snapshot(what: str) -> None:
            await self.env.drain()
            await self.check_csrs(what)

        seq = CapacitySeq("capacity", self.env.scoreboard.pred, self.cfg.child_rng("seq"),
                          snapshot)
        await seq.start(self.env.seqr)
        await self.env.drain()
        self.logger.info(f"refusals by structure: {seq.refused}")
        sb = self.env.scoreboard
        sb.compare("each structure was filled to refusal",
                   {"line": True, "node": True, "index": True},
                   {k: seq.refused.get(k, 0) > 0 for k in ("line", "node", "index")})
        await self.check_csrs()
