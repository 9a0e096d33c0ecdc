# SPDX-License-Identifier: Apache-2.0
"""Golden model of SGLang 0.5.23's ``RadixCache`` (mem_cache/radix_cache.py), LRU policy.

The RTL radix controller is scoreboarded against this class transaction by transaction, so it
copies SGLang's observable behaviour exactly: split points, which nodes get stamped, the eviction
order and the size accounting. ``time.monotonic()`` is replaced by a logical clock so that the
order of every stamp is exact and replayable. docs/radix-model.md lists each decision.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass

import numpy as np

__all__ = ["MatchResult", "Node", "NodeInfo", "RadixCache", "RadixStats", "TOKEN_LIMIT", "WalkPlan"]

TOKEN_LIMIT = 1 << 32  # tokens and namespaces are 32-bit unsigned in the hardware
_TOK_BYTES = 4  # keys are stored as uint32 bytes: hashing and memcmp run in C
_EMPTY = np.empty(0, dtype=np.int64)


@dataclass
class RadixStats:
    """Running counters. ``queried_tokens`` counts the *raw* request length, so the unaligned
    tail of a paged lookup counts as a miss and ``hit_rate`` cannot be inflated by page size."""

    lookups: int = 0
    queried_tokens: int = 0
    hit_tokens: int = 0
    inserts: int = 0
    inserted_tokens: int = 0
    splits: int = 0
    evicted_nodes: int = 0
    evicted_tokens: int = 0

    @property
    def hit_rate(self) -> float:
        return self.hit_tokens / self.queried_tokens if self.queried_tokens else 0.0


class Node:
    """Opaque handle to a tree node. Use ``RadixCache.node_id`` / ``node_info`` to look inside."""

    __slots__ = (
        "kb",
        "value",
        "children",
        "parent",
        "lock_ref",
        "last_access",
        "nid",
        "ns",
        "owner",
        "alive",
    )

    def __init__(
        self,
        nid: int,
        ns: int,
        kb: bytes,
        value: np.ndarray,
        parent: Node | None,
        lock_ref: int,
        stamp: int,
        owner: object,
    ) -> None:
        self.kb = kb  # edge tokens as uint32 bytes
        self.value = value  # int64 KV index per token; never written in place (slices share)
        self.children: dict[tuple[int, bytes], Node] = {}
        self.parent = parent
        self.lock_ref = lock_ref
        self.last_access = stamp
        self.nid = nid
        self.ns = ns
        self.owner = owner  # the cache epoch that created it; reset() orphans old handles
        self.alive = True

    def __repr__(self) -> str:
        state = "" if self.alive else " dead"
        return f"<radix Node #{self.nid} len={len(self.value)} lock={self.lock_ref}{state}>"


@dataclass(frozen=True)
class MatchResult:
    length: int
    kv_indices: np.ndarray  # int64, a fresh copy (len == length)
    node: Node  # last matched node; the root when nothing matched


@dataclass(frozen=True)
class WalkPlan:
    """What a match/insert of a key would do, from ``RadixCache.walk_plan`` (pure)."""

    n: int  # page-aligned key length
    pos: int  # tokens already present (the match length)
    split: int  # tokens into the last edge where it would be split; 0 = no split
    tail_page: tuple[int, ...]  # first page of the split tail (() without a split)
    leaf_parent: int  # node id a new leaf would hang under when there is no split
    leaf_page: tuple[int, ...]  # first page of a new leaf (() when nothing is left)


@dataclass(frozen=True)
class NodeInfo:
    node_id: int
    namespace: int
    key: tuple[int, ...]
    value: tuple[int, ...]
    lock_ref: int
    last_access: int
    parent_id: int | None
    child_ids: tuple[int, ...]


class RadixCache:
    """Radix tree of token sequences -> KV indices, paged, with namespaces and LRU eviction."""

    def __init__(self, page_size: int = 1) -> None:
        if (
            isinstance(page_size, bool)
            or not isinstance(page_size, int | np.integer)
            or page_size < 1
            or page_size & (page_size - 1)
        ):
            raise ValueError(f"page_size must be a power of two >= 1, got {page_size!r}")
        self.page_size = int(page_size)
        self._page_bytes = self.page_size * _TOK_BYTES
        self.reset()

    # ----------------------------------------------------------------------------- public API

    def reset(self) -> None:
        """Empty the tree and restart clock, node ids and stats, as a fresh cache would be."""
        self._epoch = object()
        self._clock = 0
        self._next_id = 0
        # SGLang's root: empty key, lock_ref 1 so it is never evictable. Its creation is not a
        # tick: a fresh cache's first operation takes stamp 1.
        self.root = self._new_node(0, b"", _EMPTY, None, 1, stamp=0)
        self._evictable = 0
        self._protected = 0
        self._num_nodes = 0
        self._leaves: set[Node] = set()  # SGLang's evictable_leaves: lock_ref 0, no children
        self.stats = RadixStats()
        self.last_evicted: list[int] = []  # node ids freed by the latest evict(), in order
        # What the latest match_prefix/insert created, for storage mirrors (models/radix_hw.py):
        # (upper, child, k) of a split, and a new leaf. They change nothing in the semantics.
        self.last_split: tuple[Node, Node, int] | None = None
        self.last_leaf: Node | None = None

    def match_prefix(self, tokens: object, namespace: int = 0) -> MatchResult:
        """Longest cached page-aligned prefix. Splits the node the match ends inside of."""
        q = _as_array(tokens, "tokens", np.uint32, TOKEN_LIMIT)
        ns = _check_int(namespace, "namespace", TOKEN_LIMIT)
        n = len(q) - len(q) % self.page_size
        self.last_split = self.last_leaf = None
        st = self.stats
        st.lookups += 1
        st.queried_tokens += len(q)
        if n == 0:
            # SGLang returns before _match_prefix_helper: no stamp is taken, root untouched.
            return MatchResult(0, _EMPTY.copy(), self.root)
        visited, pos, split = self._walk(q.tobytes(), n, ns)
        stamp = self._tick()
        self.root.last_access = stamp
        for x in visited:
            x.last_access = stamp
        node = visited[-1] if visited else self.root
        if split:
            node = self._split(node, split)
            values = [x.value for x in visited[:-1]]
            values.append(node.value)
        else:
            values = [x.value for x in visited]
        st.hit_tokens += pos
        kv = np.concatenate(values) if values else _EMPTY.copy()
        return MatchResult(pos, kv, node)

    def insert(self, tokens: object, kv_indices: object, namespace: int = 0) -> int:
        """Insert tokens -> kv_indices; returns the page-aligned length already present, whose
        existing values are kept (the caller frees its own duplicates)."""
        q = _as_array(tokens, "tokens", np.uint32, TOKEN_LIMIT)
        v = _as_array(kv_indices, "kv_indices", np.int64, None)
        if len(v) != len(q):
            raise ValueError(f"kv_indices length {len(v)} != tokens length {len(q)}")
        ns = _check_int(namespace, "namespace", TOKEN_LIMIT)
        n = len(q) - len(q) % self.page_size
        self.last_split = self.last_leaf = None
        self.stats.inserts += 1
        # SGLang's _insert_helper stamps the root before its empty-key check, so even an empty
        # insert takes a stamp (an empty match does not).
        stamp = self._tick()
        self.root.last_access = stamp
        if n == 0:
            return 0
        qb = q.tobytes()
        visited, pos, split = self._walk(qb, n, ns)
        for x in visited:
            x.last_access = stamp
        node = visited[-1] if visited else self.root
        if split:
            node = self._split(node, split)
        if pos < n:
            leaf = self._new_node(
                ns, qb[pos * _TOK_BYTES : n * _TOK_BYTES], v[pos:n], node, 0, stamp=self._tick()
            )
            node.children[(ns, leaf.kb[: self._page_bytes])] = leaf
            self._evictable += n - pos
            self._num_nodes += 1
            self._leaves.discard(node)
            self._leaves.add(leaf)
            self.last_leaf = leaf
            self.stats.inserted_tokens += n - pos
        return pos

    def evict(self, num_tokens: int) -> np.ndarray:
        """Free whole LRU leaves (cascading to parents that become leaves) until at least
        num_tokens are freed or nothing is evictable. Returns freed KV indices in order."""
        want = _check_int(num_tokens, "num_tokens", None)
        self.last_evicted = []
        heap = [(x.last_access, x.nid, x) for x in self._leaves] if want else []
        heapq.heapify(heap)
        freed: list[np.ndarray] = []
        got = 0
        while got < want and heap:
            _, _, x = heapq.heappop(heap)
            size = len(x.value)
            freed.append(x.value)
            got += size
            parent = x.parent
            del parent.children[(x.ns, x.kb[: self._page_bytes])]
            self._leaves.discard(x)
            x.alive = False
            self._evictable -= size
            self._num_nodes -= 1
            self.last_evicted.append(x.nid)
            if not parent.children and parent.lock_ref == 0:
                self._leaves.add(parent)
                heapq.heappush(heap, (parent.last_access, parent.nid, parent))
        self.stats.evicted_nodes += len(freed)
        self.stats.evicted_tokens += got
        return np.concatenate(freed) if freed else _EMPTY.copy()

    def inc_lock_ref(self, node: Node) -> int:
        """Lock node..root (root excluded). Returns the change in evictable tokens (<= 0)."""
        self._check_node(node)
        delta = 0
        root = self.root
        while node is not root:
            if node.lock_ref == 0:
                size = len(node.value)
                self._evictable -= size
                self._protected += size
                delta -= size
                self._leaves.discard(node)
            node.lock_ref += 1
            node = node.parent
        return delta

    def dec_lock_ref(self, node: Node) -> int:
        """Unlock node..root (root excluded). Returns the change in evictable tokens (>= 0)."""
        self._check_node(node)
        root = self.root
        x = node
        while x is not root:  # validate the whole walk first: a refusal must change nothing
            if x.lock_ref < 1:
                raise ValueError(f"dec_lock_ref would take node #{x.nid} below zero")
            x = x.parent
        delta = 0
        while node is not root:
            if node.lock_ref == 1:
                size = len(node.value)
                self._evictable += size
                self._protected -= size
                delta += size
                if not node.children:
                    self._leaves.add(node)
            node.lock_ref -= 1
            node = node.parent
        return delta

    def evictable_size(self) -> int:
        return self._evictable

    def protected_size(self) -> int:
        return self._protected

    def total_size(self) -> int:
        return self._evictable + self._protected

    def num_nodes(self) -> int:
        """Live nodes, root excluded."""
        return self._num_nodes

    @property
    def clock(self) -> int:
        """The latest stamp taken (0 on a fresh cache)."""
        return self._clock

    def node_id(self, node: Node) -> int:
        self._check_node(node)
        return node.nid

    # Pure queries: they change nothing, not even stamps or stats, so a scoreboard can predict
    # what the hardware needs before it commits an operation.

    def match_cost(self, tokens: object, namespace: int = 0) -> int:
        """Nodes a match_prefix would create: 1 if it ends inside an edge (a split), else 0."""
        q = _as_array(tokens, "tokens", np.uint32, TOKEN_LIMIT)
        ns = _check_int(namespace, "namespace", TOKEN_LIMIT)
        n = len(q) - len(q) % self.page_size
        return 1 if n and self._walk(q.tobytes(), n, ns)[2] else 0

    def insert_cost(self, tokens: object, namespace: int = 0) -> tuple[int, int]:
        """(new nodes, new token slots) an insert would need; a split is one node, no slots."""
        q = _as_array(tokens, "tokens", np.uint32, TOKEN_LIMIT)
        ns = _check_int(namespace, "namespace", TOKEN_LIMIT)
        n = len(q) - len(q) % self.page_size
        if n == 0:
            return 0, 0
        _, pos, split = self._walk(q.tobytes(), n, ns)
        return (1 if split else 0) + (1 if pos < n else 0), n - pos

    def peek_prefix(self, tokens: object, namespace: int = 0) -> tuple[int, np.ndarray]:
        """(length, kv_indices) that match_prefix would return, without any side effect."""
        q = _as_array(tokens, "tokens", np.uint32, TOKEN_LIMIT)
        ns = _check_int(namespace, "namespace", TOKEN_LIMIT)
        n = len(q) - len(q) % self.page_size
        if n == 0:
            return 0, _EMPTY.copy()
        visited, pos, split = self._walk(q.tobytes(), n, ns)
        values = [x.value for x in visited]
        if split:
            values[-1] = values[-1][:split]
        return pos, (np.concatenate(values) if values else _EMPTY.copy())

    def walk_plan(self, tokens: object, namespace: int = 0) -> WalkPlan:
        """Where a match/insert of `tokens` would end, split and add a leaf (pure)."""
        q = _as_array(tokens, "tokens", np.uint32, TOKEN_LIMIT)
        ns = _check_int(namespace, "namespace", TOKEN_LIMIT)
        n = len(q) - len(q) % self.page_size
        if n == 0:
            return WalkPlan(0, 0, 0, (), 0, ())
        visited, pos, split = self._walk(q.tobytes(), n, ns)
        p = self.page_size
        tail: tuple[int, ...] = ()
        parent = visited[-1].nid if visited else self.root.nid
        if split:
            edge = np.frombuffer(visited[-1].kb, np.uint32)
            tail = tuple(int(t) for t in edge[split : split + p])
            parent = -1  # the new upper node
        leaf = tuple(int(t) for t in q[pos : pos + p]) if pos < n else ()
        return WalkPlan(n, pos, split, tail, parent, leaf)

    def path_nodes(self, tokens: object, namespace: int = 0) -> list[Node]:
        """The nodes a match/insert of `tokens` would enter, root excluded (pure)."""
        q = _as_array(tokens, "tokens", np.uint32, TOKEN_LIMIT)
        ns = _check_int(namespace, "namespace", TOKEN_LIMIT)
        n = len(q) - len(q) % self.page_size
        return self._walk(q.tobytes(), n, ns)[0] if n else []

    def split_point(self, tokens: object, namespace: int = 0) -> int:
        """Tokens into the last edge at which a match/insert of `tokens` would split it;
        0 when it would not split (pure)."""
        q = _as_array(tokens, "tokens", np.uint32, TOKEN_LIMIT)
        ns = _check_int(namespace, "namespace", TOKEN_LIMIT)
        n = len(q) - len(q) % self.page_size
        return self._walk(q.tobytes(), n, ns)[2] if n else 0

    def locate(self, tokens: object, namespace: int = 0) -> Node | None:
        """The node whose root path spells exactly the page-aligned key, or None (pure).

        Right after insert(tokens) this is the node the insert ended on, which the
        hardware returns as the insert's handle."""
        q = _as_array(tokens, "tokens", np.uint32, TOKEN_LIMIT)
        ns = _check_int(namespace, "namespace", TOKEN_LIMIT)
        n = len(q) - len(q) % self.page_size
        if n == 0:
            return self.root
        visited, pos, split = self._walk(q.tobytes(), n, ns)
        return visited[-1] if visited and pos == n and not split else None

    def leaf_order(self) -> list[int]:
        """Ids of the current eviction candidates in the order evict() pops them (before any
        cascade adds parents)."""
        return [x.nid for x in sorted(self._leaves, key=lambda x: (x.last_access, x.nid))]

    def node_info(self, node: Node) -> NodeInfo:
        self._check_node(node)
        return NodeInfo(
            node_id=node.nid,
            namespace=node.ns,
            key=tuple(np.frombuffer(node.kb, dtype=np.uint32).tolist()),
            value=tuple(node.value.tolist()),
            lock_ref=node.lock_ref,
            last_access=node.last_access,
            parent_id=None if node.parent is None else node.parent.nid,
            child_ids=tuple(c.nid for c in self._sorted_children(node)),
        )

    def nodes(self) -> list[NodeInfo]:
        """Every live node, root first, depth-first with children in key order."""
        return [self.node_info(x) for _, x in self._dfs()]

    def dump(self, max_tokens: int | None = 8) -> str:
        """Whole state as text (max_tokens=None: every token), for debugging a failing seed and
        for before/after snapshots."""
        st = self.stats
        lines = [
            f"RadixCache page_size={self.page_size} clock={self._clock} next_id={self._next_id} "
            f"nodes={self._num_nodes} evictable={self._evictable} protected={self._protected}",
            f"  stats {st}",
            f"  leaf_order {self.leaf_order()}",
        ]
        for depth, x in self._dfs():
            lines.append("  " * (depth + 1) + _fmt_node(self.node_info(x), max_tokens))
        return "\n".join(lines)

    def pretty_print(self, max_tokens: int | None = 8) -> None:
        print(self.dump(max_tokens))

    # ------------------------------------------------------------------------------- helpers

    def _tick(self) -> int:
        self._clock += 1
        return self._clock

    def _new_node(
        self, ns: int, kb: bytes, value: np.ndarray, parent: Node | None, lock_ref: int, stamp: int
    ) -> Node:
        node = Node(self._next_id, ns, kb, value, parent, lock_ref, stamp, self._epoch)
        self._next_id += 1
        return node

    def _walk(self, qb: bytes, n: int, ns: int) -> tuple[list[Node], int, int]:
        """Pure descent shared by match, insert and the cost queries, so they cannot disagree.

        Returns (visited nodes, matched tokens, split) where split > 0 means the match ends
        ``split`` tokens into the last visited node (always a whole number of pages)."""
        pb = self._page_bytes
        end = n * _TOK_BYTES
        node = self.root
        bpos = 0
        visited: list[Node] = []
        while bpos < end:
            child = node.children.get((ns, qb[bpos : bpos + pb]))
            if child is None:
                break
            visited.append(child)
            kb = child.kb
            klen = len(kb)
            if klen <= end - bpos and qb[bpos : bpos + klen] == kb:
                bpos += klen
                node = child
                continue
            # Ends inside this edge: first differing token, rounded down to a page boundary.
            m = min(klen, end - bpos) // _TOK_BYTES
            neq = np.frombuffer(kb, np.uint32, m) != np.frombuffer(qb, np.uint32, m, offset=bpos)
            i = int(neq.argmax()) if neq.any() else m
            split = i - i % self.page_size
            return visited, bpos // _TOK_BYTES + split, split
        return visited, bpos // _TOK_BYTES, 0

    def _split(self, child: Node, k: int) -> Node:
        """New upper node takes child's first k tokens; child keeps the tail and its identity.
        The upper node is created now, so it takes a fresh stamp newer than the child's."""
        parent = child.parent
        assert parent is not None and 0 < k < len(child.value)
        cut = k * _TOK_BYTES
        upper = self._new_node(
            child.ns, child.kb[:cut], child.value[:k], parent, child.lock_ref, stamp=self._tick()
        )
        parent.children[(child.ns, child.kb[: self._page_bytes])] = upper
        child.kb = child.kb[cut:]
        child.value = child.value[k:]
        child.parent = upper
        upper.children[(child.ns, child.kb[: self._page_bytes])] = child
        self._num_nodes += 1
        self.stats.splits += 1
        self.last_split = (upper, child, k)
        return upper

    def _check_node(self, node: object) -> None:
        if not isinstance(node, Node):
            raise ValueError(f"expected a radix Node handle, got {type(node).__name__}")
        if node.owner is not self._epoch:
            raise ValueError(f"node #{node.nid} belongs to another cache (or predates reset())")
        if not node.alive:
            raise ValueError(f"node #{node.nid} is dead (evicted)")

    def _dfs(self) -> list[tuple[int, Node]]:
        out: list[tuple[int, Node]] = []
        stack = [(0, self.root)]
        while stack:
            depth, x = stack.pop()
            out.append((depth, x))
            stack.extend((depth + 1, c) for c in reversed(self._sorted_children(x)))
        return out

    def _sorted_children(self, node: Node) -> list[Node]:
        pb = self._page_bytes
        return sorted(
            node.children.values(),
            key=lambda c: (c.ns, np.frombuffer(c.kb[:pb], np.uint32).tolist()),
        )


