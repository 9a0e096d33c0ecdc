# SPDX-License-Identifier: Apache-2.0
"""What the v2 radix controller's storage adds to ``RadixCache``: exact capacity rules.

The golden model (``models.radix_cache``) has no capacities. The RTL stores a
tree in three finite structures, and a command that does not fit is refused
before anything is written. This module mirrors each one exactly, so that every
CAPACITY refusal is predicted:

* **node slots**: a LIFO free stack, initially popping 1, 2, 3, ... (slot 0 is
  the root); a split's upper node is allocated before a new leaf;
* **token lines**: 16 tokens per line; a new leaf takes ceil(len/16) fresh
  lines; a split shares the line it cuts; evicting a node frees its lines
  except the first one when the edge starts mid-line (its parent keeps it);
* **child index**: ``HashBuckets`` buckets of ``HashWays`` entries plus a
  ``StashDepth`` stash, keyed by (namespace, parent slot, first page) through
  ``bucket_of``; an entry takes a free way of its bucket, else a stash entry.

``RadixHw.plan`` says what a MATCH/INSERT would need given the model's pure
``RadixCache.walk_plan``; ``commit`` applies what the model then did.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .radix_cache import RadixCache, WalkPlan

__all__ = ["HwGeometry", "RadixHw", "bucket_of", "LANES"]

LANES = 16
_M32 = 0xFFFF_FFFF


@dataclass(frozen=True)
class HwGeometry:
    node_cap: int = 1024
    token_cap: int = 16384
    page_size: int = 1
    hash_buckets: int = 256
    hash_ways: int = 4
    stash_depth: int = 4

    @property
    def line_cap(self) -> int:
        return self.token_cap // LANES


def _rotl(x: int, r: int) -> int:
    r %= 32
    return ((x << r) | (x >> (32 - r))) & _M32 if r else x


def bucket_of(ns: int, parent: int, page: tuple[int, ...], buckets: int) -> int:
    """The RTL's hash (radix_child_index.sv): XOR of rotated words, xorshift, fold."""
    acc = ns ^ _rotl(parent, 8)
    for i, t in enumerate(page):
        acc ^= _rotl(t, (5 * i + 16) % 32)
    m = acc ^ (acc >> 16)
    m ^= (m << 7) & _M32
    m ^= m >> 11
    bw = buckets.bit_length() - 1
    out = 0
    for sh in range(0, 32, bw):
        out ^= (m >> sh) & (buckets - 1)
    return out


def lines_of(off: int, length: int) -> int:
    return (off + length + LANES - 1) // LANES


@dataclass
class _NodeHw:
    slot: int
    off: int
    length: int
    loc: tuple[str, int]  # ("b", bucket) or ("s", 0)


