# SPDX-License-Identifier: Apache-2.0
"""How often would walks in flight together conflict? A trace study for the radix
controller's planned multi-walk pipeline (docs/radix-concurrency.md), not a model of RTL.

The serial golden model (models.radix_cache) runs a command stream the way a scheduler
sends it: each step MATCHes a batch of waiting requests back to back, LOCKs the admitted
ones, and finishing requests INSERT and UNLOCK. For every command the study records what
its tree walk *reads* and what its commit *writes*, in the units a hardware conflict
check would track:

* ``("child", parent, first page)``: a child-table entry (read by every lookup of a walk,
  hit or miss; written by a new leaf, a split and an eviction);
* ``("edge", node)``: a node's key and value span (read by the edge compare; written when
  a split cuts the node or an eviction frees it);
* ``("parent", node)``: a node's parent pointer (read by LOCK/UNLOCK going up from a
  handle; written by a split, which puts the new upper node above the cut node);
* ``("lock", node)``: a lock count (written by LOCK/UNLOCK at commit, as an increment, so
  two LOCKs of one node do not conflict; read by a split, whose upper node copies the
  count, and by EVICT).

Stamps are written by every MATCH and INSERT but read only by EVICT, so they never make a
walk wrong; they only have to be applied in command order (the commit stage does that).

A command *conflicts* when it reads something written by one of the earlier commands that
may still be uncommitted. The study assumes the worst case: the K-1 commands before it
(after the last barrier) are all still in flight. EVICT and RESET are barriers; LOCK and
UNLOCK are either barriers or tracked like walks (``lock_barrier``). Exact sets give the
true conflict rate; ``signature_bits`` hashes each set into a Bloom signature of that
many bits, exactly as the hardware read signature does (``models.radix_signature``, the
RTL's radix_read_sig): a child-table key becomes the child index's bucket (at the
VCK5000 configuration's ``HASH_BUCKETS``), a node key the node's id, and each key sets
three H3-hashed bits. That shows the false positives a signature of a given size adds.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter, deque
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from .radix_cache import MatchResult, Node, RadixCache
from .radix_hw import bucket_of
from .radix_signature import KIND_CHILD, KIND_EDGE, KIND_PARENT, key_mask, key_of
from .workloads import WORKLOADS, Request

Key = tuple  # ("child", parent id, (namespace, first page)) | (kind, node id)
WALKS = ("MATCH", "INSERT")


@dataclass(frozen=True)
class Access:
    op: str  # MATCH | INSERT | LOCK | UNLOCK | EVICT
    reads: frozenset[Key]
    writes: frozenset[Key]
    kinds: dict[Key, str] = field(default_factory=dict, compare=False)  # write -> kind


class RecordingCache(RadixCache):
    """The golden model, also recording each command's read and write sets."""

    def __init__(self, page_size: int = 1) -> None:
        super().__init__(page_size)
        self.trace: list[Access] = []

    def _walk_reads(self, tokens: object, namespace: int) -> set[Key]:
        """The golden model's own walk, as keys: each child lookup (hit or miss) and each
        edge compared."""
        q = np.asarray(tokens, dtype=np.uint32)
        n = len(q) - len(q) % self.page_size
        if n == 0:
            return set()
        qb, pb = q.tobytes(), self._page_bytes
        visited, pos, _ = self._walk(qb, n, namespace)
        reads: set[Key] = set()
        parent, bpos = self.root, 0
        for child in visited:
            reads.add(("child", parent.nid, (namespace, qb[bpos:bpos + pb])))
            reads.add(("edge", child.nid))
            bpos += len(child.kb)
            parent = child
        if bpos == pos * 4 < n * 4:  # every edge matched whole: the walk ended on a miss
            reads.add(("child", parent.nid, (namespace, qb[bpos:bpos + pb])))
        return reads

    def _structure_writes(self, kinds: dict[Key, str], reads: set[Key]) -> None:
        if self.last_split is not None:
            upper, child, _ = self.last_split
            pb = self._page_bytes
            kinds[("child", upper.parent.nid, (upper.ns, upper.kb[:pb]))] = "split"
            kinds[("edge", child.nid)] = "split"
            kinds[("parent", child.nid)] = "split"
            reads.add(("lock", child.nid))  # the upper node copies the child's lock count
        if self.last_leaf is not None:
            leaf = self.last_leaf
            kinds[("child", leaf.parent.nid, (leaf.ns, leaf.kb[:self._page_bytes]))] = "new_child"

    def match_prefix(self, tokens: object, namespace: int = 0) -> MatchResult:
        reads = self._walk_reads(tokens, namespace)
        res = super().match_prefix(tokens, namespace)
        kinds: dict[Key, str] = {}
        self._structure_writes(kinds, reads)
        self.trace.append(Access("MATCH", frozenset(reads), frozenset(kinds), kinds))
        return res

    def insert(self, tokens: object, kv_indices: object, namespace: int = 0) -> int:
        reads = self._walk_reads(tokens, namespace)
        pos = super().insert(tokens, kv_indices, namespace)
        kinds: dict[Key, str] = {}
        self._structure_writes(kinds, reads)
        self.trace.append(Access("INSERT", frozenset(reads), frozenset(kinds), kinds))
        return pos

    def _lock_op(self, op: str, node: Node) -> None:
        # The path up from a handle reads each node's liveness and parent pointer (a split
        # or an eviction changes them); the counts are added at commit, in order, so two
        # LOCKs on one node do not conflict with each other.
        reads: set[Key] = {("edge", node.nid)}
        kinds: dict[Key, str] = {}
        while node is not self.root:
            reads.add(("parent", node.nid))
            kinds[("lock", node.nid)] = "lock"
            node = node.parent
        self.trace.append(Access(op, frozenset(reads), frozenset(kinds), kinds))

    def inc_lock_ref(self, node: Node) -> int:
        self._lock_op("LOCK", node)
        return super().inc_lock_ref(node)

    def dec_lock_ref(self, node: Node) -> int:
        self._lock_op("UNLOCK", node)
        return super().dec_lock_ref(node)

    def evict(self, num_tokens: int) -> np.ndarray:
        nodes = {x.nid: x for _, x in self._dfs()}
        out = super().evict(num_tokens)
        kinds: dict[Key, str] = {}
        for nid in self.last_evicted:
            x = nodes[nid]
            kinds[("edge", nid)] = "evict"
            kinds[("child", x.parent.nid, (x.ns, x.kb[:self._page_bytes]))] = "evict"
        self.trace.append(Access("EVICT", frozenset(), frozenset(kinds), kinds))
        return out