def _as_array(x: object, what: str, dtype: type, limit: int | None) -> np.ndarray:
    """Validate a 1-D sequence of non-negative integers (< limit) and return a copy as dtype.
    Raises ValueError before anything is touched."""
    if isinstance(x, np.ndarray):
        a = x
    elif isinstance(x, list | tuple | range):
        try:
            a = np.asarray(x)
        except (OverflowError, ValueError, TypeError) as exc:
            raise ValueError(f"{what} must be integers: {exc}") from None
    else:
        raise ValueError(f"{what} must be a list, tuple or numpy array, got {type(x).__name__}")
    if a.ndim != 1:
        raise ValueError(f"{what} must be 1-D, got shape {a.shape}")
    if a.size == 0:
        return np.empty(0, dtype=dtype)
    if a.dtype.kind not in "iu":
        raise ValueError(f"{what} must be integers, got dtype {a.dtype}")
    if a.min() < 0:
        raise ValueError(f"{what} must be >= 0, got {a.min()}")
    if limit is not None and a.max() >= limit:
        raise ValueError(f"{what} must be < {limit}, got {a.max()}")
    if a.dtype == np.uint64 and a.max() > np.iinfo(np.int64).max:
        raise ValueError(f"{what} must fit int64, got {a.max()}")
    return a.astype(dtype)  # always a copy: the tree must never alias caller memory


