# SPDX-License-Identifier: Apache-2.0
"""Differential test: the compressed RadixCache against the naive per-page trie.

No eviction (the naive model has no node boundaries, so it cannot say which node is oldest);
everything else must agree exactly: match lengths and values, insert prefix lengths, lock
deltas, and the evictable / protected / total sizes.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from models.radix_cache import RadixCache
from models.radix_naive import NaiveRadixCache

OPS = st.lists(
    st.tuples(
        st.sampled_from(["insert", "insert", "match", "lock", "unlock"]),
        st.integers(0, 1 << 20),
        st.lists(st.integers(0, 2), max_size=40),
        st.integers(0, 1),
    ),
    min_size=1,
    max_size=60,
)


def run_both(
    page: int, ops: list[tuple[str, int, list[int], int]], cache_cls: type[RadixCache] = RadixCache
) -> None:
    fast = cache_cls(page_size=page)
    slow = NaiveRadixCache(page_size=page)
    known: list[list[int]] = []
    held: list[tuple[object, object]] = []
    next_kv = 0
    for kind, r, ext, ns in ops:
        if known and r % 4:
            base = known[r % len(known)]
            seq = base[: (r // 5) % (len(base) + 1)] + ext
        else:
            seq = list(ext)
        if kind == "insert":
            kv = list(range(next_kv, next_kv + len(seq)))
            next_kv += len(seq)
            assert fast.insert(seq, kv, ns) == slow.insert(seq, kv, ns), seq
            known.append(seq)
        elif kind in ("match", "lock"):
            got = fast.match_prefix(seq, ns)
            length, values, page_node = slow.match_prefix(seq, ns)
            assert got.length == length and got.kv_indices.tolist() == values, seq
            if kind == "lock":
                assert fast.inc_lock_ref(got.node) == slow.inc_lock_ref(page_node)
                held.append((got.node, page_node))
        elif held:
            node, page_node = held.pop(r % len(held))
            assert fast.dec_lock_ref(node) == slow.dec_lock_ref(page_node)
        assert fast.total_size() == slow.total_size()
        assert fast.evictable_size() == slow.evictable_size()
        assert fast.protected_size() == slow.protected_size()
    while held:
        node, page_node = held.pop()
        assert fast.dec_lock_ref(node) == slow.dec_lock_ref(page_node)
    assert fast.protected_size() == slow.protected_size() == 0


@pytest.mark.parametrize("page", [1, 2, 4, 16])
@settings(max_examples=500, deadline=None)
@given(ops=OPS)
def test_matches_naive_trie(page, ops):
    # Page 16 needs longer keys to share whole pages: repeat each drawn token.
    if page == 16:
        ops = [(k, r, [t for t in ext for _ in range(8)], ns) for k, r, ext, ns in ops]
    run_both(page, ops)


def test_differential_catches_a_broken_model():
    """Guard against a vacuous comparison: a cache that forgets existing values must fail."""

    class Broken(RadixCache):
        def insert(self, tokens, kv_indices, namespace=0):  # noqa: ANN001, ANN201
            return max(0, super().insert(tokens, kv_indices, namespace) - 1)

    ops = [("insert", 0, [1, 2, 3], 0), ("insert", 0, [1, 2, 3], 0)]
    run_both(1, ops)
    with pytest.raises(AssertionError):
        run_both(1, ops, Broken)
