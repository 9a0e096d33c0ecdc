# SPDX-License-Identifier: Apache-2.0
"""The radix capacity oracle (apply to a copy and count) agrees with RadixHw.fits() on
random traffic that fills the structures, and catches a planted off-by-one in fits()."""

from __future__ import annotations

import random

import pytest

from models.radix_cache import RadixCache
from models.radix_hw import HwGeometry, RadixHw
from uvm_env.radix.capacity_oracle import oracle_fits

# The radix tests' build: the child index fills first. SLOTS_BIND: node slots run out first.
GEO = dict(node_cap=64, token_cap=2048, hash_buckets=16, hash_ways=4, stash_depth=2)
SLOTS_BIND = dict(node_cap=24, token_cap=2048, hash_buckets=64, hash_ways=4, stash_depth=2)


def _disagreements(page: int, ops: int = 1500, seed: int = 1,
                   geo: dict[str, int] | None = None) -> tuple[int, int]:
    """Random MATCH/INSERT/EVICT; returns (disagreements, CAPACITY verdicts)."""
    rng = random.Random(seed)
    m, hw = RadixCache(page), RadixHw(HwGeometry(page_size=page, **(geo or GEO)))
    keys: list[list[int]] = []
    bad = refused = 0
    for _ in range(ops):
        ns = rng.randrange(16)
        base = list(rng.choice(keys))[:rng.randint(0, 40)] if keys and rng.random() < 0.7 \
            else []
        toks = (base + [rng.randrange(4) for _ in range(rng.randint(1, 40))])[:512]
        insert = rng.random() < 0.6
        ok = hw.fits(m, m.walk_plan(toks, ns), ns, insert)
        bad += oracle_fits(m, hw, toks, list(range(len(toks))), ns, insert) != ok
        refused += not ok
        if ok:
            if insert:
                m.insert(toks, list(range(len(toks))), ns)
                keys.append(toks)
            else:
                m.match_prefix(toks, ns)
            hw.commit(m, ns)
        if rng.random() < 0.1:
            m.evict(rng.randint(1, 64))
            hw.evicted(m.last_evicted)
    return bad, refused


@pytest.mark.parametrize("geo", [GEO, SLOTS_BIND])
@pytest.mark.parametrize("page", [1, 4])
def test_oracle_agrees_with_fits(page: int, geo: dict[str, int]) -> None:
    bad, refused = _disagreements(page, geo=geo)
    assert refused > 50, "the traffic should fill the structures"
    assert bad == 0


def test_oracle_catches_an_off_by_one_in_fits(monkeypatch: pytest.MonkeyPatch) -> None:
    real = RadixHw.fits

    def one_slot_short(self: RadixHw, model: RadixCache, plan: object, ns: int,
                       op_insert: bool) -> bool:
        spare = self.free_slots.pop(0) if self.free_slots else None   # the last to go
        try:
            return real(self, model, plan, ns, op_insert)
        finally:
            if spare is not None:
                self.free_slots.insert(0, spare)

    monkeypatch.setattr(RadixHw, "fits", one_slot_short)
    bad, _ = _disagreements(1, geo=SLOTS_BIND)
    assert bad > 0
