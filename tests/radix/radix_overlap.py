# SPDX-License-Identifier: Apache-2.0
"""radix_overlap: the constrained-random mix on a build with Overlap = 1, where the next
MATCH or INSERT walks while the previous one decides, commits and answers. The
scoreboard is the serial model as everywhere; the test also fails unless walks did
overlap commits, so a core that quietly ran one command at a time cannot pass it."""

from __future__ import annotations

import pyuvm

from uvm_env.radix.overlap import check_overlap, start_coverage
from uvm_env.radix.random_test import RadixRandomBase


@pyuvm.test()
class RadixOverlapTest(RadixRandomBase):
    # Mostly walks, on a small alphabet so keys share prefixes and a commit often
    # writes what the next walk reads; few barriers (EVICT, LOCK, UNLOCK, RESET).
    mix = {"match": 45, "insert": 40, "lock": 4, "unlock": 4, "evict": 5, "sizes": 2,
           "reset": 0.1}
    alphabet = 2
    max_tokens = 48

    async def body(self) -> None:
        cov = start_coverage(self)
        await super().body()
        await check_overlap(self, need_replay=False, cov=cov)
