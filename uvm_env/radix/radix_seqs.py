# SPDX-License-Identifier: Apache-2.0
"""Sequences for the radix controller. They may consult the predictor's model to
choose stimulus (as a UVM sequence reads a register mirror); they never check."""

from __future__ import annotations

import random

from pyuvm import uvm_sequence

from models import workloads
from uvm_env.common.checkpoints import Checkpoints
from uvm_env.radix.protocol import (
    OP_EVICT,
    OP_INSERT,
    OP_LOCK,
    OP_MATCH,
    OP_RESET,
    OP_SIZES,
    OP_UNLOCK,
    ST_OK,
)
from uvm_env.radix.radix_item import RadixCmd
from uvm_env.radix.radix_predictor import RESERVED_SHIFT, SLOT_MASK, RadixPredictor


class OneCmdSeq(uvm_sequence):
    """One given command, for a test that must place it exactly (a RESET mid-traffic,
    a command between CSR reads)."""

    def __init__(self, cmd: RadixCmd) -> None:
        super().__init__("one")
        self.cmd = cmd

    async def body(self) -> None:
        await self.start_item(self.cmd)
        await self.finish_item(self.cmd)


class RadixBaseSeq(uvm_sequence):
    def __init__(self, name: str, pred: RadixPredictor, rng: random.Random) -> None:
        super().__init__(name)
        self.pred, self.rng = pred, rng
        self.next_kv = rng.randrange(1 << 20)
        self.stopping = False   # set by a test that resets the DUT: issue nothing more
        self.checkpoints: Checkpoints | None = None   # CSR snapshots during traffic

    def stop(self) -> None:
        self.stopping = True

    async def do(self, wait: bool = False, **kw: object) -> RadixCmd:
        """Send one command; with wait, return only once its response is checked in."""
        cmd = RadixCmd(**kw)
        await self.start_item(cmd)
        await self.finish_item(cmd)
        if wait:
            await cmd.done.wait()
        return cmd

    def fresh_kvs(self, n: int) -> list[int]:
        kvs = [(self.next_kv + i) & 0xFFFF_FFFF for i in range(n)]
        self.next_kv += n
        return kvs

    async def make_room(self, tokens: list[int], ns: int) -> None:
        """Evict as the SGLang scheduler does when the pool is short."""
        nodes, slots = self.pred.model.insert_cost(tokens, ns)
        short = max(slots - self.pred.free_slots(), 0)
        if nodes > self.pred.free_nodes():
            short = max(short, 1)
        plan = self.pred.model.walk_plan(tokens, ns)
        if not short and not self.pred.hw.fits(self.pred.model, plan, ns, True):
            short = 1   # the child index is full where this key hashes
        if short:
            await self.do(op=OP_EVICT, arg=short)


class WorkloadSeq(RadixBaseSeq):
    """Scheduler flow per request of a models.workloads trace: match (capped at
    len-1), lock, make room, insert, unlock, and look the sequence up again."""

    def __init__(self, name: str, pred: RadixPredictor, rng: random.Random,
                 workload: str, requests: int) -> None:
        super().__init__(name, pred, rng)
        self.trace = workloads.WORKLOADS[workload](seed=rng.randrange(1 << 16),
                                                   requests=requests)

    async def body(self) -> None:
        max_len, num_ns = self.pred.p.max_len, self.pred.p.num_ns
        for i, req in enumerate(self.trace):
            tokens = [int(t) for t in req.tokens[:max_len]]
            ns = req.namespace % num_ns
            prompt = tokens[:max(1, min(len(req.prompt), max_len) - 1)]
            hit = await self.do(op=OP_MATCH, ns=ns, tokens=prompt, wait=True)
            handle = hit.rsp.b if hit.rsp.status == ST_OK else None
            if handle is not None:
                await self.do(op=OP_LOCK, arg=handle)
            await self.make_room(tokens, ns)
            await self.do(op=OP_INSERT, ns=ns, tokens=tokens, kvs=self.fresh_kvs(len(tokens)))
            if handle is not None:
                await self.do(op=OP_UNLOCK, arg=handle)
            await self.do(op=OP_MATCH, ns=ns, tokens=tokens)
            if i % 8 == 0:
                await self.do(op=OP_SIZES)