def _check_int(x: object, what: str, limit: int | None) -> int:
    if isinstance(x, bool | np.bool_) or not isinstance(x, int | np.integer):
        raise ValueError(f"{what} must be an integer, got {type(x).__name__}")
    if x < 0 or (limit is not None and x >= limit):
        bound = f" and < {limit}" if limit is not None else ""
        raise ValueError(f"{what} must be >= 0{bound}, got {x}")
    return int(x)


def _fmt_node(info: NodeInfo, max_tokens: int | None) -> str:
    def cut(seq: tuple[int, ...]) -> str:
        if max_tokens is None or len(seq) <= max_tokens:
            return str(list(seq))
        return str(list(seq[:max_tokens]))[:-1] + ", ...]"

    if info.parent_id is None:
        return f"#{info.node_id} root t={info.last_access}"
    return (
        f"#{info.node_id} ns={info.namespace} len={len(info.key)} lock={info.lock_ref} "
        f"t={info.last_access} key={cut(info.key)} kv={cut(info.value)}"
    )


if __name__ == "__main__":
    demo = RadixCache()
    demo.insert([1, 2, 3], [10, 11, 12])
    demo.insert([1, 2, 4, 5], [10, 11, 20, 21])
    demo.insert([8, 9, 10, 11, 12], [30, 31, 32, 33, 34])
    hit = demo.match_prefix([1, 2, 4, 5, 6])
    print(f"match -> length {hit.length}, kv {hit.kv_indices.tolist()}")
    demo.pretty_print()
