# SPDX-License-Identifier: Apache-2.0
"""radix_capacity: token lines, node slots and the child index each filled to refusal;
every refusal predicted, nothing half-written (all CSRs compared after each), and the
tree usable again after evictions. Then a split tail and a new leaf that hash to one
bucket, with that bucket's free ways and the stash's free entries from 2/0 down to 0/0:
placed in the ways, the stash or both, or refused."""

from __future__ import annotations

from collections import Counter

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
        sb.compare("split tails and leaves sent into one bucket, by placement",
                   dict(Counter(placement for _, _, placement in seq.SHARED_CASES)),
                   seq.shared)
        await self.check_csrs()