class RandomOpsSeq(RadixBaseSeq):
    """Constrained-random commands over a small alphabet, so keys share prefixes
    and splits land at every offset; `p_error` of them are malformed on purpose."""

    def __init__(self, name: str, pred: RadixPredictor, rng: random.Random, n_ops: int,
                 weights: dict[str, float], p_error: float = 0.0, alphabet: int = 4,
                 max_tokens: int = 40, namespaces: int = 2, p_long: float = 0.0) -> None:
        super().__init__(name, pred, rng)
        self.n_ops, self.weights, self.p_error = n_ops, weights, p_error
        self.alphabet, self.max_tokens, self.namespaces = alphabet, max_tokens, namespaces
        self.p_long = p_long   # share of keys drawn up to MaxLen, which exhaust the lines
        self.keys: list[list[int]] = []
        self.locked: list[int] = []

    def key(self) -> list[int]:
        rng = self.rng
        base: list[int] = []
        if self.keys and rng.random() < 0.7:
            src = rng.choice(self.keys)
            base = src[:rng.randint(0, len(src))]
        limit = self.max_tokens
        if rng.random() < self.p_long:
            limit = self.pred.p.max_len
        extra = rng.randint(0 if base else 1, limit)
        out = base + [rng.randrange(self.alphabet) for _ in range(extra)]
        return out[:min(limit, self.pred.p.max_len)] or [0]

    async def body(self) -> None:
        rng, ops = self.rng, list(self.weights)
        weights = list(self.weights.values())
        for _ in range(self.n_ops):
            if self.stopping:
                return
            if rng.random() < self.p_error:
                await self.malformed()
                if self.checkpoints is not None:
                    await self.checkpoints.after_op(refusal=True)
                continue
            ns = rng.randrange(min(self.namespaces, self.pred.p.num_ns))
            kind = rng.choices(ops, weights)[0]
            if kind == "match":
                await self.do(op=OP_MATCH, ns=ns, tokens=self.key())
            elif kind == "insert":
                tokens = self.key()
                self.keys.append(tokens)
                if rng.random() < 0.8:
                    await self.make_room(tokens, ns)
                await self.do(op=OP_INSERT, ns=ns, tokens=tokens, kvs=self.fresh_kvs(len(tokens)))
            elif kind == "lock" and self.pred.live_handles():
                handle = rng.choice(self.pred.live_handles())
                if (await self.do(op=OP_LOCK, arg=handle, wait=True)).ok():
                    self.locked.append(handle)
            elif kind == "unlock" and self.locked:
                handle = self.locked.pop(rng.randrange(len(self.locked)))
                await self.do(op=OP_UNLOCK, arg=handle)
            elif kind == "evict":
                await self.do(op=OP_EVICT, arg=rng.choice([0, 1, rng.randint(1, 64)]))
            elif kind == "reset":
                await self.do(op=OP_RESET)
                self.locked.clear()   # every handle died with the tree
            else:
                await self.do(op=OP_SIZES)
            if self.checkpoints is not None:
                await self.checkpoints.after_op()
        while self.locked and not self.stopping:   # balance every lock so the tree ends evictable
            await self.do(op=OP_UNLOCK, arg=self.locked.pop())

    def out_of_range_handle(self) -> int:
        """A handle no node can have: reserved top bits set, or a slot at or past
        NodeCap. Most are a live handle (the root's half the time, when known) changed
        in one field only, so that one check alone refuses it: NodeCap added to its slot
        names the live node in the slot's low bits (exactly the root at slot NodeCap),
        and a nonzero top nibble (bits 31:28, reserved) leaves slot and generation
        intact."""
        rng, p = self.rng, self.pred.p
        live = self.pred.live_handles()
        handle = None
        if live and rng.random() >= 0.3:
            roots = [h for h in live if h & SLOT_MASK == 0]
            handle = rng.choice(roots) if roots and rng.random() < 0.5 else rng.choice(live)
        if handle is not None and rng.random() < 0.5:
            return handle | rng.randrange(1, 16) << RESERVED_SHIFT
        # The slot field must not carry into the generation bits.
        if handle is not None and (handle & SLOT_MASK) + p.node_cap <= SLOT_MASK:
            return handle + p.node_cap
        return 0xFF00_0000 | rng.getrandbits(16)

    async def malformed(self) -> None:
        """One command of each refusal class, chosen at random."""
        rng, p = self.rng, self.pred.p
        tokens = self.key()
        kind = rng.randrange(9)
        if kind == 0:
            await self.do(op=rng.choice([0x00, 0x08, 0x7F, 0xFF]))
        elif kind == 1:
            await self.do(op=rng.choice([OP_MATCH, OP_INSERT]), arg=rng.choice([0, p.max_len + 1]))
        elif kind == 2:
            op = rng.choice([OP_MATCH, OP_INSERT])
            await self.do(op=op, ns=rng.randrange(p.num_ns, 256), tokens=tokens,
                          kvs=self.fresh_kvs(len(tokens)) if op == OP_INSERT else [])
        elif kind == 3:
            await self.do(op=OP_INSERT, tokens=tokens, kvs=self.fresh_kvs(len(tokens)),
                          kvcnt=len(tokens) + rng.choice([-1, 1]))
        elif kind == 4:
            await self.do(op=rng.choice([OP_MATCH, OP_INSERT]), tokens=tokens,
                          kvs=self.fresh_kvs(len(tokens)), beats_delta=rng.choice([-1, 1, 2]))
        elif kind == 5:
            await self.do(op=rng.choice([OP_EVICT, OP_SIZES, OP_LOCK, OP_UNLOCK, OP_RESET]),
                          beats_delta=1)
        elif kind == 6 and self.pred.surely_dead_handles():
            # Only handles whose generation cannot have wrapped: after 256 generations a
            # handle names its slot's node again, as docs/radix-protocol.md allows.
            await self.do(op=rng.choice([OP_LOCK, OP_UNLOCK]),
                          arg=rng.choice(sorted(self.pred.surely_dead_handles())))
        elif kind == 7:
            await self.do(op=rng.choice([OP_LOCK, OP_UNLOCK]), arg=self.out_of_range_handle())
        elif self.pred.live_handles():
            # Unlock without a lock: refused if any node on the path is unlocked.
            await self.do(op=OP_UNLOCK, arg=rng.choice(self.pred.live_handles()))
