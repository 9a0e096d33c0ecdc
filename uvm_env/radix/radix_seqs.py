# SPDX-License-Identifier: Apache-2.0
"""Sequences for the radix controller. They may consult the predictor's model to
choose stimulus (as a UVM sequence reads a register mirror); they never check."""

from __future__ import annotations

import random

from pyuvm import uvm_sequence

from models import workloads
from uvm_env.radix.protocol import (
    OP_EVICT,
    OP_INSERT,
    OP_LOCK,
    OP_MATCH,
    OP_SIZES,
    OP_UNLOCK,
    ST_OK,
)
from uvm_env.radix.radix_item import RadixCmd
from uvm_env.radix.radix_predictor import RadixPredictor


class RadixBaseSeq(uvm_sequence):
    def __init__(self, name: str, pred: RadixPredictor, rng: random.Random) -> None:
        super().__init__(name)
        self.pred, self.rng = pred, rng
        self.next_kv = rng.randrange(1 << 20)

    async def do(self, **kw: object) -> RadixCmd:
        cmd = RadixCmd(**kw)
        await self.start_item(cmd)
        await self.finish_item(cmd)
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
            hit = await self.do(op=OP_MATCH, ns=ns, tokens=prompt)
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
