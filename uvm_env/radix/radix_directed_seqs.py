# SPDX-License-Identifier: Apache-2.0
"""Directed radix sequences for the v2 structures: fan-out, capacity, long edges, scale.

Like every radix sequence they only choose stimulus; the scoreboard checks each
response against the model and the hardware capacity mirror (models/radix_hw.py).
"""

from __future__ import annotations

import random

from models import workloads
from models.radix_hw import LANES, bucket_of
from uvm_env.radix.protocol import (
    OP_EVICT,
    OP_INSERT,
    OP_LOCK,
    OP_MATCH,
    OP_RESET,
    OP_SIZES,
    OP_UNLOCK,
    ST_CAPACITY,
    ST_HANDLE,
    ST_OK,
)
from uvm_env.radix.radix_item import RadixCmd
from uvm_env.radix.radix_predictor import SLOT_MASK, RadixPredictor
from uvm_env.radix.radix_seqs import RadixBaseSeq


class FanoutSeq(RadixBaseSeq):
    """One node with `children` children (pipelined inserts), then lookups of the
    first, the last and an absent child, each timed by the WALK_CYCLES probe.

    Below the single child and below the last of the many, a chain of one-page
    nodes `chain` deep is grown; lookups `SHALLOW` and `chain` nodes down it give
    the walk's cost per extra node visited (the slope), apart from the fixed cost
    of starting and ending a walk. Lookups that end at a missing child and inside an
    edge, at both depths, follow (untimed)."""

    PREFIX, PREFIX_ONE = [7, 7, 7, 7], [8, 8, 8, 8]
    SHALLOW = 8

    def __init__(self, name: str, pred: RadixPredictor, rng: random.Random,
                 children: int, chain: int = 0) -> None:
        super().__init__(name, pred, rng)
        self.children = children
        self.chain = chain
        self.lookups: dict[str, RadixCmd] = {}
        self.nodes: dict[str, int] = {}     # nodes each timed lookup walks

    async def timed(self, what: str, tokens: list[int], nodes: int) -> None:
        self.lookups[what] = await self.do(op=OP_MATCH, tokens=tokens, wait=True)
        self.nodes[what] = nodes

    async def grow_chain(self, base: list[int], first_tok: int) -> list[list[int]]:
        """Extend `base` one page at a time: every INSERT adds one node below the last."""
        p = self.pred.p.page_size
        keys, key = [], list(base)
        for i in range(self.chain):
            key = key + [first_tok + i] * p
            await self.do(op=OP_INSERT, tokens=key, kvs=self.fresh_kvs(len(key)))
            keys.append(key)
        return keys

    async def body(self) -> None:
        p = self.pred.p.page_size
        # A node with exactly one child, looked up the same way as the big one.
        one = self.PREFIX_ONE * p
        await self.do(op=OP_INSERT, tokens=one, kvs=self.fresh_kvs(len(one)))
        await self.do(op=OP_INSERT, tokens=one + [1000] * p, kvs=self.fresh_kvs(len(one) + p))
        await self.timed("one child", one + [1000] * p, 2)
        prefix = self.PREFIX * p
        await self.do(op=OP_INSERT, tokens=prefix, kvs=self.fresh_kvs(len(prefix)))
        for c in range(self.children):
            key = prefix + [1000 + c] * p
            await self.do(op=OP_INSERT, tokens=key, kvs=self.fresh_kvs(len(key)))
        for what, c in (("first child", 0), ("last child", self.children - 1),
                        ("absent child", self.children + 5)):
            await self.timed(what, prefix + [1000 + c] * p, 1 if what == "absent child" else 2)
        if self.chain > self.SHALLOW:
            for what, base, tok in (("one child", one + [1000] * p, 3000),
                                    ("last child", prefix + [1000 + self.children - 1] * p,
                                     5000)):
                keys = await self.grow_chain(base, tok)
                for depth in (self.SHALLOW, self.chain):
                    await self.timed(f"chain {depth} below {what}", keys[depth - 1], 2 + depth)
            # Walks that end every way, shallow and deep: at a missing child, and
            # inside a two-page edge (a twig beside the chain).
            for depth in (self.SHALLOW, self.chain):
                key = keys[depth - 1]
                await self.do(op=OP_MATCH, tokens=key + [9000] * p)
                twig = key + [9100] * p + [9101] * p
                await self.do(op=OP_INSERT, tokens=twig, kvs=self.fresh_kvs(len(twig)))
                await self.do(op=OP_MATCH, tokens=key + [9100] * p + [9102] * p)


