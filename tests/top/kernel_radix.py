# SPDX-License-Identifier: Apache-2.0
"""kernel_radix: krnl_radix driven like XRT would, checked against the golden model.

Each run: the host writes a batch of command frames into DDR (an AxiRam),
starts the kernel, waits for the interrupt and reads the responses back; the
radix scoreboard replays the same commands through models.radix_cache.

In the L2 build (kernel_radix) the core's tables live in a region of the same DDR,
reached through m_axi_l2 with L1 caches of a few lines, so the runs' answers depend on
every write-back and refill. The region starts as random bytes; runs that must be
refused (a misaligned region before any is bound, then a moved one) are checked for
their status bits and for leaving the tree alone.
"""

from __future__ import annotations

import pyuvm
from pyuvm import uvm_env

from models import workloads
from sglang_fpga.l2_layout import L2Layout
from sglang_fpga.wire import (
    RADIX_ARGS,
    RADIX_ST_L2_MOVED,
    RADIX_ST_MISALIGNED,
    radix_command_buffer,
    radix_split_responses,
)
from uvm_env.common.base_test import BaseTest
from uvm_env.common.config import BenchConfig, env_int
from uvm_env.radix.protocol import OP_EVICT, OP_INSERT, OP_LOCK, OP_MATCH, OP_SIZES, OP_UNLOCK
from uvm_env.radix.radix_item import RadixCmd
from uvm_env.radix.radix_predictor import RadixParams
from uvm_env.radix.radix_scoreboard import RadixScoreboard
from uvm_env.top.kernel_host import KernelHost

CMD_BASE, RSP_BASE, L2_BASE, RAM_BYTES = 0x0000, 0x10_0000, 0x18_0000, 0x20_0000


class KernelRadixEnv(uvm_env):
    dut: object
    clock: object
    reset: object

    def build_phase(self) -> None:
        d = self.dut
        self.l2 = bool(int(d.L2.value))
        self.host = KernelHost(d, self.clock, self.reset, RAM_BYTES, num_args=RADIX_ARGS,
                               masters=("m_axi_gmem", "m_axi_l2"))
        self.scoreboard = RadixScoreboard("scoreboard", self)
        self.scoreboard.params = RadixParams(
            node_cap=int(d.NodeCap.value), token_cap=int(d.TokenCap.value),
            max_len=int(d.MaxLen.value), page_size=int(d.PageSize.value),
            num_ns=int(d.NumNs.value), hash_buckets=int(d.HashBuckets.value),
            hash_ways=int(d.HashWays.value), stash_depth=int(d.StashDepth.value))
        self.l2_bytes = L2Layout.of_dut(d).total
        assert L2_BASE + self.l2_bytes <= RAM_BYTES, "the L2 region outgrew the test's DDR"


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
        env, sb = self.env, self.env.scoreboard
        p = sb.params
        rng = self.cfg.child_rng("kernel")
        if env.l2:
            # Garbage where the tables go: the core must initialise all it reads.
            garbage = rng.randbytes(env.l2_bytes)
            env.host.ram.write(L2_BASE, garbage)
            # Refused before anything is bound: the region stays free to choose.
            await self.refused_run(L2_BASE + 64, 1 << RADIX_ST_MISALIGNED)
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
        if env.l2:
            sb.compare("the L2 build wrote its region", True,
                       env.host.ram.read(L2_BASE, env.l2_bytes) != garbage)
            await self.refused_run(L2_BASE + 0x1000, 1 << RADIX_ST_L2_MOVED)
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
        outs = await self.env.host.run([CMD_BASE, len(tiny) // 8, RSP_BASE, 1, L2_BASE])
        sb.compare("tiny response buffer: words written, overflow flag", [1, 1], outs)
        first = int.from_bytes(self.env.host.ram.read(RSP_BASE, 8), "little")
        sb.compare("tiny response buffer: the one word is SIZES' trailer", OP_SIZES, first & 0xFF)

    async def run_batch(self, cmds: list[RadixCmd]) -> None:
        host, sb = self.env.host, self.env.scoreboard
        buf = radix_command_buffer(cmd.beats() for cmd in cmds)
        host.ram.write(CMD_BASE, buf)
        rsp_words, status = await host.run([CMD_BASE, len(buf) // 8, RSP_BASE,
                                            (L2_BASE - RSP_BASE) // 8, L2_BASE])
        sb.compare("kernel status (overflow, misaligned)", 0, status)
        rsps = radix_split_responses(host.ram.read(RSP_BASE, rsp_words * 8),
                                     [cmd.op for cmd in cmds])
        for cmd, rsp in zip(cmds, rsps, strict=True):
            cmd.rsp = rsp
            sb.write_cmd(cmd)
        self.logger.info(f"kernel run: {len(cmds)} commands, {rsp_words} response words")

    async def refused_run(self, l2_ptr: int, status: int) -> None:
        """A run the kernel must refuse whole: no command read, no response written."""
        cmds = [RadixCmd(op=OP_SIZES)]
        buf = radix_command_buffer(cmd.beats() for cmd in cmds)
        host = self.env.host
        host.ram.write(CMD_BASE, buf)
        outs = await host.run([CMD_BASE, len(buf) // 8, RSP_BASE,
                               (L2_BASE - RSP_BASE) // 8, l2_ptr])
        self.env.scoreboard.compare(f"run with l2_ptr {l2_ptr:#x}: words written, status",
                                    [0, status], outs)
