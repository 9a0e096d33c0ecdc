# SPDX-License-Identifier: Apache-2.0
"""models.radix_image: the stored-tree decoder finds every kind of wrong write.

encode() builds a legal image of a model tree; each test breaks one thing in it and
expects compare() to name it. Random trees check that a legal image decodes to no
difference at all."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from models.radix_cache import RadixCache
from models.radix_hw import HwGeometry
from models.radix_image import (
    ImageLayout,
    RadixImage,
    compare,
    decode,
    encode,
    pack,
    unpack,
)

GEO = HwGeometry(node_cap=64, token_cap=2048, page_size=1, hash_buckets=16, hash_ways=2,
                 stash_depth=2)
LAY = ImageLayout(GEO, max_len=512)


def _tree() -> RadixCache:
    m = RadixCache(1)
    m.insert(list(range(1, 21)), list(range(100, 120)))     # 20 tokens: two lines
    m.insert([1, 2, 3, 9], [0, 0, 0, 77])                    # split at 3
    m.insert([5, 6], [50, 60], namespace=1)
    m.inc_lock_ref(m.locate([5, 6], 1))
    m.match_prefix([1, 2, 3, 9])
    return m


def _diffs(m: RadixCache, img: RadixImage) -> list[str]:
    return compare(decode(img, LAY), m, LAY)


def _slot(img: RadixImage, key0: int, ns: int = 0) -> int:
    """Slot of the node whose edge starts with token key0."""
    for slot, word in img.nodes.items():
        f = unpack(word, LAY.node_fields())
        if f["ns"] == ns and img.ltok[f["head"]] & 0xFFFF_FFFF == key0:
            return slot
    raise KeyError(key0)


def _with_node(img: RadixImage, slot: int, **changes: int) -> RadixImage:
    f = unpack(img.nodes[slot], LAY.node_fields())
    f.update(changes)
    return dataclasses.replace(img, nodes={**img.nodes, slot: pack(f, LAY.node_fields())})


def test_a_legal_image_has_no_differences() -> None:
    m = _tree()
    tree = decode(encode(m, LAY), LAY)
    assert len(tree.nodes) == m.num_nodes() == 4
    assert _diffs(m, encode(m, LAY)) == []


def test_pack_refuses_a_value_wider_than_its_field() -> None:
    with pytest.raises(ValueError, match="lock"):
        pack({"lock": 1 << 16}, LAY.node_fields())


def test_a_kv_index_in_the_wrong_lane_is_found() -> None:
    m, img = _tree(), encode(_tree(), LAY)
    line = unpack(img.nodes[_slot(img, 5, ns=1)], LAY.node_fields())["head"]
    bad = dataclasses.replace(img, lkv={**img.lkv, line: img.lkv[line] ^ (1 << 32)})
    assert any("KV indices" in d for d in _diffs(m, bad))


def test_a_broken_line_link_is_found() -> None:
    m, img = _tree(), encode(_tree(), LAY)
    line = unpack(img.nodes[_slot(img, 4)], LAY.node_fields())["head"]
    bad = dataclasses.replace(img, llink={**img.llink, line: line})   # links to itself
    assert any("key" in d for d in _diffs(m, bad))


@pytest.mark.parametrize("field, value, words", [
    ("lock", 0, "lock_ref"),
    ("nchild", 0, "children stored"),
    ("hloc", 0x1F, "index entry is at"),
])
def test_a_wrong_node_field_is_found(field: str, value: int, words: str) -> None:
    m, img = _tree(), encode(_tree(), LAY)
    slot = _slot(img, 5, ns=1) if field == "lock" else _slot(img, 1)
    assert any(words in d for d in _diffs(m, _with_node(img, slot, **{field: value})))


def test_a_node_the_model_lacks_is_found() -> None:
    m, img = _tree(), encode(_tree(), LAY)
    extra = dict(unpack(img.nodes[_slot(img, 9)], LAY.node_fields()), parent=0)
    bad = dataclasses.replace(img, nodes={**img.nodes, 40: pack(extra, LAY.node_fields())})
    assert any("slot 40 is stored but not in the model" in d for d in _diffs(m, bad))


def test_a_missing_node_is_found() -> None:
    m, img = _tree(), encode(_tree(), LAY)
    bad = _with_node(img, _slot(img, 9), valid=0)
    assert any("is not stored" in d for d in _diffs(m, bad))


def test_a_stale_child_index_entry_is_found() -> None:
    m, img = _tree(), encode(_tree(), LAY)
    assert _diffs(m, dataclasses.replace(img, buckets={})), "no index at all"
    stale = (0, 1 << 10, 1)                                # a stash entry nobody owns
    bad = dataclasses.replace(img, stash=[*img.stash, stale])
    assert any("entries more than there are nodes" in d for d in _diffs(m, bad))


@pytest.mark.parametrize("which, change, words", [
    ("free_lines", lambda f, used: [*f, f[-1]], "lines twice on the free list"),
    ("free_lines", lambda f, used: [*f, used], "lines both used and free"),
    ("free_lines", lambda f, used: f[1:], "lines neither used nor free"),
    ("free_nodes", lambda f, used: f[1:], "node slots neither used nor free"),
])
def test_a_double_free_or_a_leak_is_found(which: str, change, words: str) -> None:
    m, img = _tree(), encode(_tree(), LAY)
    assert decode(img, LAY).problems == []
    used = 0 if which == "free_lines" else 1
    bad = dataclasses.replace(img, **{which: change(getattr(img, which), used)})
    assert any(words in d for d in _diffs(m, bad))


def test_lru_order_against_access_times_is_found() -> None:
    m, img = _tree(), encode(_tree(), LAY)
    order = decode(img, LAY).lru
    rev = list(reversed(order))
    bad = dataclasses.replace(img, lnext=dict(zip(rev, rev[1:], strict=False)),
                              lru_head=rev[0], lru_tail=rev[-1])
    diffs = _diffs(m, bad)
    assert any("out of stamp order" in d for d in diffs)
    assert any("after a node accessed at" in d for d in diffs)


def test_an_lru_loop_ends_the_walk() -> None:
    m, img = _tree(), encode(_tree(), LAY)
    head = img.lru_head
    bad = dataclasses.replace(img, lnext={**img.lnext, head: head})
    assert any("loops" in d for d in _diffs(m, bad))


def test_handles_pin_slot_and_generation() -> None:
    m, img = _tree(), encode(_tree(), LAY)
    node = m.locate([5, 6], 1)
    slot = _slot(img, 5, ns=1)
    assert compare(decode(img, LAY), m, LAY, {node.nid: slot}) == []
    diffs = compare(decode(img, LAY), m, LAY, {node.nid: (1 << 20) | slot})
    assert any("was given handle" in d for d in diffs)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.lists(st.integers(1, 3), min_size=1, max_size=40),
                          st.integers(0, 1)), min_size=1, max_size=12),
       st.sampled_from([1, 2, 4]))
def test_random_trees_round_trip(keys: list[tuple[list[int], int]], page: int) -> None:
    geo = dataclasses.replace(GEO, page_size=page, hash_buckets=64, hash_ways=4)
    lay = ImageLayout(geo, max_len=512)
    m = RadixCache(page)
    for i, (key, ns) in enumerate(keys):
        key = key[:len(key) - len(key) % page]
        if key:
            m.insert(key, [1000 * i + j for j in range(len(key))], namespace=ns)
    img = encode(m, lay)
    assert len(decode(img, lay).nodes) == m.num_nodes()
    assert compare(decode(img, lay), m, lay) == []