class CapacitySeq(RadixBaseSeq):
    """Fill each finite structure to the point of refusal, check that the refusal
    changed nothing, then evict everything and show the tree is usable again.

    * lines: long keys until an INSERT is refused for lack of lines;
    * nodes: one-page keys until an INSERT is refused for lack of node slots;
    * index: root children whose first page hashes to one bucket, until that
      bucket and the stash are full (the node table is nowhere near full).
    """

    def __init__(self, name: str, pred: RadixPredictor, rng: random.Random,
                 snapshot: object) -> None:
        super().__init__(name, pred, rng)
        self.snapshot = snapshot          # async callable: compare every CSR with the model
        self.refused: dict[str, int] = {}   # refusals whose cause was the structure named
        self.shared: dict[str, int] = {}    # shared-bucket INSERTs sent, by placement

    def short_of(self, key: list[int]) -> str:
        """Which structure a refused INSERT of `key` lacked, from the capacity mirror."""
        hw = self.pred.hw
        if not hw.free_slots:
            return "node"
        if -(-len(key) // LANES) > hw.free_lines:
            return "line"
        return "index"

    async def fill(self, what: str, keys: list[list[int]], ns: int = 0) -> None:
        refused = 0
        for key in keys:
            cmd = await self.do(op=OP_INSERT, ns=ns, tokens=key, kvs=self.fresh_kvs(len(key)),
                                wait=True)
            if cmd.rsp.status == ST_CAPACITY:
                refused += self.short_of(key) == what
                await self.snapshot(f"after a {what} refusal")
                if refused >= 3:
                    break
        self.refused[what] = refused

    async def every_op_when_full(self, what: str, keys: list[list[int]]) -> None:
        """With the structure still full: SIZES, a MATCH, LOCK and UNLOCK of what it found,
        then RESET from the full state, and the fill again (so recover() evicts from a
        full tree). Each command meets the full state (the tree-state coverage)."""
        await self.do(op=OP_SIZES, wait=True)
        cmd = await self.do(op=OP_MATCH, tokens=keys[0], wait=True)
        if cmd.rsp.status == ST_OK:
            await self.do(op=OP_LOCK, arg=cmd.rsp.b, wait=True)
            await self.do(op=OP_UNLOCK, arg=cmd.rsp.b, wait=True)
        await self.do(op=OP_RESET, wait=True)
        await self.snapshot(f"after RESET of a {what}-full tree")
        counted = self.refused[what]
        await self.fill(what, keys)
        self.refused[what] = counted

    async def recover(self) -> None:
        await self.do(op=OP_EVICT, arg=1 << 30, wait=True)
        key = [self.rng.randrange(1 << 20) for _ in range(3 * LANES)]
        await self.do(op=OP_INSERT, tokens=key, kvs=self.fresh_kvs(len(key)), wait=True)
        await self.do(op=OP_MATCH, tokens=key, wait=True)
        await self.do(op=OP_SIZES, wait=True)
        await self.snapshot("after recovery")

    async def body(self) -> None:
        p = self.pred.p
        page = p.page_size
        long_len = min(p.max_len, 16 * LANES) // page * page
        lines_needed = p.token_cap // LANES
        n_keys = lines_needed // (long_len // LANES) + 4
        line_keys = [[5000 + i] * page + [self.rng.randrange(1 << 20)
                                          for _ in range(long_len - page)]
                     for i in range(n_keys)]
        await self.fill("line", line_keys)
        await self.every_op_when_full("line", line_keys)
        await self.recover()
        await self.do(op=OP_RESET, wait=True)
        # One-page root children spread so that no bucket takes more than its
        # ways: the node table, not the index, runs out.
        per_bucket: dict[int, int] = {}
        spread: list[list[int]] = []
        t = 20000
        while len(spread) < p.node_cap + 4:
            b = bucket_of(0, 0, (t,) * page, p.hash_buckets)
            if per_bucket.get(b, 0) < p.hash_ways or len(spread) >= p.node_cap - 1:
                per_bucket[b] = per_bucket.get(b, 0) + 1
                spread.append([t] * page)
            t += 1
        await self.fill("node", spread)
        await self.every_op_when_full("node", spread)
        await self.recover()
        await self.do(op=OP_RESET, wait=True)
        # Root children (parent slot 0) whose first page lands in one bucket.
        target = bucket_of(0, 0, (30000,) * page, p.hash_buckets)
        colliding = [t for t in range(30000, 30000 + 200 * p.hash_buckets)
                     if bucket_of(0, 0, (t,) * page, p.hash_buckets) == target]
        need = p.hash_ways + p.stash_depth + 3
        index_keys = [[t] * page for t in colliding[:need]]
        await self.fill("index", index_keys)
        await self.every_op_when_full("index", index_keys)
        await self.recover()
        for case in self.SHARED_CASES:
            await self.shared_bucket(*case)

    #: (free ways in the shared bucket, free stash entries, the placement the model
    #: predicts) for a split tail and a new leaf that hash to one bucket.
    SHARED_CASES = ((2, 0, "2 ways"), (1, 1, "way + stash"), (1, 0, "refused"),
                    (0, 2, "2 stash"), (0, 1, "refused"), (0, 0, "refused"))

    async def shared_bucket(self, ways: int, stash: int, expect: str) -> None:
        """After RESET: bucket B left with `ways` free ways, and root children of another
        bucket overflowing into the stash until `stash` entries are free. Then a two-page
        leaf L whose second page, under the slot the split's upper half will take, hashes
        to B, and an INSERT that splits L after its first page and adds a leaf whose page
        hashes to B too. Each structure but the index has room, so the index decides."""
        p, hw = self.pred.p, self.pred.hw
        page = p.page_size
        await self.do(op=OP_RESET, wait=True)

        def first_pages(parent: int, bucket: int, start: int, n: int) -> list[int]:
            out, t = [], start
            while len(out) < n:
                if bucket_of(0, parent, (t,) * page, p.hash_buckets) == bucket:
                    out.append(t)
                t += 1
            return out

        def root_bucket(t: int) -> int:
            return bucket_of(0, 0, (t,) * page, p.hash_buckets)

        b, b2 = root_bucket(50000), root_bucket(50001)
        assert b != b2, "pick first pages of two buckets"
        fillers = (first_pages(0, b, 50000, p.hash_ways - ways)
                   + first_pages(0, b2, 50001, p.hash_ways + p.stash_depth - stash))
        for t in fillers:
            await self.do(op=OP_INSERT, tokens=[t] * page, kvs=self.fresh_kvs(page), wait=True)
        a = next(t for t in range(60000, 70000) if root_bucket(t) not in (b, b2))
        upper = hw.free_slots[-2]          # L takes the top of the free stack, the split next
        tail, leaf = first_pages(upper, b, 70000, 2)
        key = [a] * page + [tail] * page
        await self.do(op=OP_INSERT, tokens=key, kvs=self.fresh_kvs(len(key)), wait=True)
        split = [a] * page + [leaf] * page
        room = self.pred.shared_bucket(RadixCmd(op=OP_INSERT, tokens=split, ns=0))
        assert room == expect, f"built {room!r}, meant {expect!r} ({ways} ways, {stash} stash)"
        await self.do(op=OP_INSERT, tokens=split, kvs=self.fresh_kvs(len(split)), wait=True)
        self.shared[expect] = self.shared.get(expect, 0) + 1
        await self.snapshot(f"after a split tail and a leaf into one bucket ({expect})")
        await self.do(op=OP_MATCH, tokens=split, wait=True)
        await self.do(op=OP_MATCH, tokens=key, wait=True)


class LongEdgesSeq(RadixBaseSeq):
    """Edges up to MaxLen, split at every line offset 0..15: first inside a leaf
    (which starts at lane 0) and then inside its tail (which starts mid-line),
    with every prefix looked up after each split."""

    async def body(self) -> None:
        p = self.pred.p
        page = p.page_size
        length = p.max_len // page * page
        offsets = sorted({(o // page) * page for o in range(LANES)} | {page})
        for case, lane in enumerate(offsets):
            base = [40000 + case] + [self.rng.randrange(1 << 20) for _ in range(length - 1)]
            await self.make_room(base, 0)
            await self.do(op=OP_INSERT, tokens=base, kvs=self.fresh_kvs(length))
            # first split: `cut` tokens into the leaf, at line offset `lane`
            cut = max(page, min(length - page, LANES * self.rng.randrange(4) + lane))
            cut -= cut % page
            first = base[:cut] + [99] * page
            await self.make_room(first, 0)
            await self.do(op=OP_INSERT, tokens=first, kvs=self.fresh_kvs(len(first)))
            # second split inside the tail, which starts at line offset cut % 16
            cut2 = cut + max(page, ((LANES - lane) % LANES) or page)
            if cut2 < length:
                second = base[:cut2] + [98] * page
                await self.make_room(second, 0)
                await self.do(op=OP_INSERT, tokens=second, kvs=self.fresh_kvs(len(second)))
            for end in (cut, cut2, length, cut + page, length - page):
                if 0 < end <= length:
                    await self.do(op=OP_MATCH, tokens=base[:end])
            await self.do(op=OP_MATCH, tokens=base)


class ScaleSeq(RadixBaseSeq):
    """Fill a large configuration from workload traces until `tokens` tokens have
    been inserted, evicting as the scheduler would when the pool is full."""

    def __init__(self, name: str, pred: RadixPredictor, rng: random.Random,
                 tokens: int) -> None:
        super().__init__(name, pred, rng)
        self.tokens = tokens

    async def body(self) -> None:
        max_len, num_ns = self.pred.p.max_len, self.pred.p.num_ns
        stats = self.pred.model.stats
        names = sorted(workloads.WORKLOADS)
        i = 0
        while stats.inserted_tokens < self.tokens:
            trace = workloads.WORKLOADS[names[i % len(names)]](seed=self.rng.randrange(1 << 16),
                                                             requests=64)
            i += 1
            for req in trace:
                toks = [int(t) for t in req.tokens[:max_len]]
                ns = req.namespace % num_ns
                await self.do(op=OP_MATCH, ns=ns, tokens=toks[:-1])
                await self.make_room(toks, ns)
                await self.do(op=OP_INSERT, ns=ns, tokens=toks, kvs=self.fresh_kvs(len(toks)))
        await self.do(op=OP_SIZES, wait=True)


class LockOverflowSeq(RadixBaseSeq):
    """Lock one node LOCK_MAX times (pipelined), then once more: OVERFLOW. An UNLOCK makes
    room for exactly one more LOCK, and the next is refused again. The counter is the
    RTL's own 16-bit lock_ref: no small-counter build."""

    def __init__(self, name: str, pred: RadixPredictor, rng: random.Random,
                 locks: int) -> None:
        super().__init__(name, pred, rng)
        self.locks = locks
        self.probes: list[RadixCmd] = []   # the commands at the limit, in order

    async def body(self) -> None:
        key = [1, 2, 3, 4, 5]
        await self.do(op=OP_INSERT, tokens=key, kvs=self.fresh_kvs(len(key)))
        await self.do(op=OP_INSERT, tokens=key + [6], kvs=self.fresh_kvs(len(key) + 1))
        hit = await self.do(op=OP_MATCH, tokens=key, wait=True)
        handle = hit.rsp.b
        for _ in range(self.locks):
            await self.do(op=OP_LOCK, arg=handle)
        for op in (OP_LOCK, OP_UNLOCK, OP_LOCK, OP_LOCK, OP_SIZES):
            self.probes.append(await self.do(op=op, arg=handle, wait=True))


class HandleReuseSeq(RadixBaseSeq):
    """Handles across RESET and slot reuse. The node table is filled (one child of the
    root per node slot, spread over the child index so nothing is refused), RESET,
    filled again, emptied by EVICT and filled a third time. Every handle names its slot
    and generation (docs/radix-protocol.md, "Handles"): a RESET and a free each bump a
    slot's generation by exactly one, so each slot's generation must read +1 after the
    RESET and +2 after the EVICT, the top slots included. LOCKs of the handles from
    before the RESET must be refused with HANDLE. The predictor checks besides that no
    dead handle is given out again before its generation wraps."""

    def keys(self) -> list[list[int]]:
        p = self.pred.p
        per_bucket: dict[int, int] = {}
        keys: list[list[int]] = []
        t = 40000
        while len(keys) < min(p.node_cap - 1, p.hash_buckets * p.hash_ways):
            page = (t,) * p.page_size
            b = bucket_of(0, 0, page, p.hash_buckets)
            if per_bucket.get(b, 0) < p.hash_ways:
                per_bucket[b] = per_bucket.get(b, 0) + 1
                keys.append(list(page))
            t += 1
        return keys

    async def build(self, keys: list[list[int]]) -> dict[int, int]:
        """Insert every key; slot -> generation of the handles the DUT gave."""
        gens = {}
        for key in keys:
            cmd = await self.do(op=OP_INSERT, tokens=key, kvs=self.fresh_kvs(len(key)),
                                wait=True)
            if cmd.rsp.status != ST_OK:
                raise AssertionError(f"INSERT of {key} refused ({cmd.rsp.status})")
            gens[cmd.rsp.b & SLOT_MASK] = cmd.rsp.b >> 20 & 0xFF
        return gens

    @staticmethod
    def expect_bumped(before: dict[int, int], after: dict[int, int], by: int,
                      what: str) -> None:
        wrong = {s: (before[s], g) for s, g in after.items()
                 if s in before and g != (before[s] + by) & 0xFF}
        if wrong or set(after) != set(before):
            raise AssertionError(f"after {what} every slot's generation must be {by} more; "
                                 f"slot: (before, after) {dict(list(wrong.items())[:6])}, "
                                 f"slots {sorted(set(after) ^ set(before))[:6]} in one only")

    async def body(self) -> None:
        keys = self.keys()
        await self.do(op=OP_RESET, wait=True)        # an empty table, whatever came before
        first = await self.build(keys)
        handles = [(g << 20) | s for s, g in first.items()]
        await self.do(op=OP_RESET, wait=True)
        second = await self.build(keys)
        self.expect_bumped(first, second, 1, "a RESET")
        await self.do(op=OP_EVICT, arg=1 << 20, wait=True)
        third = await self.build(keys)
        self.expect_bumped(first, third, 2, "a RESET and an EVICT")
        for h in handles:
            cmd = await self.do(op=OP_LOCK, arg=h, wait=True)
            if cmd.rsp.status != ST_HANDLE:
                raise AssertionError(f"LOCK of handle {h:#x} from before RESET answered "
                                     f"{cmd.rsp.status}, not HANDLE")
        await self.do(op=OP_RESET, wait=True)
