# SPDX-License-Identifier: Apache-2.0
"""fsm_narrow: the core built with a 64-bit load stream and 64-bit mask beats.

Another DUT configuration (LoadW = MaskW = 64, three grammars, 16 slots): the
header, section boundaries and CRC runs fall on different beat positions, every
mask row is a window of 64 bits at any 32-bit alignment, and there are four
banks to rotate through. Random grammars with vocabularies of up to 900 tokens
(up to 15 mask beats), random traffic with errors, and refused and good reloads.
"""

from __future__ import annotations

import pyuvm

from uvm_env.common.config import env_int
from uvm_env.fsm.fsm_seqs import RandomWalkSeq
from uvm_env.fsm.images import KINDS, corrupt
from uvm_env.fsm.random_test import FsmRandomBase


@pyuvm.test()
class FsmNarrowTest(FsmRandomBase):
    n_slots_used = 8
    p_error = 0.1

    async def scenario(self) -> None:
        await super().scenario()
        env, p = self.env, self.env.params
        assert p.load_w == 64 and p.mask_w == 64, "fsm_narrow needs LoadW = MaskW = 64"
        rng = self.rng("reloads")
        seq = self.direct("reloads")
        gs = self.grammars()
        slots = list(range(p.n_slots))
        for i, kind in enumerate(sorted(KINDS)):
            gid = i % p.n_grammars
            src = gs[gid]
            if i % 3 == 0:
                await seq.load(gid, src)
            else:
                data, keep = corrupt(src.image, kind, rng, p.load_w)
                await seq.load(gid, src, image=data, keep_last=keep)
            await RandomWalkSeq(f"walk{i}", env, self.rng(f"walk{i}"),
                                n_ops=env_int("N_OPS", 500) // 8, slots=slots,
                                p_error=0.05).start(env.seqr)
