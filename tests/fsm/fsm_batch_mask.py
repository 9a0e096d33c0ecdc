# SPDX-License-Identifier: Apache-2.0
"""fsm_batch_mask: MASK_BATCH packets of 1..8 slots (docs/fsm-protocol.md, "Batched masks").

Two grammars: a small synthetic vocabulary (one-beat masks, so a batch's slots
follow each other every cycle) and a 1.5k..3k-token one (several beats per
mask). 16 slots are bound and walked to random states between batches.

Phase 1, no idles or back-pressure: every batch's mask beats must leave back to
back, one per cycle from the first beat to the last, with no cycle without a
beat (the HandshakeProbe counts them in clock cycles); asserted and logged.
Phase 2, random idles and back-pressure on the result and mask streams: random
slot sets (sometimes a slot twice, sometimes an unbound or out-of-range slot),
interleaved with ADVANCE walks and single MASKs.

The scoreboard compares every slot's result and every mask bit with the model;
the test asserts that every batch size 1..8 was sent.
"""

from __future__ import annotations

import pyuvm

from uvm_env.common.config import env_int
from uvm_env.fsm.fsm_base_test import FsmBaseTest
from uvm_env.fsm.fsm_seqs import FsmBaseSeq
from uvm_env.fsm.grammars import random_grammar
from uvm_env.fsm.protocol import MAX_BATCH


async def scramble(seq: FsmBaseSeq, slots: list[int], gids: list[int]) -> None:
    """Move every slot a few allowed tokens on (re-binding a slot that is stuck)."""
    for slot in slots:
        if not seq.allowed(slot) or seq.rng.random() < 0.1:
            await seq.bind(slot, seq.rng.choice(gids))
        for tok in seq.walk(slot, seq.rng.randint(0, 3)):
            await seq.advance(slot, tok)


@pyuvm.test()
class FsmBatchMaskTest(FsmBaseTest):
    async def scenario(self) -> None:
        env, p = self.env, self.env.params
        rng = self.rng("grammars")
        small = min(400, p.mask_w)
        gs = {0: self.fitting(lambda: random_grammar(rng, size=rng.randint(60, small))),
              1: self.fitting(lambda: random_grammar(rng, size=rng.randint(1500, 3000)))}
        probe = await self.load_and_probe(gs)
        seq = self.direct("batch")
        slots = list(range(min(16, p.n_slots)))
        gids = sorted(gs)
        for i, slot in enumerate(slots):
            await seq.bind(slot, gids[i % 2])
        sizes: set[int] = set()
        n = env_int("N_BATCHES", 120)

        # Phase 1: full rate; no bubble inside a batch.
        await self.drain()
        env.set_traffic(0.0, 0.0, "full")
        beats = span = gaps = 0
        for b in range(n // 2):
            await scramble(seq, slots, gids)
            await self.drain()
            batch = seq.batch_slots(slots, (b % MAX_BATCH) + 1)
            mark = probe.mark()
            await seq.mask_batch(batch)
            await self.drain()
            nb, sp, gp = probe.mask_gaps(mark)
            assert nb > 0, f"batch {batch}: no mask beat"
            beats, span, gaps = beats + nb, span + sp, gaps + gp
            sizes.add(len(batch))
        self.logger.info(f"batched masks at full rate: {beats} beats in {span} cycles, "
                         f"{gaps} cycles without a beat inside a batch")
        assert gaps == 0 and beats == span, f"bubbles inside batches: {gaps}"

        # Phase 2: random idles and back-pressure, random slot sets incl. bad slots.
        env.set_traffic(self.cfg.p_idle, max(self.cfg.p_stall, 0.3), "rand")
        pool = slots + [p.n_slots - 1, p.n_slots, 0xFFFF]   # unbound, out of range
        for _ in range(n - n // 2):
            await scramble(seq, seq.rng.sample(slots, 4), gids)
            batch = seq.batch_slots(pool if seq.rng.random() < 0.15 else slots)
            await seq.mask_batch(batch)
            sizes.add(len(batch))
            if seq.rng.random() < 0.2:
                await seq.mask(seq.rng.choice(slots))
        await self.drain()
        sb = env.scoreboard
        self.logger.info(f"{sb.n_batches} batches, sizes {sorted(sizes)}, {sb.n_masks} masks "
                         "compared")
        assert sizes == set(range(1, MAX_BATCH + 1)), f"batch sizes sent: {sorted(sizes)}"
        assert sb.n_batches >= n, f"only {sb.n_batches} batches checked"
