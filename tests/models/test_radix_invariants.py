# SPDX-License-Identifier: Apache-2.0
"""Structural invariants after every operation of long random operation sequences.

The harness keeps its own shadow of which KV indices the tree owns and replays eviction on
a snapshot with an independent (heap-free) simulator, so the checks do not lean on the code
they check.
"""

from __future__ import annotations

import random

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from models.radix_cache import NodeInfo, RadixCache


def check_invariants(cache: RadixCache) -> None:
    infos = cache.nodes()
    root = infos[0]
    assert root.parent_id is None and root.key == () and root.lock_ref == 1
    by_id = {i.node_id: i for i in infos}
    assert len(by_id) == len(infos) == cache.num_nodes() + 1, "duplicate ids or bad count"
    page = cache.page_size
    total = evictable = protected = 0
    values: list[int] = []
    for info in infos[1:]:
        n = len(info.key)
        assert n > 0 and n % page == 0 and len(info.value) == n, info
        parent = by_id[info.parent_id]
        assert info.node_id in parent.child_ids
        if parent.parent_id is not None:
            assert parent.namespace == info.namespace, "namespaces share a node"
        assert 0 <= info.last_access <= cache.clock
        total += n
        if info.lock_ref == 0:
            evictable += n
        else:
            protected += n
        values.extend(info.value)
    for info in infos:
        kids = [by_id[k] for k in info.child_ids]
        assert all(k.parent_id == info.node_id for k in kids)
        firsts = [(k.namespace, k.key[:page]) for k in kids]
        assert len(set(firsts)) == len(firsts), "two children share a child key"
        if info.parent_id is not None:
            # A lock walks to the root, so a node holds at least its children's locks.
            assert info.lock_ref >= sum(k.lock_ref for k in kids) >= 0, info
    assert total == cache.total_size() == cache.evictable_size() + cache.protected_size()
    assert (evictable, protected) == (cache.evictable_size(), cache.protected_size())
    assert len(values) == len(set(values)), "a KV index is in the tree twice"
    leaves = [i for i in infos[1:] if i.lock_ref == 0 and not i.child_ids]
    stamps = [i.last_access for i in leaves]
    assert len(stamps) == len(set(stamps)), "two evictable leaves tie"
    assert cache.leaf_order() == [i.node_id for i in sorted(leaves, key=lambda i: i.last_access)]


def simulate_evict(infos: list[NodeInfo], want: int) -> tuple[list[int], list[int]]:
    """SGLang's eviction rule, written plainly over a snapshot."""
    by_id = {i.node_id: i for i in infos}
    kids = {i.node_id: set(i.child_ids) for i in infos}
    cand = {i.node_id for i in infos[1:] if i.lock_ref == 0 and not i.child_ids}
    ids: list[int] = []
    freed: list[int] = []
    while len(freed) < want and cand:
        x = min(cand, key=lambda k: by_id[k].last_access)
        cand.remove(x)
        ids.append(x)
        freed.extend(by_id[x].value)
        parent = by_id[x].parent_id
        kids[parent].discard(x)
        if by_id[parent].parent_id is not None and not kids[parent] and by_id[parent].lock_ref == 0:
            cand.add(parent)
    return ids, freed


