# SPDX-License-Identifier: Apache-2.0
"""RadixBaseTest: runs the test's sequence, then checks every CSR and the stored tree against
the model."""

from __future__ import annotations

import time

from cocotb.triggers import ClockCycles
from pyuvm import uvm_sequence

from models.radix_image import ImageLayout
from uvm_env.common.base_test import BaseTest
from uvm_env.common.config import BenchConfig, env_int
from uvm_env.radix.conflict_chain import ConflictChain
from uvm_env.radix.image_check import check_image
from uvm_env.radix.in_flight_monitor import BINS
from uvm_env.radix.overlap import is_overlapped, overlap_counters, read_overlap
from uvm_env.radix.radix_env import RadixEnv


class RadixBaseTest(BaseTest):
    coverage_prefix = "radix"
    csr_checks = 0          # CSR checkpoints so far
    intake_ahead = 0        # INTAKE_AHEAD at the previous checkpoint
    # On an Overlap = 1 build the run must have put a walk beside a commit, or it tested
    # the overlapped core's serial path only. A test that waits for every answer sets
    # this False. rst_ni clears the core's counter, so the largest count any checkpoint
    # read is kept too.
    expect_overlap = True
    ovl_walks_seen = 0
    chain: ConflictChain | None = None   # Overlap = 1: conflict detection, every cycle

    def make_env(self) -> RadixEnv:
        env = RadixEnv("env", self)
        env.dut, env.clock, env.reset = self.dut, self.clock, self.reset
        return env

    def make_config(self) -> BenchConfig:
        cfg = super().make_config()
        # Commands run hundreds of cycles each (init alone is TokenCap cycles).
        cfg.timeout_us = 5_000 + 500 * env_int("N_REQUESTS", 24) + 20 * env_int("N_OPS", 0)
        return cfg

    def make_sequence(self) -> uvm_sequence:
        raise NotImplementedError

    async def apply_reset(self) -> None:
        """rst_ni, then L2_STATUS at once, during the init sweep (RadixEnv.check_l2_idle).
        On an overlapped build, conflict detection is checked from here on."""
        await super().apply_reset()
        if is_overlapped(self.dut) and self.chain is None:
            pred = self.env.scoreboard.pred
            self.chain = ConflictChain(self.dut, ImageLayout(pred.p, pred.p.max_len))
            self.chain.start(self.clock)
        await self.env.check_l2_idle("right after reset")

    def bench_config(self, timeout_scale: int) -> BenchConfig:
        """make_config for a bench: no idles or stalls from the testbench (the cycles
        measure the core), and a timeout ``timeout_scale`` times the usual."""
        cfg = RadixBaseTest.make_config(self)
        cfg.p_idle = cfg.p_stall = 0.0
        cfg.timeout_us *= timeout_scale
        return cfg

    async def body(self) -> None:
        await self.make_sequence().start(self.env.seqr)
        await self.env.drain()
        await self.check_csrs()

    async def check_csrs(self, when: str = "at the end") -> None:
        """The DUT's sizes and counters must equal the model's (and the capacity mirror's).
        After a RESET command the core answers first and then sweeps its tables: wait."""
        await self.env.wait_init_done()
        pred = self.env.scoreboard.pred
        m, st = pred.model, pred.model.stats
        expected = {
            "EVICTABLE": m.evictable_size(), "PROTECTED": m.protected_size(),
            "TOTAL": m.total_size(), "FREE_NODES": pred.free_nodes(),
            "FREE_SLOTS": pred.free_slots(), "LOOKUPS": st.lookups,
            "QUERIED": st.queried_tokens, "HIT": st.hit_tokens, "INSERTS": st.inserts,
            "INSERTED": st.inserted_tokens, "SPLITS": st.splits,
            "EVICTED_NODES": st.evicted_nodes, "EVICTED_TOKENS": st.evicted_tokens,
            "ERRORS": pred.errors, "LAST_ERROR": pred.last_error, "FREE_LINES": pred.hw.free_lines,
            "INDEX_USED": pred.hw.index_used(),
            "STASH_FREE": pred.p.stash_depth - pred.hw.stash_used,
        }
        actual = {name: await self.env.read_csr(name) for name in expected}
        self.env.scoreboard.compare(f"CSR sizes and counters {when}", expected, actual)
        busy = await self.env.read_csr("BUSY_CYCLES")
        # Volatile, so not compared; but every command keeps the core busy at least a cycle.
        self.env.scoreboard.check(f"BUSY_CYCLES {when} >= commands since reset",
                                  busy >= pred.commands, f"{busy} < {pred.commands}")
        # The latest walk's figures: entering an edge takes at least one cycle.
        walk = {n: await self.env.read_csr(n) for n in ("WALK_CYCLES", "WALK_NODES")}
        self.env.scoreboard.check(f"WALK_CYCLES >= WALK_NODES {when}",
                                  walk["WALK_CYCLES"] >= walk["WALK_NODES"], str(walk))
        # Volatile too; it can only count commands that were sent.
        ahead = await self.env.read_csr("INTAKE_AHEAD")
        sb = self.env.scoreboard
        sb.check(f"INTAKE_AHEAD {when} <= commands sent", ahead <= self.env.driver.sent,
                 f"{ahead} > {self.env.driver.sent}")
        # rst_ni clears the counter (a RESET command does not).
        sb.cov.sample_intake(ahead - self.intake_ahead if ahead >= self.intake_ahead else ahead)
        self.intake_ahead = ahead
        await self.check_in_flight(when)
        self.figures["csrs"] = {**actual, "BUSY_CYCLES": busy}
        self.logger.info(f"CSRs: {actual}; busy cycles {busy}")
        # Reading the memories costs tens of milliseconds of simulator calls, so the
        # random tests' many checkpoints decode the tree at every TREE_EVERY-th one.
        self.csr_checks += 1
        if when == "at the end" or self.csr_checks % env_int("TREE_EVERY", 4) == 0:
            await self.check_stored_tree(when)
        if self.env.ddr is not None:
            await self.check_l2_counters(when)
        if is_overlapped(self.dut):
            # Any test run on the overlapped core checks the overlap CSRs at each
            # checkpoint and reports (once, at the end) how much it overlapped.
            counts = await read_overlap(self, log=when == "at the end")
            self.ovl_walks_seen = max(self.ovl_walks_seen, counts["walks overlapped"])

    def check_phase(self) -> None:
        if self.chain is not None:
            errors = self.chain.errors()
            self.logger.info(f"conflict detection checked: {self.chain.summary()}")
            self.env.scoreboard.check(
                "every walk read added first, every changed key broadcast before the "
                "walk's hand-over, every broadcast answered as the signature gives and "
                "every replay after a hit", not errors, "; ".join(errors[:4]))
        if self.expect_overlap and is_overlapped(self.dut):
            walks = max(self.ovl_walks_seen, overlap_counters(self.dut)["walks overlapped"])
            self.env.scoreboard.check("a walk ran beside a commit on the overlapped build",
                                      walks > 0, "no MATCH or INSERT was dispatched while "
                                      "another command ran: only the serial path was tested")
        super().check_phase()

    async def check_in_flight(self, when: str) -> None:
        """IN_FLIGHT_MAX and the histogram equal the testbench's own count at the ports;
        only meaningful with the streams idle (the histogram trails by two cycles): every
        caller has drained the driver first. Then IN_FLIGHT itself."""
        sb, mon = self.env.scoreboard, self.env.in_flight
        sb.check(f"no command in flight at the in-flight check {when}", mon.count == 0,
                 f"{mon.count} in flight: check_csrs called before a drain")
        await ClockCycles(self.clock, 2)
        expected = mon.expected()
        actual = {name: await self.env.read_csr(name) for name in expected}
        sb.compare(f"in-flight CSRs {when}", expected, actual)
        for b in range(BINS):
            if actual[f"IN_FLIGHT_HIST{b}"]:
                sb.cov.sample_in_flight_bin(b)
        await self.check_in_flight_now(when)

    async def check_in_flight_now(self, when: str) -> int:
        """Read IN_FLIGHT, at any time, and compare it with the count the monitor saw in
        the cycle the read was taken; returns the value read."""
        mon = self.env.in_flight
        start = len(mon.read_samples)
        value = await self.env.read_csr("IN_FLIGHT")
        # Other readers (csr_noise, a checkpoint) may read IN_FLIGHT meanwhile: the read
        # is right if one of the reads taken since it was issued saw this count.
        samples = mon.read_samples[start:]
        self.env.scoreboard.check(f"IN_FLIGHT {when} equals the count at the read",
                                  value in samples, f"read {value}, counts seen {samples}")
        return value

    l2_base = (0, 0, 0, 0)   # DDR reads, L2_RD_BEATS, DDR writes, L2_WR_BEATS at the baseline

    async def l2_baseline(self) -> None:
        """Restart the traffic accounting. A fault makes caches give up on requests the
        DDR model still serves (a failed or hung read is no beat, nor is a read that
        was in flight when a sibling request failed), so the two counts part there."""
        ddr = self.env.ddr
        self.l2_base = (ddr.reads, await self.env.read_csr("L2_RD_BEATS"), ddr.writes,
                        await self.env.read_csr("L2_WR_BEATS"))

    async def check_l2_counters(self, when: str) -> None:
        """The L2 build's traffic CSRs agree with what the DDR model saw, and the run did
        reach DDR: a test whose caches never missed would prove nothing about the tier."""
        sb, ddr = self.env.scoreboard, self.env.ddr
        names = ("L2_HITS", "L2_MISSES", "L2_WRITEBACKS", "L2_RD_BEATS", "L2_WR_BEATS",
                 "L2_STALL_CYCLES")
        l2 = {n: await self.env.read_csr(n) for n in names}
        # Since the latest fault was cleared (a fault drops beats on purpose: see
        # l2_baseline), every beat the DDR model served is one the caches took.
        b = self.l2_base
        sb.compare(f"L2_RD_BEATS vs the DDR model's reads {when}", ddr.reads - b[0],
                   l2["L2_RD_BEATS"] - b[1])
        sb.compare(f"L2_WR_BEATS vs the DDR model's writes {when}", ddr.writes - b[2],
                   l2["L2_WR_BEATS"] - b[3])
        sb.compare(f"L2_WRITEBACKS vs L2_WR_BEATS {when}", l2["L2_WR_BEATS"],
                   l2["L2_WRITEBACKS"])
        sb.check(f"the L1 caches missed and waited {when}",
                 l2["L2_MISSES"] > 0 and l2["L2_STALL_CYCLES"] > 0, str(l2))
        self.figures["l2"] = {**l2, "flushes": self.env.flushes}
        self.logger.info(f"L2: {l2}; {self.env.flushes} flushes checked from DDR")

    async def check_stored_tree(self, when: str) -> None:
        """The tree the core stores, decoded from its memories, must be the model's: node
        by node (key, KV indices, lock, children, handle), the child index, the LRU
        list and the free lists. Catches a wrong write that no response shows yet.
        The L2 build is flushed first and its tables are decoded from the DDR image,
        so a wrong write-back is caught although the L1 would still answer right."""
        pred = self.env.scoreboard.pred
        l2 = await self.env.flush_l2() if self.env.ddr is not None else None
        t0 = time.perf_counter()
        diffs, n_nodes = check_image(self.dut, pred, l2)
        self.env.scoreboard.check(f"stored tree equals the model {when}", not diffs,
                                  "; ".join(diffs[:12]) + (" ..." if len(diffs) > 12 else ""))
        self.logger.info(f"stored tree {when}: {n_nodes} nodes decoded, "
                         f"{len(diffs)} differences from the model "
                         f"({time.perf_counter() - t0:.2f} s to read and compare)")
