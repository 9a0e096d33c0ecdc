# SPDX-License-Identifier: Apache-2.0
"""kernel_radix: krnl_radix driven like XRT would, checked against the golden model.

Each run: the host writes a batch of command frames into DDR (an AxiRam),
starts the kernel, waits for the interrupt and reads the responses back; the
radix scoreboard replays the same commands through models.radix_cache.
"""

from __future__ import annotations

import pyuvm
from pyuvm import uvm_env

from models import workloads
from sglang_fpga.wire import radix_command_buffer, radix_split_responses
from uvm_env.common.base_test import BaseTest
from uvm_env.common.config import BenchConfig, env_int
from uvm_env.radix.protocol import OP_EVICT, OP_INSERT, OP_LOCK, OP_MATCH, OP_SIZES, OP_UNLOCK
from uvm_env.radix.radix_item import RadixCmd
from uvm_env.radix.radix_predictor import RadixParams
from uvm_env.radix.radix_scoreboard import RadixScoreboard
from uvm_env.top.kernel_host import KernelHost

CMD_BASE, RSP_BASE, RAM_BYTES = 0x0000, 0x10_0000, 0x20_0000


class KernelRadixEnv(uvm_env):
    dut: object
    clock: object
    reset: object

    def build_phase(self) -> None:
        d = self.dut
        self.host = KernelHost(d, self.clock, self.reset, RAM_BYTES, num_args=4)
        self.scoreboard = RadixScoreboard("scoreboard", self)
        self.scoreboard.params = RadixParams(
            node_cap=int(d.NodeCap.value), token_cap=int(d.TokenCap.value),
            max_len=int(d.MaxLen.value), page_size=int(d.PageSize.value),
            num_ns=int(d.NumNs.value), hash_buckets=int(d.HashBuckets.value),
            hash_ways=int(d.HashWays.value), stash_depth=int(d.StashDepth.value))


@pyuvm.test()
class KernelRadixTest(BaseTest):
    clock_port, reset_port = "ap_clk", "ap_rst_n"

    def make_config(self) -> BenchConfig:
        cfg = super().make_config()
        cfg.timeout_us = 20_000
        return cfg

    def make_env(self) -> KernelRadixEnv:
        env = KernelRadixEnv("env", self)
        env.dut, env.clock, env.reset = self.dut, self.clock, self.reset
        return env

    async def body(self) -> None:
        sb = self.env.scoreboard
        p = sb.params
        rng = self.cfg.child_rng("kernel")
        trace = workloads.ecommerce_qa(seed=self.cfg.seed % 1000,
                                       requests=env_int("N_REQUESTS", 12))
        kv = 1000
        batch: list[RadixCmd] = []
        for req in trace:
            toks = [int(t) for t in req.tokens[:p.max_len]]
            batch.append(RadixCmd(op=OP_MATCH, ns=req.namespace % p.num_ns, tokens=toks[:-1]))
            batch.append(RadixCmd(op=OP_INSERT, ns=req.namespace % p.num_ns, tokens=toks,
                                  kvs=list(range(kv, kv + len(toks)))))
            kv += len(toks)
        batch.append(RadixCmd(op=OP_SIZES))
        await self.run_batch(batch)
        # Second run: the tree survived; lock what the first run returned, evict, unlock.
        handles = sb.pred.live_handles()
        picks = rng.sample(handles, min(4, len(handles)))
        second = [RadixCmd(op=OP_LOCK, arg=h) for h in picks]
        second += [RadixCmd(op=OP_EVICT, arg=rng.randint(1, 2000)), RadixCmd(op=OP_SIZES)]
        second += [RadixCmd(op=OP_UNLOCK, arg=h) for h in picks]
        second += [RadixCmd(op=0x0F), RadixCmd(op=OP_EVICT, arg=10**6)]
        await self.run_batch(second)
        # A response buffer too small must stop at its end and say so. SIZES
        # changes nothing, so the model needs no step for it.
        tiny = radix_command_buffer([RadixCmd(op=OP_SIZES).beats()])
        self.env.host.ram.write(CMD_BASE, tiny)
        outs = await self.env.host.run([CMD_BASE, len(tiny) // 8, RSP_BASE, 1])
        sb.compare("tiny response buffer: words written, overflow flag", [1, 1], outs)
        first = int.from_bytes(self.env.host.ram.read(RSP_BASE, 8), "little")
        sb.compare("tiny response buffer: the one word is SIZES' trailer", OP_SIZES, first & 0xFF)

    async def run_batch(self, cmds: list[RadixCmd]) -> None:
        host, sb = self.env.host, self.env.scoreboard
        buf = radix_command_buffer(cmd.beats() for cmd in cmds)
        host.ram.write(CMD_BASE, buf)
        rsp_words, status = await host.run([CMD_BASE, len(buf) // 8, RSP_BASE,
                                            (RAM_BYTES - RSP_BASE) // 8])
        sb.compare("kernel status (overflow, misaligned)", 0, status)
        rsps = radix_split_responses(host.ram.read(RSP_BASE, rsp_words * 8),
                                     [cmd.op for cmd in cmds])
        for cmd, rsp in zip(cmds, rsps, strict=True):
            cmd.rsp = rsp
            sb.write_cmd(cmd)
        self.logger.info(f"kernel run: {len(cmds)} commands, {rsp_words} response words")
