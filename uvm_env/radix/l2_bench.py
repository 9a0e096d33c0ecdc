# SPDX-License-Identifier: Apache-2.0
"""The L2 build's benchmark traffic (radix_l2_bench): anchor MATCHes cold and warm, and a
workload replay, each command timed and charged with the L1 and DDR traffic it caused.

Cold: the anchor's 16 prompts are matched in turn, so each MATCH finds its lines pushed
out of the L1 (the L1 holds 1/16 of each table, less than the 16 prompts' lines) by
the 15 prompts before it. Warm: the same MATCH again at once. Every command runs
alone (``wait``), so the CSR deltas around it are its own traffic.
"""

from __future__ import annotations

import random
from typing import Any

from uvm_env.common.config import env_int
from uvm_env.radix.protocol import OP_INSERT, OP_MATCH, ST_OK
from uvm_env.radix.radix_seqs import RadixBaseSeq, WorkloadSeq

N_PROMPTS, PROMPT_LEN, UNIQUE_LEN = 16, 512, 64
TRAFFIC = ("L2_HITS", "L2_MISSES", "L2_RD_BEATS", "L2_WR_BEATS", "L2_STALL_CYCLES",
           "L2_PF_USEFUL", "WALK_NODES")


class L2Recorder:
    """Times a command and reads the traffic CSRs before and after it."""

    def __init__(self, test: Any) -> None:
        self.test, self.records = test, []

    async def _traffic(self) -> dict[str, int]:
        return {n: await self.test.env.read_csr(n) for n in TRAFFIC}

    async def run(self, seq: RadixBaseSeq, phase: str, **kw: object) -> Any:
        before = await self._traffic()
        cmd = await seq.do(wait=True, **kw)
        after = await self._traffic()
        if cmd.rsp is not None and cmd.rsp.status == ST_OK and cmd.op in (OP_MATCH, OP_INSERT):
            rec = {"phase": phase, "op": "MATCH" if cmd.op == OP_MATCH else "INSERT",
                   "tokens": len(cmd.tokens), "result": cmd.rsp.a,
                   "cycles": round((cmd.t_done - cmd.t_sent) / self.test.cfg.clk_period_ns),
                   "walk_nodes": after["WALK_NODES"]}
            for n in TRAFFIC[:-1]:
                rec[n.lower()] = after[n] - before[n]
            self.records.append(rec)
        return cmd


class L2AnchorSeq(RadixBaseSeq):
    def __init__(self, name: str, pred: Any, rng: random.Random, rec: L2Recorder) -> None:
        super().__init__(name, pred, rng)
        self.rec = rec

    async def body(self) -> None:
        rng = self.rng
        prompts = [[rng.randrange(32000) for _ in range(PROMPT_LEN)] for _ in range(N_PROMPTS)]
        requests = [prompts[i % N_PROMPTS] + [rng.randrange(32000) for _ in range(UNIQUE_LEN)]
                    for i in range(env_int("N_REQUESTS", 32))]
        for toks in requests:
            await self.make_room(toks, 0)
            await self.rec.run(self, "insert", op=OP_INSERT, tokens=toks,
                               kvs=self.fresh_kvs(len(toks)))
        for toks in requests:
            await self.rec.run(self, "anchor_cold", op=OP_MATCH, tokens=toks)
            await self.rec.run(self, "anchor_warm", op=OP_MATCH, tokens=toks)


class L2WorkloadSeq(WorkloadSeq):
    """A workload replay with every command timed and charged (WorkloadSeq's flow)."""

    def __init__(self, name: str, pred: Any, rng: random.Random, workload: str,
                 rec: L2Recorder) -> None:
        super().__init__(name, pred, rng, workload, requests=env_int("N_REQUESTS", 32))
        self.rec, self.workload = rec, workload

    async def do(self, wait: bool = True, **kw: object) -> Any:
        if kw.get("op") in (OP_MATCH, OP_INSERT):
            return await self.rec.run(_Plain(self), self.workload, **kw)
        return await super().do(wait=True, **kw)


class _Plain:
    """The workload sequence's own do(), for the recorder (which would recurse)."""

    def __init__(self, seq: L2WorkloadSeq) -> None:
        self.seq = seq

    async def do(self, wait: bool = True, **kw: object) -> Any:
        return await WorkloadSeq.do(self.seq, wait=True, **kw)
