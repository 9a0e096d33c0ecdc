# SPDX-License-Identifier: Apache-2.0
"""radix_lock_overflow: LOCK_MAX (65,535) locks of one node, then one more is refused with
OVERFLOW and changes nothing; an UNLOCK makes room for exactly one LOCK. Every response is
checked against the model; the statuses at the limit are compared here as well."""

from __future__ import annotations

import pyuvm

from uvm_env.common.config import env_int
from uvm_env.radix.protocol import ST_NAMES
from uvm_env.radix.radix_base_test import RadixBaseTest
from uvm_env.radix.radix_directed_seqs import LockOverflowSeq
from uvm_env.radix.radix_predictor import LOCK_MAX


@pyuvm.test()
class RadixLockOverflowTest(RadixBaseTest):
    async def body(self) -> None:
        locks = env_int("N_LOCKS", LOCK_MAX)
        seq = LockOverflowSeq("overflow", self.env.scoreboard.pred, self.cfg.child_rng("seq"),
                              locks)
        await seq.start(self.env.seqr)
        await self.env.drain()
        # LOCK, UNLOCK, LOCK, LOCK, SIZES at lock_ref = locks + 1 (the MATCH's node path
        # starts with the key's own node locked `locks` times).
        full = locks >= LOCK_MAX
        want = ["OVERFLOW" if full else "OK", "OK", "OK", "OVERFLOW" if full else "OK", "OK"]
        self.env.scoreboard.compare("statuses at the lock limit", want,
                                    [ST_NAMES.get(c.rsp.status) for c in seq.probes])
        await self.check_csrs()
