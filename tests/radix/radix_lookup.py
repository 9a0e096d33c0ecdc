# SPDX-License-Identifier: Apache-2.0
"""radix_lookup: build a tree from a workload trace the way SGLang's scheduler
does, and check every lookup, insert, lock and eviction against the model."""

from __future__ import annotations

import os

import pyuvm

from uvm_env.common.config import env_int
from uvm_env.radix.radix_base_test import RadixBaseTest
from uvm_env.radix.radix_seqs import WorkloadSeq


@pyuvm.test()
class RadixLookupTest(RadixBaseTest):
    def make_sequence(self) -> WorkloadSeq:
        return WorkloadSeq("lookup", self.env.scoreboard.pred, self.cfg.child_rng("seq"),
                           workload=os.environ.get("WORKLOAD", "ecommerce_qa"),
                           requests=env_int("N_REQUESTS", 24))
