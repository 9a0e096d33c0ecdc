# SPDX-License-Identifier: Apache-2.0
"""RadixEnv: command/response agents, CSR master and scoreboard around radix_top."""

from __future__ import annotations

import logging

from cocotb.triggers import ClockCycles
from cocotbext.axi import (
    AxiLiteBus,
    AxiLiteMaster,
    AxiStreamBus,
    AxiStreamSink,
    AxiStreamSource,
)
from pyuvm import ConfigDB, uvm_env, uvm_sequencer

from sglang_fpga.l2_layout import L2Layout
from uvm_env.common.axi_ddr import DdrModel
from uvm_env.common.axis_bus import lane_bits
from uvm_env.common.pause import random_pause
from uvm_env.radix.csr_regs import BLOCK
from uvm_env.radix.image_check import L2Source
from uvm_env.radix.in_flight_monitor import InFlightMonitor
from uvm_env.radix.l1_env import ddr_latency
from uvm_env.radix.protocol import CSR
from uvm_env.radix.radix_driver import RadixDriver
from uvm_env.radix.radix_predictor import RadixParams
from uvm_env.radix.radix_scoreboard import RadixScoreboard

#: Every register's word index, array elements included.
REG_INDEX = {r.name: r.index for r in BLOCK.registers}

#: Share of idle and stall bursts that last long enough to fill the response FIFO.
LONG_PAUSE_P = 0.05


