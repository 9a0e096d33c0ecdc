# SPDX-License-Identifier: Apache-2.0
"""radix_errors: every refusal class: status, no state change, error counter.

It opens with handles across RESET and slot reuse (HandleReuseSeq): stale handles are
refused with HANDLE, and no dead handle is given out again before its generation wraps.
"""

from __future__ import annotations

import pyuvm

from uvm_env.radix.radix_directed_seqs import HandleReuseSeq
from uvm_env.radix.random_test import RadixRandomBase


@pyuvm.test()
class RadixErrorsTest(RadixRandomBase):
    coverage_prefix = "radix"
    p_error = 0.5

    async def body(self) -> None:
        await HandleReuseSeq("handles", self.env.scoreboard.pred,
                             self.cfg.child_rng("handles")).start(self.env.seqr)
        await super().body()
