# SPDX-License-Identifier: Apache-2.0
"""radix_long_edges: MaxLen-long edges split at every line offset 0..15, inside a leaf and
inside its mid-line tail, at page edges of the build's PageSize (1, 2, 4, 8 or 16)."""

from __future__ import annotations

import pyuvm

from uvm_env.radix.radix_base_test import RadixBaseTest
from uvm_env.radix.radix_directed_seqs import LongEdgesSeq


@pyuvm.test()
class RadixLongEdgesTest(RadixBaseTest):
    def make_sequence(self) -> LongEdgesSeq:
        return LongEdgesSeq("long_edges", self.env.scoreboard.pred, self.cfg.child_rng("seq"))
