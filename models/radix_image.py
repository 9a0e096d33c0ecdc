# SPDX-License-Identifier: Apache-2.0
"""Decode the radix controller's storage into a tree and compare it with the model.

Responses only show what a command asks for: a wrong lock count on a node no
later command locks, a stale child-index entry, a KV index written into the
wrong lane of a line nobody matches again, all stay hidden until much later.
This module reads the controller's memories as the RTL lays them out
(docs/radix-protocol.md, "RAM map") and rebuilds the tree from them, so a
test can compare the stored tree with `models.radix_cache` node by node.
The same decoder will read the DDR image of an L2 build, whose layout is these
words.

Input is plain integers (one per RAM word), so the decoder does not care
whether they came from a simulator's memories or from a memory dump.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from models.radix_cache import Node, NodeInfo, RadixCache
from models.radix_hw import LANES, HwGeometry, bucket_of

GEN_W, LOCK_W, STAMP_W = 8, 16, 64


def _clog2(x: int) -> int:
    return max(0, (x - 1).bit_length())


@dataclass(frozen=True)
class ImageLayout:
    """Bit fields of every stored word, derived from the parameters as radix_core does."""

    geo: HwGeometry
    max_len: int

    @property
    def node_w(self) -> int:
        return _clog2(self.geo.node_cap)

    @property
    def line_w(self) -> int:
        return _clog2(self.geo.line_cap)

    @property
    def len_w(self) -> int:
        return _clog2(self.max_len + 1)

    @property
    def way_w(self) -> int:
        return _clog2(self.geo.hash_ways) if self.geo.hash_ways > 1 else 1

    @property
    def loc_w(self) -> int:
        bucket_w = _clog2(self.geo.hash_buckets)
        stash_w = _clog2(self.geo.stash_depth) if self.geo.stash_depth > 1 else 1
        return 1 + max(bucket_w + self.way_w, stash_w)

    def node_fields(self) -> list[tuple[str, int]]:
        """Node word fields, least significant first."""
        return [("valid", 1), ("gen", GEN_W), ("ns", 8), ("parent", self.node_w),
                ("head", self.line_w), ("off", 4), ("len", self.len_w), ("lock", LOCK_W),
                ("stamp", STAMP_W), ("nchild", self.node_w + 1), ("hloc", self.loc_w)]

    def index_fields(self) -> list[tuple[str, int]]:
        """Child-index entry fields, least significant first."""
        return [("child", self.node_w), ("len", self.len_w), ("page", 32 * self.geo.page_size),
                ("parent", self.node_w), ("ns", 8), ("valid", 1)]

    @property
    def entry_w(self) -> int:
        return sum(w for _, w in self.index_fields())


def unpack(word: int, fields: Sequence[tuple[str, int]]) -> dict[str, int]:
    out: dict[str, int] = {}
    for name, width in fields:
        out[name] = word & ((1 << width) - 1)
        word >>= width
    return out


def pack(values: Mapping[str, int], fields: Sequence[tuple[str, int]]) -> int:
    """The inverse of `unpack`; a value wider than its field is an error, not a wrap."""
    word, shift = 0, 0
    for name, width in fields:
        v = values.get(name, 0)
        if not 0 <= v < (1 << width):
            raise ValueError(f"{name}={v} does not fit {width} bits")
        word |= v << shift
        shift += width
    return word


@dataclass
class StoredNode:
    slot: int
    gen: int
    ns: int
    parent: int
    lock: int
    stamp: int
    nchild: int
    hloc: int
    tokens: tuple[int, ...]
    kvs: tuple[int, ...]


@dataclass
class RadixImage:
    """The memories of one controller, one integer per word (missing words read as 0)."""

    nodes: Mapping[int, int]          # node table
    ltok: Mapping[int, int]           # line tokens, lane s at bits [32s +: 32]
    lkv: Mapping[int, int]            # line KV indices, same lanes
    llink: Mapping[int, int]          # {next2, next1}
    lnext: Mapping[int, int]          # LRU list forward links
    buckets: Mapping[int, int]        # child-index rows
    # Valid stash entries: (position, key {ns, parent, page}, {len, child}).
    stash: Sequence[tuple[int, int, int]] = ()
    lru_head: int = 0
    lru_tail: int = 0
    # Free lists (stack contents, bottom first); None: not read, not checked.
    free_nodes: Sequence[int] | None = None
    free_lines: Sequence[int] | None = None


@dataclass
class DecodedTree:
    nodes: dict[int, StoredNode] = field(default_factory=dict)
    lru: list[int] = field(default_factory=list)
    index: dict[tuple[int, int, tuple[int, ...]], tuple[int, int, int]] = field(
        default_factory=dict)          # (ns, parent, page) -> (child, len, loc)
    lines: set[int] = field(default_factory=set)     # lines some edge uses
    problems: list[str] = field(default_factory=list)


def decode(img: RadixImage, lay: ImageLayout) -> DecodedTree:
    """Rebuild the stored tree: node words, the tokens and KV indices of every edge
    (following line links), the LRU list and the child index."""
    out = DecodedTree()
    for slot in range(1, lay.geo.node_cap):
        f = unpack(img.nodes.get(slot, 0), lay.node_fields())
        if not f["valid"]:
            continue
        toks, kvs = _edge(img, lay, f["head"], f["off"], f["len"], out, slot)
        out.nodes[slot] = StoredNode(slot, f["gen"], f["ns"], f["parent"], f["lock"],
                                     f["stamp"], f["nchild"], f["hloc"], toks, kvs)
    seen: set[int] = set()
    x = img.lru_head
    while x != 0 and x not in seen and len(seen) <= lay.geo.node_cap:
        seen.add(x)
        out.lru.append(x)
        x = img.lnext.get(x, 0) & ((1 << lay.node_w) - 1)
    if x != 0:
        out.problems.append(f"LRU list loops at slot {x}")
    elif out.lru and out.lru[-1] != img.lru_tail:
        out.problems.append(f"LRU list ends at {out.lru[-1]}, tail register says {img.lru_tail}")
    _decode_index(img, lay, out)
    _check_free(img.free_nodes, set(out.nodes), range(1, lay.geo.node_cap), "node slot", out)
    _check_free(img.free_lines, out.lines, range(lay.geo.line_cap), "line", out)
    return out


def _check_free(free: Sequence[int] | None, used: set[int], every: range, what: str,
                out: DecodedTree) -> None:
    """Every index is either used or on its free list, never both, never twice: a
    double free or a leak keeps the free count right for a while and the data wrong."""
    if free is None:
        return
    dup = {x for x, n in Counter(free).items() if n > 1}
    both = used & set(free)
    lost = set(every) - used - set(free)
    for kind, xs in (("twice on the free list", dup), ("both used and free", both),
                     ("neither used nor free", lost)):
        if xs:
            out.problems.append(f"{what}s {kind}: {sorted(xs)[:8]}"
                                + (f" ({len(xs)})" if len(xs) > 8 else ""))


def _edge(img: RadixImage, lay: ImageLayout, head: int, off: int, n: int,
          out: DecodedTree, slot: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    toks: list[int] = []
    kvs: list[int] = []
    line, lane, hops = head, off, 0
    mask = (1 << lay.line_w) - 1
    while len(toks) < n:
        if hops > lay.geo.line_cap:
            out.problems.append(f"slot {slot}: line links loop after {hops} lines")
            break
        out.lines.add(line)
        tw, kw = img.ltok.get(line, 0), img.lkv.get(line, 0)
        while lane < LANES and len(toks) < n:
            toks.append((tw >> (32 * lane)) & 0xFFFF_FFFF)
            kvs.append((kw >> (32 * lane)) & 0xFFFF_FFFF)
            lane += 1
        line, lane, hops = img.llink.get(line, 0) & mask, 0, hops + 1
    return tuple(toks), tuple(kvs)


def _decode_index(img: RadixImage, lay: ImageLayout, out: DecodedTree) -> None:
    ways, ew, way_w = lay.geo.hash_ways, lay.entry_w, lay.way_w
    page_bits = 32 * lay.geo.page_size
    for b, row in img.buckets.items():
        for w in range(ways):
            e = unpack(row >> (w * ew), lay.index_fields())
            if e["valid"]:
                _index_entry(out, e["ns"], e["parent"], e["page"], page_bits,
                             e["child"], e["len"], (b << way_w) | w)
    for s, key, val in img.stash:
        page = key & ((1 << page_bits) - 1)
        parent = (key >> page_bits) & ((1 << lay.node_w) - 1)
        ns = key >> (page_bits + lay.node_w)
        child = val & ((1 << lay.node_w) - 1)
        _index_entry(out, ns, parent, page, page_bits, child, val >> lay.node_w,
                     (1 << (lay.loc_w - 1)) | s)


def _index_entry(out: DecodedTree, ns: int, parent: int, page: int, page_bits: int,
                 child: int, length: int, loc: int) -> None:
    toks = tuple((page >> (32 * i)) & 0xFFFF_FFFF for i in range(page_bits // 32))
    key = (ns, parent, toks)
    if key in out.index:
        out.problems.append(f"child index holds {key} twice")
    out.index[key] = (child, length, loc)


def compare(tree: DecodedTree, model: RadixCache, lay: ImageLayout,
            handles: Mapping[int, int] | None = None) -> list[str]:
    """Differences between the stored tree and the model, in words a failing test can
    print; [] when they agree. `handles` (model node id -> DUT handle) pins slots and
    generations of the nodes whose handles the bench has seen."""
    diffs = list(tree.problems)
    page = lay.geo.page_size
    by_parent: dict[tuple[int, int, tuple[int, ...]], int] = {}
    for s in tree.nodes.values():
        k = (s.parent, s.ns, s.tokens[:page])
        if k in by_parent:
            diffs.append(f"slots {by_parent[k]} and {s.slot} are both the child {k}")
        by_parent[k] = s.slot
    matched: dict[int, Node] = {}      # slot -> model node
    stack: list[tuple[Node, int]] = [(model.root, 0)]
    while stack:
        mnode, slot = stack.pop()
        kids = list(mnode.children.values())
        if slot != 0 and tree.nodes[slot].nchild != len(kids):
            diffs.append(f"slot {slot}: {tree.nodes[slot].nchild} children stored, "
                         f"model has {len(kids)}")
        for child in kids:
            info = model.node_info(child)
            want = (slot, info.namespace, info.key[:page])
            got = by_parent.get(want)
            if got is None:
                diffs.append(f"model node #{info.node_id} (parent slot {slot}, ns "
                             f"{info.namespace}, key {list(info.key[:8])}...) is not stored")
                continue
            matched[got] = child
            diffs += _node_diffs(tree.nodes[got], info, handles)
            diffs += _index_diffs(tree, tree.nodes[got], lay)
            stack.append((child, got))
    for slot in sorted(set(tree.nodes) - set(matched)):
        diffs.append(f"slot {slot} is stored but not in the model's tree")
    diffs += _lru_diffs(tree, matched, model)
    extra = len(tree.index) - len(tree.nodes)
    if extra > 0:
        diffs.append(f"child index holds {extra} entries more than there are nodes")
    return diffs


def _node_diffs(s: StoredNode, info: NodeInfo, handles: Mapping[int, int] | None) -> list[str]:
    out = []
    for what, got, want in (("key", s.tokens, info.key), ("KV indices", s.kvs, info.value),
                            ("lock_ref", s.lock, info.lock_ref)):
        if got != want:
            out.append(f"slot {s.slot} (model #{info.node_id}): {what} {_short(got)}, "
                       f"model {_short(want)}")
    h = (handles or {}).get(info.node_id)
    if h is not None and (h & 0xF_FFFF, (h >> 20) & 0xFF) != (s.slot, s.gen):
        out.append(f"slot {s.slot} gen {s.gen} (model #{info.node_id}) was given handle {h:#x}")
    return out


def _index_diffs(tree: DecodedTree, s: StoredNode, lay: ImageLayout) -> list[str]:
    key = (s.ns, s.parent, s.tokens[:lay.geo.page_size])
    got = tree.index.get(key)
    if got is None:
        return [f"slot {s.slot}: no child-index entry for {key}"]
    child, length, loc = got
    out = []
    if (child, length) != (s.slot, len(s.tokens)):
        out.append(f"slot {s.slot}: child index says child {child}, length {length}; "
                   f"node has length {len(s.tokens)}")
    if loc != s.hloc:
        out.append(f"slot {s.slot}: node says its index entry is at {s.hloc:#x}, it is at "
                   f"{loc:#x}")
    if loc >> (lay.loc_w - 1) == 0:
        b = loc >> lay.way_w
        want_b = bucket_of(s.ns, s.parent, key[2], lay.geo.hash_buckets)
        if b != want_b:
            out.append(f"slot {s.slot}: index entry in bucket {b}, its key hashes to {want_b}")
    return out


def _lru_diffs(tree: DecodedTree, matched: Mapping[int, Node], model: RadixCache) -> list[str]:
    """The LRU list holds every live node once, in stamp order, and that order never
    goes against the model's access times (ties are the model's to break at eviction)."""
    out = []
    if sorted(tree.lru) != sorted(tree.nodes):
        out.append(f"LRU list holds {len(tree.lru)} slots, {len(tree.nodes)} nodes are live")
    prev_stamp, prev_access = -1, -1
    for slot in tree.lru:
        node = tree.nodes.get(slot)
        if node is None:
            out.append(f"LRU list names free slot {slot}")
            continue
        if node.stamp < prev_stamp:
            out.append(f"LRU list out of stamp order at slot {slot}")
        prev_stamp = node.stamp
        m = matched.get(slot)
        if m is not None:
            access = model.node_info(m).last_access
            if access < prev_access:
                out.append(f"LRU list puts slot {slot} (model access {access}) after a node "
                           f"accessed at {prev_access}")
            prev_access = max(prev_access, access)
    return out


def _short(x: object) -> str:
    if isinstance(x, tuple) and len(x) > 8:
        return f"{list(x[:8])}... ({len(x)})"
    return str(x)


def encode(model: RadixCache, lay: ImageLayout) -> RadixImage:
    """An image that stores `model`'s tree the way the RTL may: slots in depth-first
    order, every edge in lines of its own from lane 0, index entries in the lowest free
    way of their bucket and then the stash, the LRU list in (access, id) order, stamps
    equal to the model's access times. Not the only legal image (the RTL shares the
    cut line of a split, and its slots follow its free list); a reference for the
    decoder's tests and a starting image for an L2 region."""
    geo = lay.geo
    way_w = lay.way_w
    nodes: dict[int, int] = {}
    ltok: dict[int, int] = {}
    lkv: dict[int, int] = {}
    llink: dict[int, int] = {}
    buckets: dict[int, int] = {}
    used: dict[int, int] = {}
    stash: list[tuple[int, int, int]] = []
    slot_of: dict[int, int] = {}
    next_line = 0
    order: list[tuple[Node, int]] = []          # (node, parent slot)
    stack: list[tuple[Node, int]] = [(c, 0) for c in model.root.children.values()]
    while stack:
        node, parent = stack.pop()
        slot = len(order) + 1
        if slot >= geo.node_cap:
            raise ValueError("the tree has more nodes than the node table")
        slot_of[node.nid] = slot
        order.append((node, parent))
        stack.extend((c, slot) for c in node.children.values())
    for node, parent in order:
        info, slot = model.node_info(node), slot_of[node.nid]
        head = next_line
        for i in range(0, len(info.key), LANES):
            if next_line >= geo.line_cap:
                raise ValueError("the tree has more tokens than the token store")
            toks, kvs = info.key[i:i + LANES], info.value[i:i + LANES]
            ltok[next_line] = sum(t << (32 * k) for k, t in enumerate(toks))
            lkv[next_line] = sum(v << (32 * k) for k, v in enumerate(kvs))
            llink[next_line] = next_line + 1 if i + LANES < len(info.key) else 0
            next_line += 1
        page = info.key[:geo.page_size]
        page_word = sum(t << (32 * k) for k, t in enumerate(page))
        b = bucket_of(info.namespace, parent, page, geo.hash_buckets)
        entry = {"valid": 1, "ns": info.namespace, "parent": parent, "page": page_word,
                 "len": len(info.key), "child": slot}
        if used.get(b, 0) < geo.hash_ways:
            w = used.get(b, 0)
            used[b] = w + 1
            buckets[b] = buckets.get(b, 0) | pack(entry, lay.index_fields()) << (w * lay.entry_w)
            loc = (b << way_w) | w
        elif len(stash) < geo.stash_depth:
            s = len(stash)
            key = (((info.namespace << lay.node_w) | parent) << (32 * geo.page_size)) | page_word
            stash.append((s, key, (len(info.key) << lay.node_w) | slot))
            loc = (1 << (lay.loc_w - 1)) | s
        else:
            raise ValueError("the child index is full")
        nodes[slot] = pack({"valid": 1, "ns": info.namespace, "parent": parent, "head": head,
                            "len": len(info.key), "lock": info.lock_ref,
                            "stamp": info.last_access, "nchild": len(info.child_ids),
                            "hloc": loc}, lay.node_fields())
    lru = [slot_of[n.nid] for n, _ in sorted(order, key=lambda x: (x[0].last_access,
                                                                    x[0].nid))]
    lnext = {a: b for a, b in zip(lru, lru[1:], strict=False)}
    return RadixImage(nodes, ltok, lkv, llink, lnext, buckets, stash,
                      lru[0] if lru else 0, lru[-1] if lru else 0,
                      free_nodes=list(range(geo.node_cap - 1, len(order), -1)),
                      free_lines=list(range(geo.line_cap - 1, next_line - 1, -1)))
