# SPDX-License-Identifier: Apache-2.0
"""models/radix_hw.py: the v2 storage mirror (slots, lines, child index) follows the model."""

from models.radix_cache import RadixCache
from models.radix_hw import HwGeometry, RadixHw, bucket_of, lines_of


def _pair(**geo: int) -> tuple[RadixCache, RadixHw]:
    return RadixCache(), RadixHw(HwGeometry(**geo))


def test_lines_split_share_and_evict_frees_all_but_a_shared_first_line():
    m, hw = _pair(node_cap=16, token_cap=256)
    assert hw.free_lines == 16
    key = list(range(40))
    assert hw.fits(m, m.walk_plan(key), 0, True)
    m.insert(key, key)
    hw.commit(m, 0)
    assert hw.free_lines == 16 - lines_of(0, 40) and hw.free_slots[-1] == 2
    m.insert(key[:20] + [99], list(range(21)))       # split at 20: the tail starts mid-line
    hw.commit(m, 0)
    assert hw.free_lines == 16 - 3 - 1
    m.evict(10**6)
    hw.evicted(m.last_evicted)
    assert hw.free_lines == 16 and hw.index_used() == 0 and len(hw.free_slots) == 15


def test_a_full_bucket_spills_to_the_stash_then_refuses():
    m, hw = _pair(node_cap=64, token_cap=4096, hash_buckets=4, hash_ways=1, stash_depth=1)
    target = bucket_of(0, 0, (1000,), 4)
    same = [t for t in range(1000, 1200) if bucket_of(0, 0, (t,), 4) == target][:3]
    for i, t in enumerate(same):
        ok = hw.fits(m, m.walk_plan([t]), 0, True)
        assert ok == (i < 2)                              # one way, then the stash, then full
        if ok:
            m.insert([t], [t])
            hw.commit(m, 0)
    assert hw.stash_used == 1 and hw.index_used() == 2


def test_bucket_hash_spreads_consecutive_keys():
    buckets = {bucket_of(0, 0, (t,), 256) for t in range(1024)}
    assert len(buckets) > 200
