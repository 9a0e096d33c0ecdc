# SPDX-License-Identifier: Apache-2.0
"""The radix controller in process: the golden model (``models.radix_cache``) behind the
controller's refusal rules and its storage (``models.radix_hw``), answering the same
response frames the RTL would (docs/radix-protocol.md).

Handles are computed as the RTL makes them: {generation, slot}, the slot from the storage
mirror's free-slot stack, the generation bumped each time a slot's node is freed."""

from __future__ import annotations

from dataclasses import dataclass

from ..models.radix_cache import Node, RadixCache
from ..models.radix_hw import HwGeometry, RadixHw
from ..wire import M32, RadixCommand, RadixOp, RadixRsp, RadixStatus, handle

LOCK_MAX = 0xFFFF


@dataclass(frozen=True)
class RadixGeometry(HwGeometry):
    """The controller's build parameters: storage (``HwGeometry``) and command limits."""

    max_len: int = 1024
    num_ns: int = 16

    @classmethod
    def from_params(cls, params: dict[str, int]) -> RadixGeometry:
        """From the RTL parameter names (NodeCap, TokenCap, ...); missing ones default."""
        names = {"node_cap": "NodeCap", "token_cap": "TokenCap", "page_size": "PageSize",
                 "hash_buckets": "HashBuckets", "hash_ways": "HashWays",
                 "stash_depth": "StashDepth", "max_len": "MaxLen", "num_ns": "NumNs"}
        return cls(**{k: int(params[v]) for k, v in names.items() if v in params})

    def to_params(self) -> dict[str, int]:
        return {"NodeCap": self.node_cap, "TokenCap": self.token_cap,
                "PageSize": self.page_size, "HashBuckets": self.hash_buckets,
                "HashWays": self.hash_ways, "StashDepth": self.stash_depth,
                "MaxLen": self.max_len, "NumNs": self.num_ns}


class RadixModelBackend:
    """``execute`` takes command frames and returns response frames, like the kernel."""

    def __init__(self, geometry: RadixGeometry) -> None:
        self.geo = geometry
        self.cache = RadixCache(geometry.page_size)
        self.hw = RadixHw(geometry)
        self.gen = [0] * geometry.node_cap
        self.nodes: dict[int, Node] = {}      # live handle -> node

    def execute(self, cmds: list[RadixCommand]) -> list[RadixRsp]:
        return [self._one(c) for c in cmds]

    def close(self) -> None:
        pass

    # ---- one command ----------------------------------------------------------------
    def _one(self, c: RadixCommand) -> RadixRsp:
        status = self._refusal(c)
        if status != RadixStatus.OK:
            return RadixRsp(c.op & 0xFF, status, 0, 0, 0)
        m = self.cache
        if c.op == RadixOp.MATCH:
            r = m.match_prefix(c.tokens, c.ns)
            self.hw.commit(m, c.ns)
            return RadixRsp(c.op, 0, r.length, self._handle(r.node), 0,
                            [int(x) for x in r.kv_indices])
        if c.op == RadixOp.INSERT:
            prefix = m.insert(c.tokens, c.kvs, c.ns)
            self.hw.commit(m, c.ns)
            return RadixRsp(c.op, 0, prefix, self._handle(m.locate(c.tokens, c.ns)), 0)
        if c.op == RadixOp.EVICT:
            freed = [int(x) for x in m.evict(int(c.arg or 0))]
            for nid in m.last_evicted:
                self.gen[self.hw.slot(nid)] += 1
            self.hw.evicted(m.last_evicted)
            self._forget_dead()
            return RadixRsp(c.op, 0, len(freed), len(m.last_evicted), 0, freed)
        if c.op in (RadixOp.LOCK, RadixOp.UNLOCK):
            node = self._node(int(c.arg or 0))
            delta = m.inc_lock_ref(node) if c.op == RadixOp.LOCK else m.dec_lock_ref(node)
            return RadixRsp(c.op, 0, delta & M32, 0, 0)
        if c.op == RadixOp.SIZES:
            return RadixRsp(c.op, 0, m.evictable_size(), m.protected_size(), m.total_size())
        # RESET sweeps the node table, bumping every slot's generation (the root's too),
        # so that no handle from before it is accepted after it.
        self.gen = [g + 1 for g in self.gen]
        m.reset()
        self.hw.reset()
        self.nodes.clear()
        return RadixRsp(c.op, 0, 0, 0, 0)

    def _handle(self, node: Node | None) -> int:
        node = node or self.cache.root
        slot = 0 if node is self.cache.root else self.hw.slot(self.cache.node_id(node))
        h = handle(slot, self.gen[slot])
        self.nodes[h] = node
        return h

    def _node(self, h: int) -> Node | None:
        if h == handle(0, self.gen[0]):
            return self.cache.root     # the root's handle is always valid
        return self.nodes.get(h)

    def _forget_dead(self) -> None:
        self.nodes = {h: n for h, n in self.nodes.items() if n.alive}

    def _refusal(self, c: RadixCommand) -> int:
        """The controller's checks, in its order (docs/radix-protocol.md, status codes)."""
        if c.op not in set(RadixOp):
            return RadixStatus.OPCODE
        if c.op in (RadixOp.MATCH, RadixOp.INSERT):
            n = len(c.tokens) if c.arg is None else c.arg
            if n == 0 or n > self.geo.max_len:
                return RadixStatus.LENGTH
            if c.ns >= self.geo.num_ns:
                return RadixStatus.NAMESPACE
            if c.op == RadixOp.INSERT and len(c.kvs) != n:
                return RadixStatus.KVCOUNT
            plan = self.cache.walk_plan(c.tokens, c.ns)
            fits = self.hw.fits(self.cache, plan, c.ns, c.op == RadixOp.INSERT)
            return RadixStatus.OK if fits else RadixStatus.CAPACITY
        if c.op in (RadixOp.LOCK, RadixOp.UNLOCK):
            node = self._node(int(c.arg or 0))
            if node is None:
                return RadixStatus.HANDLE
            refs = []
            while node is not self.cache.root:
                refs.append(node.lock_ref)
                node = node.parent
            if c.op == RadixOp.UNLOCK and any(r < 1 for r in refs):
                return RadixStatus.UNDERFLOW
            if c.op == RadixOp.LOCK and any(r >= LOCK_MAX for r in refs):
                return RadixStatus.OVERFLOW
        return RadixStatus.OK
