# SPDX-License-Identifier: Apache-2.0
"""StreamTest: the shared test body for pass-through stream blocks."""

from __future__ import annotations

from cocotb.simtime import get_sim_time
from cocotb.triggers import ClockCycles

from uvm_env.common.base_test import BaseTest
from uvm_env.common.pause import random_pause, set_pattern
from uvm_env.common.random_words_seq import RandomWordsSeq
from uvm_env.common.stream_env import StreamEnv


class StreamTest(BaseTest):
    """Phase 1: a burst with no idles and no stalls must take at most
    burst + max_latency cycles (full throughput). Phase 2: N_ITEMS words under
    random idle and back-pressure. The scoreboard checks every word in order.
    """

    width: int             # data width of the DUT
    max_latency: int       # cycles from first push to first pop, unloaded
    ports: dict[str, str]
    burst = 64

    def level(self) -> str:
        raise NotImplementedError

    def make_env(self) -> StreamEnv:
        env = StreamEnv("env", self)
        env.dut, env.clock, env.reset = self.dut, self.clock, self.reset
        env.ports, env.cov_prefix, env.level = self.ports, self.coverage_prefix, self.level
        return env

    async def body(self) -> None:
        env, cfg = self.env, self.cfg
        source, sink = env.src.driver.source, env.snk.sink
        period = cfg.clk_period_ns

        set_pattern(source, None)
        set_pattern(sink, None)
        start = get_sim_time("ns")
        await RandomWordsSeq("burst", self.burst, self.width, cfg.child_rng("burst")).start(
            env.src.seqr)
        await env.snk.wait_for(self.burst)
        cycles = round((get_sim_time("ns") - start) / period)
        env.scoreboard.check("throughput", cycles <= self.burst + self.max_latency,
                             f"{self.burst} words took {cycles} cycles, "
                             f"allowed {self.burst + self.max_latency}")
        self.logger.info(f"unloaded burst: {self.burst} words in {cycles} cycles")

        set_pattern(source, random_pause(cfg.child_rng("idle"), cfg.p_idle))
        set_pattern(sink, random_pause(cfg.child_rng("stall"), cfg.p_stall))
        await RandomWordsSeq("random", cfg.n_items, self.width, cfg.child_rng("data")).start(
            env.src.seqr)
        await env.snk.wait_for(self.burst + cfg.n_items)
        # Anything the DUT emits beyond what went in would land as a mismatch here.
        await ClockCycles(self.clock, 32)
