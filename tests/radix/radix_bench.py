# SPDX-License-Identifier: Apache-2.0
"""radix_bench: cycle counts per command on the anchor workload and on the workloads.

Checked like every other radix test (the scoreboard still compares each
response); in addition it writes bench.json for `make bench`, and holds the
counts to the documented cycle model (uvm_env/radix/cycle_model.py): the
headline bounds and a bound on every MATCH's walk. Cycle counts are exact for
a design and seed, so these are structural checks, not timing tests.
"""

from __future__ import annotations

import json
import random

import pyuvm
from cocotb.triggers import ClockCycles

from uvm_env.common.config import env_int
from uvm_env.radix import cycle_model
from uvm_env.radix.in_flight_monitor import BINS
from uvm_env.radix.protocol import OP_EVICT, OP_INSERT, OP_MATCH, ST_OK
from uvm_env.radix.radix_base_test import RadixBaseTest
from uvm_env.radix.radix_seqs import RadixBaseSeq, WorkloadSeq

N_PROMPTS, PROMPT_LEN, UNIQUE_LEN = 16, 512, 64


class AnchorSeq(RadixBaseSeq):
    """The anchor: 16 shared 512-token system prompts, 64 unique tokens per request."""

    def __init__(self, name: str, test: RadixBenchTest, rng: random.Random) -> None:
        super().__init__(name, test.env.scoreboard.pred, rng)
        self.test = test

    async def body(self) -> None:
        rng = self.rng
        prompts = [[rng.randrange(32000) for _ in range(PROMPT_LEN)] for _ in range(N_PROMPTS)]
        requests = []
        for i in range(env_int("N_REQUESTS", 40)):
            toks = prompts[i % N_PROMPTS] + [rng.randrange(32000) for _ in range(UNIQUE_LEN)]
            requests.append(toks)
            await self.make_room(toks, 0)
            await self.test.record("anchor", await self.do(op=OP_INSERT, tokens=toks,
                                                         kvs=self.fresh_kvs(len(toks)),
                                                         wait=True))
        for toks in requests:
            await self.test.record("anchor", await self.do(op=OP_MATCH, tokens=toks, wait=True))
        await self.stream(requests)
        await self.test.record("anchor", await self.do(op=OP_EVICT, arg=4096, wait=True))
        # Compare rate on one long edge: a whole 1024-token edge against the first 512
        # tokens of another (which splits it): both walks enter exactly one node.
        for length in (1024, 512):
            key = [rng.randrange(32000) for _ in range(1024)]
            await self.make_room(key, 0)
            await self.do(op=OP_INSERT, tokens=key, kvs=self.fresh_kvs(len(key)), wait=True)
            await self.test.record("edge_rate", await self.do(op=OP_MATCH, tokens=key[:length],
                                                            wait=True))

    async def stream(self, requests: list[list[int]]) -> None:
        """The same MATCHes again, back to back: the intake loads each command while the
        one before it runs, so the stream's cycles per command are under the one-at-a-time
        latency. Every command after the first must have been taken in ahead."""
        env = self.test.env
        hist = [f"IN_FLIGHT_HIST{b}" for b in range(BINS)]
        ahead0 = await env.read_csr("INTAKE_AHEAD")
        hist0 = [await env.read_csr(h) for h in hist]
        cmds = [await self.do(op=OP_MATCH, tokens=toks) for toks in requests]
        for cmd in cmds:
            await cmd.done.wait()
        await ClockCycles(self.test.clock, 2)   # the histogram trails by two cycles
        ahead = await env.read_csr("INTAKE_AHEAD") - ahead0
        period = self.test.cfg.clk_period_ns
        self.test.stream = {
            "commands": len(cmds), "tokens": len(requests[0]),
            "cycles": round((cmds[-1].t_done - cmds[0].t_sent) / period),
            "intake_ahead": ahead,
            # cycles with 1, 2, 3-4, 5-8, ... commands in flight during the stream
            "in_flight_hist": [await env.read_csr(h) - h0
                               for h, h0 in zip(hist, hist0, strict=True)]}
        self.test.env.scoreboard.check(
            "INTAKE_AHEAD counts every streamed MATCH after the first",
            len(cmds) - 1 <= ahead <= len(cmds), f"{ahead} of {len(cmds)}")


@pyuvm.test()
class RadixBenchTest(RadixBaseTest):
    def make_config(self):  # noqa: ANN201 - same type as the base
        return self.bench_config(4)

    async def body(self) -> None:
        self.records: list[dict] = []
        self.stream: dict = {}
        # The first command would otherwise also time the free-list layout after reset.
        while not (await self.env.read_csr("STATUS")) & 2:
            await ClockCycles(self.clock, 64)
        await AnchorSeq("anchor", self, self.cfg.child_rng("anchor")).start(self.env.seqr)
        for name in ("ecommerce_qa", "multi_turn", "system_prompt"):
            seq = _RecordingWorkloadSeq(name, self, name)
            await seq.start(self.env.seqr)
        bounds = cycle_model.check(self.records, int(self.dut.RamLat.value))
        path = self.cfg.out_dir / "bench.json"
        path.write_text(json.dumps({"clk_period_ns": self.cfg.clk_period_ns,
                                    "params": self.env.params.__dict__,
                                    "records": self.records, "stream": self.stream,
                                    "bounds": bounds.as_dict()}, indent=1))
        self.logger.info(f"{len(self.records)} command timings written to {path}")
        for c in bounds.checks:
            self.logger.info(f"cycle bound {c}")
        await self.check_csrs()
        bounds.verdict()

    async def record(self, workload: str, cmd: object) -> None:
        rsp = cmd.rsp
        if rsp is None or rsp.status != ST_OK or cmd.op not in (OP_MATCH, OP_INSERT, OP_EVICT):
            return
        rec = {"workload": workload, "op": {OP_MATCH: "MATCH", OP_INSERT: "INSERT",
                                            OP_EVICT: "EVICT"}[cmd.op],
               "tokens": len(cmd.tokens), "result": rsp.a,
               "cycles": round((cmd.t_done - cmd.t_sent) / self.cfg.clk_period_ns)}
        if cmd.op == OP_EVICT:
            rec["nodes"] = rsp.b
        if cmd.op in (OP_MATCH, OP_INSERT):
            rec["walk_cycles"] = await self.env.read_csr("WALK_CYCLES")
            rec["walk_nodes"] = await self.env.read_csr("WALK_NODES")
        self.records.append(rec)


class _RecordingWorkloadSeq(WorkloadSeq):
    def __init__(self, name: str, test: RadixBenchTest, workload: str) -> None:
        super().__init__(name, test.env.scoreboard.pred, test.cfg.child_rng(name), workload,
                         requests=env_int("N_REQUESTS", 40))
        self.test, self.workload = test, workload

    async def do(self, wait: bool = True, **kw: object) -> object:
        cmd = await super().do(wait=True, **kw)
        await self.test.record(self.workload, cmd)
        return cmd