@dataclass
class RadixHw:
    geo: HwGeometry
    free_slots: list[int] = field(default_factory=list)
    free_lines: int = 0
    nodes: dict[int, _NodeHw] = field(default_factory=dict)  # model node id -> storage
    bucket_used: dict[int, int] = field(default_factory=dict)
    stash_used: int = 0

    def __post_init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self.free_slots = list(range(self.geo.node_cap - 1, 0, -1))  # pop() gives 1 first
        self.free_lines = self.geo.line_cap
        self.nodes = {}
        self.bucket_used = {}
        self.stash_used = 0

    # ---- queries
    def slot(self, nid: int) -> int:
        return 0 if nid == 0 else self.nodes[nid].slot

    def index_used(self) -> int:
        return sum(self.bucket_used.values()) + self.stash_used

    def fits(self, model: RadixCache, plan: WalkPlan, ns: int, op_insert: bool) -> bool:
        """Would the RTL accept this MATCH (op_insert False) or INSERT? Pure."""
        split = plan.split > 0
        leaf = op_insert and plan.pos < plan.n
        if split + leaf > len(self.free_slots):
            return False
        if leaf and lines_of(0, plan.n - plan.pos) > self.free_lines:
            return False
        return self._stash_taken(self._entry_buckets(plan, ns, op_insert)) is not None

    def shared_bucket(self, plan: WalkPlan, ns: int, op_insert: bool) -> str | None:
        """How an INSERT that splits an edge and adds a leaf would place its two index
        entries when both land in one bucket (the re-keyed tail and the leaf hang under
        the same new upper half): "2 ways", "way + stash", "2 stash", or "refused" when
        the bucket and the stash together lack room. None in every other case. Pure."""
        if len(self.free_slots) < 2:
            return None
        buckets = self._entry_buckets(plan, ns, op_insert)
        if len(buckets) != 2 or buckets[0] != buckets[1]:
            return None
        stash = self._stash_taken(buckets)
        return "refused" if stash is None else ("2 ways", "way + stash", "2 stash")[stash]

    def _entry_buckets(self, plan: WalkPlan, ns: int, op_insert: bool) -> list[int]:
        """The buckets of the index entries the command adds, in the RTL's order: the
        split's re-keyed tail (under the upper half's slot, the next free one), then the
        new leaf. Needs a free slot for each."""
        split = plan.split > 0
        buckets = []
        up_slot = self.free_slots[-1] if split else None
        if split:
            buckets.append(bucket_of(ns, up_slot, plan.tail_page, self.geo.hash_buckets))
        if op_insert and plan.pos < plan.n:
            parent = up_slot if split else self.slot(plan.leaf_parent)
            buckets.append(bucket_of(ns, parent, plan.leaf_page, self.geo.hash_buckets))
        return buckets

    def _stash_taken(self, buckets: list[int]) -> int | None:
        """How many of the new entries go to the stash (an entry takes a way of its
        bucket while one is free), or None when an entry finds neither."""
        room = self.geo.stash_depth - self.stash_used
        taken: dict[int, int] = {}
        stash = 0
        for b in buckets:
            if self.bucket_used.get(b, 0) + taken.get(b, 0) < self.geo.hash_ways:
                taken[b] = taken.get(b, 0) + 1
            elif stash < room:
                stash += 1
            else:
                return None
        return stash

    # ---- updates, in the RTL's order
    def commit(self, model: RadixCache, ns: int) -> None:
        """Apply the split and/or new leaf the model just made (model.last_split/last_leaf)."""
        if model.last_split is not None:
            upper, child, k = model.last_split
            c = self.nodes[child.nid]
            slot = self.free_slots.pop()
            self.nodes[upper.nid] = _NodeHw(slot, c.off, k, c.loc)
            c.off, c.length = (c.off + k) % LANES, c.length - k
            tail = tuple(model.node_info(child).key[: self.geo.page_size])
            c.loc = self._place(bucket_of(ns, slot, tail, self.geo.hash_buckets))
        if model.last_leaf is not None:
            leaf = model.last_leaf
            info = model.node_info(leaf)
            slot = self.free_slots.pop()
            page = tuple(info.key[: self.geo.page_size])
            loc = self._place(bucket_of(ns, self.slot(info.parent_id), page,
                                        self.geo.hash_buckets))
            self.nodes[leaf.nid] = _NodeHw(slot, 0, len(info.key), loc)
            self.free_lines -= lines_of(0, len(info.key))

    def evicted(self, nids: list[int]) -> None:
        for nid in nids:
            x = self.nodes.pop(nid)
            self.free_lines += lines_of(x.off, x.length) - (1 if x.off else 0)
            kind, b = x.loc
            if kind == "b":
                self.bucket_used[b] -= 1
            else:
                self.stash_used -= 1
            self.free_slots.append(x.slot)

    def _place(self, b: int) -> tuple[str, int]:
        if self.bucket_used.get(b, 0) < self.geo.hash_ways:
            self.bucket_used[b] = self.bucket_used.get(b, 0) + 1
            return ("b", b)
        assert self.stash_used < self.geo.stash_depth, "index overflow: fits() was not asked"
        self.stash_used += 1
        return ("s", 0)