def batched_trace(trace: Sequence[Request], batch: int = 8, running_max: int = 32,
                  capacity_tokens: int = 1 << 17, page_size: int = 1) -> list[Access]:
    """Serve the requests in scheduler steps of `batch`: MATCH each (prompt minus its last
    token, as SGLang caps the match), LOCK the matched node, and once more than
    `running_max` are running finish the oldest (INSERT prompt + output, UNLOCK). EVICT
    when the pool of `capacity_tokens` KV slots runs short."""
    cache = RecordingCache(page_size)
    free = capacity_tokens
    running: deque[tuple[Request, int, Node, int]] = deque()

    def finish() -> None:
        nonlocal free
        req, matched, node, need = running.popleft()
        toks = req.tokens
        prefix = cache.insert(toks, np.arange(len(toks), dtype=np.int64), req.namespace)
        free += (prefix - matched) + len(toks) % page_size  # duplicates and the tail page
        cache.dec_lock_ref(node)

    for start in range(0, len(trace), batch):
        step = trace[start:start + batch]
        hits = [cache.match_prefix(r.prompt[:max(len(r.prompt) - 1, 0)], r.namespace)
                for r in step]
        for req, hit in zip(step, hits, strict=True):
            cache.inc_lock_ref(hit.node)
            need = len(req.prompt) + len(req.output) - hit.length
            while free < need and running:
                finish()
            if free < need:
                free += len(cache.evict(need - free))
            free -= need
            running.append((req, hit.length, hit.node, need))
        while len(running) > running_max:
            finish()
    while running:
        finish()
    return cache.trace


HASH_BUCKETS = 32768  # the child index of the VCK5000 configuration (its L2 build)
_NODE_KINDS = {"edge": KIND_EDGE, "parent": KIND_PARENT}


def hw_key(key: Key, buckets: int = HASH_BUCKETS) -> int:
    """The 32-bit key the hardware signature records for a study key."""
    if key[0] == "child":
        _, parent, (ns, page) = key
        words = tuple(int(w) for w in np.frombuffer(page, dtype=np.uint32))
        return key_of(KIND_CHILD, bucket_of(ns, parent, words, buckets))
    return key_of(_NODE_KINDS[key[0]], key[1])


def _key_bits(key: Key, bits: int) -> int:
    """The key's bits in a hardware read signature of `bits` bits."""
    return key_mask(hw_key(key), bits)