class Harness:
    """Drives random operations the way a scheduler would: fresh KV indices per insert, the
    tree keeps its own on overlap, locks come from match results and are released later."""

    def __init__(self, page: int, rng: random.Random) -> None:
        self.cache = RadixCache(page_size=page)
        self.rng = rng
        self.next_kv = 0
        self.known: list[list[int]] = []
        self.held: list[object] = []
        self.owned: set[int] = set()  # shadow of the KV indices the tree holds

    def sequence(self, r: int, ext: list[int]) -> list[int]:
        if self.known and r % 4:
            base = self.known[r % len(self.known)]
            cut = (r // 5) % (len(base) + 1)
            seq = base[:cut] + ext
        else:
            seq = list(ext)
        return seq

    def step(self, kind: str, r: int, ext: list[int], ns: int) -> None:
        c = self.cache
        seq = self.sequence(r, ext)
        if kind == "insert":
            self.insert(seq, ns, pre_match=bool(r & 1))
        elif kind == "match":
            cost = c.match_cost(seq, ns)
            peek_len, peek_kv = c.peek_prefix(seq, ns)
            nodes = c.num_nodes()
            res = c.match_prefix(seq, ns)
            assert c.num_nodes() - nodes == cost
            assert res.length == peek_len and res.kv_indices.tolist() == peek_kv.tolist()
            assert res.length % c.page_size == 0 and res.length <= len(seq)
            assert set(res.kv_indices.tolist()) <= self.owned
        elif kind == "lock":
            res = c.match_prefix(seq, ns)
            ev = c.evictable_size()
            delta = c.inc_lock_ref(res.node)
            assert delta <= 0 and c.evictable_size() - ev == delta
            self.held.append(res.node)
        elif kind == "unlock" and self.held:
            node = self.held.pop(r % len(self.held))
            ev = c.evictable_size()
            delta = c.dec_lock_ref(node)
            assert delta >= 0 and c.evictable_size() - ev == delta
        elif kind == "evict":
            self.evict(r % (c.total_size() // 10 + 3))

    def insert(self, seq: list[int], ns: int, pre_match: bool) -> None:
        c = self.cache
        aligned = len(seq) - len(seq) % c.page_size
        if pre_match:  # a real match first, like the scheduler (it may split)
            before = c.match_prefix(seq, ns)
            had_len, had = before.length, before.kv_indices.tolist()
        else:
            had_len, had_kv = c.peek_prefix(seq, ns)
            had = had_kv.tolist()
        cost_nodes, cost_slots = c.insert_cost(seq, ns)
        kv = list(range(self.next_kv, self.next_kv + len(seq)))
        self.next_kv += len(seq)
        nodes, total, ev = c.num_nodes(), c.total_size(), c.evictable_size()
        prefix = c.insert(seq, kv, ns)
        assert prefix == had_len
        assert c.num_nodes() - nodes == cost_nodes
        assert c.total_size() - total == cost_slots == aligned - prefix
        assert c.evictable_size() - ev == aligned - prefix
        self.owned.update(kv[prefix:aligned])
        # A match right after the insert sees the old values up to prefix, the new past it.
        assert c.match_prefix(seq, ns).kv_indices.tolist() == had + kv[prefix:aligned]
        self.known.append(seq)

    def evict(self, want: int) -> None:
        c = self.cache
        ev = c.evictable_size()
        exp_ids, exp_freed = simulate_evict(c.nodes(), want)
        freed = c.evict(want).tolist()
        assert freed == exp_freed and c.last_evicted == exp_ids
        assert len(freed) >= min(want, ev) and c.evictable_size() == ev - len(freed)
        assert set(freed) <= self.owned
        self.owned.difference_update(freed)

    def finish(self) -> None:
        c = self.cache
        while self.held:
            c.dec_lock_ref(self.held.pop())
        assert c.protected_size() == 0 and c.evictable_size() == c.total_size()
        assert {v for i in c.nodes() for v in i.value} == self.owned
        self.evict(c.total_size())
        assert c.total_size() == 0 and c.num_nodes() == 0 and not self.owned


KINDS = ["insert", "insert", "match", "lock", "unlock", "evict"]
OPS = st.lists(
    st.tuples(
        st.sampled_from(KINDS),
        st.integers(0, 1 << 20),
        st.lists(st.integers(0, 3), max_size=20),
        st.integers(0, 1),
    ),
    min_size=1,
    max_size=80,
)


@settings(max_examples=600, deadline=None)
@given(page=st.sampled_from([1, 2, 4]), ops=OPS)
def test_invariants_hold_after_every_op(page, ops):
    h = Harness(page, random.Random(0))
    for kind, r, ext, ns in ops:
        h.step(kind, r, ext, ns)
        check_invariants(h.cache)
        assert {v for i in h.cache.nodes() for v in i.value} == h.owned
    h.finish()


def _long_run(page: int, seed: int, steps: int) -> Harness:
    rng = random.Random(seed)
    h = Harness(page, rng)
    for _ in range(steps):
        kind = rng.choice(KINDS)
        ext = [rng.randrange(4) for _ in range(rng.randrange(0, 4 * page + 12))]
        h.step(kind, rng.randrange(1 << 20), ext, rng.randrange(3))
        check_invariants(h.cache)
    return h


def test_long_random_sequences_page_1_and_8():
    for page, seed in ((1, 1), (8, 2)):
        h = _long_run(page, seed, 1500)
        c = h.cache
        assert c.stats.splits > 20 and c.stats.evicted_nodes > 20, c.stats  # exercised
        h.finish()


def test_check_invariants_can_fail():
    """The checker must notice corruption (guards against a vacuous checker)."""
    c = RadixCache()
    c.insert([1, 2, 3], [0, 1, 2])
    c.insert([1, 2, 4], [5, 6, 7])
    check_invariants(c)
    c._evictable += 1  # noqa: SLF001 - deliberate corruption
    try:
        check_invariants(c)
    except AssertionError:
        pass
    else:
        raise AssertionError("corrupted sizes passed the checker")
    c._evictable -= 1
    node = c.match_prefix([1, 2, 3]).node
    node.value = np.array([0], dtype=np.int64)  # duplicate of the parent's first KV index
    try:
        check_invariants(c)
    except AssertionError:
        return
    raise AssertionError("a duplicated KV index passed the checker")
