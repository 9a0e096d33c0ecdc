# SPDX-License-Identifier: Apache-2.0
"""The conflict study's read and write sets (models/radix_conflicts.py): recording must
not change the golden model, and the sets must catch the races the multi-walk pipeline
has to detect (a walk over an edge an earlier command splits, a lookup of a child an
earlier command creates) and nothing across a barrier."""

from __future__ import annotations

import numpy as np
import pytest

from models.radix_cache import RadixCache
from models.radix_conflicts import Access, RecordingCache, batched_trace, study
from models.workloads import ecommerce_qa


def _seq(*xs: int) -> np.ndarray:
    return np.array(xs, dtype=np.uint32)


def _kv(n: int) -> np.ndarray:
    return np.arange(n, dtype=np.int64)


def test_recording_does_not_change_the_golden_model():
    rng = np.random.default_rng(5)
    plain, rec = RadixCache(), RecordingCache()
    for _ in range(300):
        toks = rng.integers(0, 4, int(rng.integers(1, 12))).astype(np.uint32)
        op = rng.integers(0, 3)
        if op == 0:
            a, b = plain.match_prefix(toks), rec.match_prefix(toks)
            assert a.length == b.length and list(a.kv_indices) == list(b.kv_indices)
        elif op == 1:
            assert plain.insert(toks, _kv(len(toks))) == rec.insert(toks, _kv(len(toks)))
        else:
            assert list(plain.evict(3)) == list(rec.evict(3))
    assert plain.dump(None) == rec.dump(None)
    assert len(rec.trace) == 300


def test_a_match_through_an_edge_an_earlier_insert_splits_conflicts():
    c = RecordingCache()
    c.insert(_seq(1, 2, 3, 4), _kv(4))
    c.insert(_seq(1, 2, 9), _kv(3))        # splits the edge 1,2,3,4 after 1,2
    c.match_prefix(_seq(1, 2, 3))          # walks the edge the insert split
    ins, match = c.trace[1], c.trace[2]
    assert ("edge", 1) in ins.reads and ins.kinds[("edge", 1)] == "split"  # node 0 is the root
    w2 = study(c.trace[1:], k=2)
    assert w2.conflicted["MATCH"] == 1 and w2.kinds["split"] >= 1
    assert w2.pairs[("INSERT", "MATCH")] == 1
    assert study(c.trace[1:], k=1).conflicted["MATCH"] == 0
    assert match.reads & ins.writes


def test_a_lookup_of_a_child_an_earlier_insert_creates_conflicts():
    c = RecordingCache()
    c.insert(_seq(7, 7), _kv(2))
    c.insert(_seq(5, 6), _kv(2))            # new child of the root under 5
    c.match_prefix(_seq(5, 6))              # its first lookup is that child entry
    w = study(c.trace[1:], k=2)
    assert w.conflicted["MATCH"] == 1 and w.kinds["new_child"] == 1
    assert study(c.trace[:2], k=2).conflicted["INSERT"] == 0  # different children: none


def test_a_barrier_orders_everything_so_nothing_conflicts_across_it():
    c = RecordingCache()
    c.insert(_seq(1, 2, 3, 4), _kv(4))
    c.insert(_seq(1, 2, 9), _kv(3))
    c.evict(0)
    c.match_prefix(_seq(1, 2, 3))
    assert [a.op for a in c.trace[1:]] == ["INSERT", "EVICT", "MATCH"]
    assert study(c.trace[1:], k=8).conflicted["MATCH"] == 0


def test_lock_of_a_node_being_split_conflicts_when_locks_are_tracked():
    c = RecordingCache()
    c.insert(_seq(1, 2, 3, 4), _kv(4))
    leaf = c.match_prefix(_seq(1, 2, 3, 4)).node
    c.insert(_seq(1, 2, 8), _kv(3))          # puts a new upper node above the leaf
    c.inc_lock_ref(leaf)                     # its path now runs through the new node
    trace = c.trace[2:]
    assert [a.op for a in trace] == ["INSERT", "LOCK"]
    assert study(trace, k=2, lock_barrier=False).conflicted["LOCK"] == 1
    assert study(trace, k=2, lock_barrier=True).conflicted["LOCK"] == 0


def test_two_locks_of_one_node_do_not_conflict():
    c = RecordingCache()
    c.insert(_seq(3, 3), _kv(2))
    node = c.match_prefix(_seq(3, 3)).node
    c.inc_lock_ref(node)
    c.inc_lock_ref(node)
    assert study(c.trace[2:], k=2, lock_barrier=False).conflicted["LOCK"] == 0


@pytest.fixture(scope="module")
def ecommerce() -> list[Access]:
    return batched_trace(ecommerce_qa(seed=1, requests=240), batch=8, capacity_tokens=1 << 14)


def test_wider_windows_see_at_least_the_conflicts_of_narrower_ones(ecommerce):
    ops = {a.op for a in ecommerce}
    assert ops == {"MATCH", "LOCK", "INSERT", "UNLOCK", "EVICT"}
    for lock_barrier in (True, False):
        runs = [study(ecommerce, k, lock_barrier, 512) for k in (1, 2, 4, 8)]
        assert sum(runs[0].conflicted.values()) == 0 and runs[0].occupancy == sum(
            runs[0].commands[o] for o in ("MATCH", "INSERT"))
        for a, b in zip(runs, runs[1:], strict=False):
            assert all(b.conflicted[o] >= a.conflicted[o] for o in a.conflicted)
            assert b.occupancy >= a.occupancy
        for w in runs:  # a signature may add false alarms, never miss a true conflict
            assert all(w.flagged[o] >= w.conflicted[o] for o in w.conflicted)


def test_barrier_locks_cap_the_walks_in_flight(ecommerce):
    walks = sum(1 for a in ecommerce if a.op in ("MATCH", "INSERT"))
    barrier = study(ecommerce, 8, True).occupancy / walks
    tracked = study(ecommerce, 8, False).occupancy / walks
    assert barrier < tracked <= 8
