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


def _shared_split(m: RadixCache, hw: RadixHw, buckets: int) -> tuple[list[int], int]:
    """A two-token leaf [1, tail] and an INSERT [1, leaf] that splits it after its first
    token, where tail and leaf hash to one bucket under the upper half's slot."""
    upper = hw.free_slots[-2]                      # the leaf takes the top, the split next
    b = bucket_of(0, upper, (5000,), buckets)
    tail, leaf = [t for t in range(5000, 6000) if bucket_of(0, upper, (t,), buckets) == b][:2]
    m.insert([1, tail], [1, 2])
    hw.commit(m, 0)
    return [1, leaf], b


def test_a_split_tail_and_a_leaf_in_one_bucket_take_two_entries_there():
    for ways, stash_free, want in ((2, 0, "2 ways"), (1, 1, "way + stash"), (1, 0, "refused"),
                                   (0, 2, "2 stash"), (0, 1, "refused"), (0, 0, "refused")):
        m, hw = _pair(node_cap=64, token_cap=4096, hash_buckets=16, hash_ways=4,
                      stash_depth=2)
        key, b = _shared_split(m, hw, 16)
        hw.bucket_used[b] = 4 - ways                # room left in that bucket and the stash
        hw.stash_used = 2 - stash_free
        plan = m.walk_plan(key)
        assert hw.shared_bucket(plan, 0, True) == want
        assert hw.fits(m, plan, 0, True) == (want != "refused")
        assert hw.shared_bucket(plan, 0, False) is None        # a MATCH adds no leaf


def test_shared_bucket_is_none_when_the_two_entries_hash_apart():
    m, hw = _pair(node_cap=64, token_cap=4096, hash_buckets=16)
    upper = hw.free_slots[-2]
    tail = 5000
    leaf = next(t for t in range(5001, 6000)
                if bucket_of(0, upper, (t,), 16) != bucket_of(0, upper, (tail,), 16))
    m.insert([1, tail], [1, 2])
    hw.commit(m, 0)
    assert hw.shared_bucket(m.walk_plan([1, leaf]), 0, True) is None
    assert hw.shared_bucket(m.walk_plan([7, 8]), 0, True) is None          # no split