def _signature(keys: frozenset[Key], bits: int) -> int:
    # Lock counts stay out of signatures (see maybe_read below).
    sig = 0
    for k in keys:
        if k[0] != "lock":
            sig |= _key_bits(k, bits)
    return sig


@dataclass
class Window:
    k: int
    lock_barrier: bool
    commands: Counter[str] = field(default_factory=Counter)  # by op (barriers included)
    conflicted: Counter[str] = field(default_factory=Counter)  # by op, exact sets
    flagged: Counter[str] = field(default_factory=Counter)  # by op, Bloom signatures
    kinds: Counter[str] = field(default_factory=Counter)  # the earlier write's kind
    pairs: Counter[tuple[str, str]] = field(default_factory=Counter)  # (earlier, this) op
    occupancy: int = 0  # sum over walks of the commands in flight with it, itself included

    def rate(self, ops: Sequence[str], counter: Counter[str] | None = None) -> float:
        n = sum(self.commands[o] for o in ops)
        return sum((counter or self.conflicted)[o] for o in ops) / n if n else 0.0


def study(trace: Sequence[Access], k: int, lock_barrier: bool = True,
          signature_bits: int = 256) -> Window:
    """Each command against the (at most K-1) earlier ones since the last barrier."""
    w = Window(k, lock_barrier)
    inflight: deque[Access] = deque(maxlen=max(k - 1, 0))
    barriers = {"EVICT", "RESET"} | ({"LOCK", "UNLOCK"} if lock_barrier else set())
    sigs: dict[int, int] = {}

    def sig(keys: frozenset[Key]) -> int:
        return sigs.setdefault(id(keys), _signature(keys, signature_bits))

    def maybe_read(reads: frozenset[Key], writes: frozenset[Key]) -> bool:
        # Bloom membership: a written key may have been read when all its bits are set in
        # the reader's signature. Lock counts stay out: a walk reads one only when it
        # splits, and that one node id is compared exactly.
        rs = sig(reads)
        return any(rs & (m := _key_bits(x, signature_bits)) == m
                   for x in writes if x[0] != "lock")

    for acc in trace:
        w.commands[acc.op] += 1
        if acc.op in barriers:
            inflight.clear()  # a barrier waits for every earlier command, later ones for it
            continue
        exact = flagged = False
        if acc.op in WALKS:
            w.occupancy += len(inflight) + 1
        for earlier in inflight:
            common = acc.reads & earlier.writes
            if common:
                exact = True
                w.pairs[(earlier.op, acc.op)] += 1
                w.kinds.update(earlier.kinds.get(key, "?") for key in common)
            flagged = flagged or bool(common) or maybe_read(acc.reads, earlier.writes)
        w.conflicted[acc.op] += exact
        w.flagged[acc.op] += flagged
        if k > 1:
            inflight.append(acc)
    return w


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--workload", default="ecommerce_qa", choices=sorted(WORKLOADS))
    ap.add_argument("--requests", type=int, default=1200)
    ap.add_argument("--batch", type=int, default=8)
    ap.add_argument("--capacity", type=int, default=1 << 15, help="KV slots (tokens)")
    ap.add_argument("--signature-bits", type=int, default=256)
    args = ap.parse_args(argv)
    trace = batched_trace(WORKLOADS[args.workload](seed=1, requests=args.requests),
                          batch=args.batch, capacity_tokens=args.capacity)
    ops = Counter(a.op for a in trace)
    print(f"{args.workload}, {args.requests} requests, scheduler batches of {args.batch}, "
          f"{args.capacity} KV slots: " + ", ".join(f"{n} {op}" for op, n in sorted(ops.items())))
    print(f"| K | LOCK/UNLOCK | mean walks in flight | walks in conflict (exact) | walks flagged "
          f"({args.signature_bits}-bit signature) | LOCK/UNLOCK in conflict | by kind |")
    print("|---|---|---|---|---|---|---|")
    for lock_barrier in (True, False):
        for k in (1, 2, 4, 8):
            w = study(trace, k, lock_barrier, args.signature_bits)
            kinds = ", ".join(f"{kind} {n}" for kind, n in w.kinds.most_common()) or "-"
            locks = "barrier" if lock_barrier else f"{100 * w.rate(('LOCK', 'UNLOCK')):.1f} %"
            walks = sum(w.commands[o] for o in WALKS)
            print(f"| {k} | {'barrier' if lock_barrier else 'tracked'} | "
                  f"{w.occupancy / walks:.2f} | {100 * w.rate(WALKS):.1f} % | "
                  f"{100 * w.rate(WALKS, w.flagged):.1f} % | "
                  f"{locks} | {kinds} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