class RadixEnv(uvm_env):
    dut: object
    clock: object
    reset: object
    flushes = 0     # L2 flushes completed (image checks from DDR)

    def build_phase(self) -> None:
        cfg = ConfigDB().get(self, "", "cfg")
        dut = self.dut
        self.params = RadixParams(
            node_cap=int(dut.NodeCap.value), token_cap=int(dut.TokenCap.value),
            max_len=int(dut.MaxLen.value), page_size=int(dut.PageSize.value),
            num_ns=int(dut.NumNs.value), data_w=int(dut.DataW.value),
            hash_buckets=int(dut.HashBuckets.value), hash_ways=int(dut.HashWays.value),
            stash_depth=int(dut.StashDepth.value))
        cmd_bus = AxiStreamBus.from_prefix(dut, "s_axis_cmd")
        rsp_bus = AxiStreamBus.from_prefix(dut, "m_axis_rsp")
        source = AxiStreamSource(cmd_bus, self.clock, self.reset, reset_active_level=False,
                                 byte_size=lane_bits(cmd_bus))
        sink = AxiStreamSink(rsp_bus, self.clock, self.reset, reset_active_level=False,
                             byte_size=lane_bits(rsp_bus))
        for model in (source, sink):
            model.log.setLevel(logging.WARNING)
        # Long idles and stalls now and then: a command sent after a long idle, while
        # the sink sits on the last one's response, meets a response FIFO filled behind
        # one command (the in-flight x FIFO-level cross); short bursts never get there.
        long_burst = self.long_burst = 2 << len(dut.u_core.rsp_level)
        if cfg.p_idle:
            source.set_pause_generator(random_pause(
                cfg.child_rng("idle"), cfg.p_idle, p_long=LONG_PAUSE_P, long_burst=long_burst))
        if cfg.p_stall:
            sink.set_pause_generator(random_pause(
                cfg.child_rng("stall"), cfg.p_stall, p_long=LONG_PAUSE_P,
                long_burst=long_burst))
        self.csr = AxiLiteMaster(AxiLiteBus.from_prefix(dut, "s_axil"), self.clock, self.reset,
                                 reset_active_level=False)
        self.csr.write_if.log.setLevel(logging.WARNING)
        self.csr.read_if.log.setLevel(logging.WARNING)

        self.seqr = uvm_sequencer("seqr", self)
        self.driver = RadixDriver("driver", self)
        self.driver.source, self.driver.sink = source, sink
        self.driver.data_w = self.params.data_w
        self.driver.level_probe = dut.u_core.rsp_level
        self.scoreboard = RadixScoreboard("scoreboard", self)
        self.in_flight = InFlightMonitor(dut, self.clock)
        self.scoreboard.params = self.params
        self.ddr = self._build_l2(cfg) if int(dut.L2.value) else None
        if self.ddr is None:
            for name in ("awready", "wready", "bvalid", "arready", "rvalid", "bid", "bresp",
                         "rid", "rdata", "rresp", "rlast"):
                getattr(dut, f"m_axi_{name}").value = 0
            dut.l2_base.value = 0

    def _build_l2(self, cfg: object) -> DdrModel:
        """The L2 build: a DDR model behind m_axi, its region at a random 4 KiB page
        above 0 and filled with random bytes, so a table read before the core wrote
        it, or address arithmetic that forgets the base, shows as a mismatch."""
        dut, rng = self.dut, cfg.child_rng("ddr")
        self.layout = L2Layout.of_dut(dut)
        self.l2_base = 4096 * rng.randrange(1, 16)
        size = self.l2_base + self.layout.total + 4096
        ddr = DdrModel(dut, "m_axi", self.clock, self.reset, size, rng,
                       read_latency=ddr_latency(), p_pause=cfg.p_stall,
                       hang_cycles=3 * int(dut.L2Timeout.value))
        ddr.poke(self.l2_base, rng.randbytes(self.layout.total))
        dut.l2_base.value = self.l2_base
        return ddr

    def connect_phase(self) -> None:
        self.driver.seq_item_port.connect(self.seqr.seq_item_export)
        self.driver.ap.connect(self.scoreboard.analysis_export)
        self.scoreboard.driver = self.driver
        self.scoreboard.ddr = self.ddr

    def abort_for_reset(self) -> None:
        """rst_ni is low: drop what is in flight (RadixDriver.abort)."""
        self.driver.abort()

    def power_on(self) -> None:
        """The DUT was reset: the predictor starts over; the driver sends again."""
        self.scoreboard.pred.power_on()
        self.driver.resume()

    async def drain(self) -> None:
        """Wait until every command sent has its response checked in."""
        while self.driver.in_flight:
            await self.driver.in_flight[-1].done.wait()

    async def wait_init_done(self, poll_cycles: int = 16, limit: int = 100_000) -> None:
        """Until STATUS.INIT_DONE: the sweep that follows a reset has cleared the tables."""
        for _ in range(limit):
            if await self.read_csr("STATUS") & 2:
                return
            await ClockCycles(self.clock, poll_cycles)
        raise AssertionError(f"INIT_DONE never came in {limit} polls")

    async def check_l2_idle(self, when: str) -> None:
        """L2_STATUS after rst_ni: nothing has asked for a flush and no DDR access can
        have failed, so FLUSHING and FAULT read 0 (their reset values) on every build,
        also while the init sweep runs. A flush that reset itself started would write the
        L2 build's sweep back to DDR as if software had asked."""
        status = await self.read_csr("L2_STATUS")
        self.scoreboard.compare(f"L2_STATUS {when}", {"FLUSHING": 0, "FAULT": 0},
                                {"FLUSHING": status & 1, "FAULT": status >> 1 & 1})

    async def flush_l2(self, poll_cycles: int = 16, limit: int = 100_000) -> L2Source:
        """L2_CTRL.FLUSH, then wait for L2_STATUS.FLUSHING to drop: every dirty L1 line
        is in the DDR model. Returns where the tables are, for the image check."""
        await self.csr.write_dword(4 * CSR["L2_CTRL"], 1)
        for _ in range(limit):
            status = await self.read_csr("L2_STATUS")
            if not status & 1:
                self.flushes += 1
                return L2Source(self.ddr, self.l2_base, self.layout)
            await ClockCycles(self.clock, poll_cycles)
        raise AssertionError(f"L2 flush not done in {limit} polls")

    async def read_csr(self, name: str) -> int:
        """A register by name; an array element by its numbered name (IN_FLIGHT_HIST3)."""
        index = CSR[name] if name in CSR else REG_INDEX[name]
        return await self.csr.read_dword(4 * index)
