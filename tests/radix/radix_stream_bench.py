# SPDX-License-Identifier: Apache-2.0
"""radix_stream_bench: throughput of commands sent back to back on ecommerce_qa, for
`make bench`'s walks-in-flight table (scripts/bench_radix_overlap.py runs it on the
on-chip and L2 builds, Overlap 0 and 1).

Half the trace's sequences are inserted first, one at a time. Then two streams go out
at the driver's full window with no idles or stalls: every request's prompt MATCHed,
and, for the other half, the scheduler's two walking commands per request (MATCH the
prompt, INSERT the whole sequence); last, LOCKs of the first half's handles between
the other half's MATCHes (the lock traffic). Checked like every radix test (the scoreboard
compares each response with the serial model); cycles are exact simulation counts.
The build is sized so the trace needs no EVICT (a stream cannot make room: the model
lags the commands in flight)."""

from __future__ import annotations

import json
import random
from typing import Any

import pyuvm
from cocotb.triggers import ClockCycles

from models import workloads
from uvm_env.common.config import env_int
from uvm_env.radix.freeze_monitor import FreezeCount
from uvm_env.radix.overlap import COUNTERS
from uvm_env.radix.protocol import OP_INSERT, OP_LOCK, OP_MATCH, OP_UNLOCK
from uvm_env.radix.radix_base_test import RadixBaseTest
from uvm_env.radix.radix_seqs import RadixBaseSeq

WORKLOAD = "ecommerce_qa"


class StreamSeq(RadixBaseSeq):
    def __init__(self, name: str, test: RadixStreamBenchTest, rng: random.Random) -> None:
        super().__init__(name, test.env.scoreboard.pred, rng)
        self.test = test
        self.trace = workloads.WORKLOADS[WORKLOAD](seed=rng.randrange(1 << 16),
                                                   requests=env_int("N_REQUESTS", 32))

    def counters(self) -> dict[str, int]:
        core = self.test.dut.u_core
        if int(self.test.dut.Overlap.value) == 0:
            return {}
        return {name: int(getattr(core, sig).value) for name, sig in COUNTERS.items()}

    async def timed(self, cmds: list[dict[str, Any]]) -> dict[str, Any]:
        """Send ``cmds`` back to back; cycles from the first send to the last answer."""
        before = self.counters()
        freeze = FreezeCount(self.test.dut.u_core)
        freeze.start(self.test.clock)
        sent = [await self.do(**kw) for kw in cmds]
        for cmd in sent:
            await cmd.done.wait()
        frozen = freeze.stop()
        self.test.env.scoreboard.check("frozen cycles by stage add up to the core's count",
                                       not freeze.errors, f"{freeze.errors}")
        await ClockCycles(self.test.clock, 2)
        cycles = round((sent[-1].t_done - sent[0].t_sent) / self.test.cfg.clk_period_ns)
        after = self.counters()
        return {"commands": len(sent), "cycles": cycles,
                "cycles_per_command": round(cycles / len(sent), 1),
                "tokens": sum(len(kw.get("tokens", [])) for kw in cmds),
                "counters": {k: after[k] - before[k] for k in after},
                # frozen cycles by stage, from the first send to the last answer's cycle
                "frozen": frozen}

    async def body(self) -> None:
        max_len, num_ns = self.pred.p.max_len, self.pred.p.num_ns
        reqs = []
        for req in self.trace:
            toks = [int(t) for t in req.tokens[:max_len]]
            reqs.append((req.namespace % num_ns, toks, toks[:max(1, min(len(req.prompt),
                                                                        max_len) - 1)]))
        half = len(reqs) // 2
        handles = []
        for ns, toks, _ in reqs[:half]:
            ins = await self.do(op=OP_INSERT, ns=ns, tokens=toks,
                                kvs=self.fresh_kvs(len(toks)), wait=True)
            if ins.ok():
                handles.append(ins.rsp.b)
        self.test.result["match_stream"] = await self.timed(
            [{"op": OP_MATCH, "ns": ns, "tokens": prompt} for ns, _, prompt in reqs])
        mixed = []
        for ns, toks, prompt in reqs[half:]:
            mixed.append({"op": OP_MATCH, "ns": ns, "tokens": prompt})
            mixed.append({"op": OP_INSERT, "ns": ns, "tokens": toks,
                          "kvs": self.fresh_kvs(len(toks))})
        self.test.result["mixed_stream"] = await self.timed(mixed)
        # The scheduler's lock traffic: a request's prefix is locked once its MATCH has
        # answered, so in a stream each LOCK names a handle from an earlier answer (the
        # first half's INSERTs) and goes out between the next requests' MATCHes.
        locked = []
        for h, (ns, _, prompt) in zip(handles, reqs[half:], strict=False):
            locked.append({"op": OP_LOCK, "arg": h})
            locked.append({"op": OP_MATCH, "ns": ns, "tokens": prompt})
        self.test.result["lock_stream"] = await self.timed(locked)
        for h in handles:
            await self.do(op=OP_UNLOCK, arg=h)


@pyuvm.test()
class RadixStreamBenchTest(RadixBaseTest):
    def make_config(self):  # noqa: ANN201 - same type as the base
        return self.bench_config(8)

    async def body(self) -> None:
        env = self.env
        await env.wait_init_done()
        self.result: dict[str, Any] = {}
        await StreamSeq("stream", self, self.cfg.child_rng("stream")).start(env.seqr)
        await env.drain()
        lo, hi = env.ddr.read_latency if env.ddr is not None else (0, 0)   # 0: on-chip
        path = self.cfg.out_dir / "bench.json"
        path.write_text(json.dumps({"params": env.params.__dict__, "workload": WORKLOAD,
                                    "overlap": int(self.dut.Overlap.value),
                                    "l2": int(self.dut.L2.value), "ddr_latency": [lo, hi],
                                    "window": env.driver.window, **self.result}, indent=1))
        self.logger.info(f"stream timings written to {path}: {self.result}")
        self.figures["stream"] = self.result
        await self.check_csrs()
