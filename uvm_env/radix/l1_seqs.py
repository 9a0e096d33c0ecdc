# SPDX-License-Identifier: Apache-2.0
"""Sequences for radix_l1_cache: random traffic with locality, and fault scenarios."""

from __future__ import annotations

import random

import cocotb
from cocotb.triggers import FallingEdge
from cocotb_coverage.coverage import CoverPoint
from pyuvm import uvm_sequence

from uvm_env.common.axi_ddr import DdrModel
from uvm_env.radix.l1_item import L1Op
from uvm_env.radix.l1_scoreboard import L1Scoreboard, entry_bytes

#: Injected fault x the request that meets it (fills read, write-backs write).
FAULT_CASES = [(f, j) for f in ("read_error", "read_hang") for j in ("read_miss", "write_miss")]
FAULT_CASES += [(f, j) for f in ("write_error", "write_hang")
                for j in ("read_miss", "write_miss", "flush")]
#: fault_kind_o for each injection.
FAULT_KIND = {"read_error": 1, "write_error": 2, "read_hang": 3, "write_hang": 3}


class L1Geometry:
    """Which entries share a line and a set, so a sequence can aim at hits or evictions."""

    def __init__(self, width: int, depth: int, sets: int, ways: int) -> None:
        self.width, self.depth, self.sets, self.ways = width, depth, sets, ways
        self.epl = 64 // entry_bytes(width)
        self.lines = depth // self.epl

    def entry(self, line: int, rng: random.Random) -> int:
        return line * self.epl + rng.randrange(self.epl)

    def line_in_set(self, s: int, rng: random.Random) -> int:
        return s + self.sets * rng.randrange(self.lines // self.sets)


class L1SeqBase(uvm_sequence):
    def __init__(self, name: str, geo: L1Geometry, rng: random.Random) -> None:
        super().__init__(name)
        self.geo, self.rng = geo, rng

    async def send(self, op: L1Op) -> None:
        await self.start_item(op)
        await self.finish_item(op)

    async def idle(self, n: int) -> None:
        for _ in range(n):
            await self.send(L1Op())

    def random_op(self, lines: list[int], p_flush: float = 0.0, p_clear: float = 0.0) -> L1Op:
        rng, geo = self.rng, self.geo
        r = rng.random()
        if r < p_flush:
            return L1Op(flush=True)
        if r < p_flush + p_clear:
            return L1Op(clear=True)
        if rng.random() < 0.08:
            return L1Op()
        re, we = rng.random() < 0.65, rng.random() < 0.5
        raddr = geo.entry(rng.choice(lines), rng)
        # Now and then the same entry is read and written in one tick (read-first).
        waddr = raddr if rng.random() < 0.15 else geo.entry(rng.choice(lines), rng)
        return L1Op(re=re, raddr=raddr, we=we, waddr=waddr,
                    wdata=rng.getrandbits(geo.width))

    def pools(self) -> tuple[list[int], list[int], list[int]]:
        """Hot lines (fit in the cache), lines fighting over two sets, and all lines."""
        geo, rng = self.geo, self.rng
        hot = rng.sample(range(geo.lines), max(1, geo.sets * geo.ways // 2))
        fight = [geo.line_in_set(s, rng) for s in (0, geo.sets - 1)
                 for _ in range(2 * geo.ways + 1)]
        return hot, fight, list(range(geo.lines))


class L1RandomSeq(L1SeqBase):
    """Phases of hot, conflicting and scattered traffic; flushes and clears at random;
    a final flush whose image the scoreboard checks."""

    def __init__(self, name: str, n: int, geo: L1Geometry, rng: random.Random) -> None:
        super().__init__(name, geo, rng)
        self.n = n

    async def body(self) -> None:
        hot, fight, every = self.pools()
        phase: list[int] | None = hot
        cursor = 0
        # At least one clear in the middle of the run, whatever the draw.
        clear_at = self.rng.randrange(self.n // 4, 3 * self.n // 4 + 1)
        for i in range(self.n):
            if i % 64 == 0:
                # None: a stream, line after line, as the core's line walk reads a
                # table (what a next-line prefetch serves).
                phase = self.rng.choice([hot, hot, fight, every, None])
                if i == 64:
                    phase = None   # every run streams at least once
                cursor = self.rng.randrange(self.geo.lines)
            if i == clear_at:
                await self.send(L1Op(clear=True))
            if phase is None:
                await self.send(self.random_op([cursor], p_flush=0.004, p_clear=0.001))
                cursor = (cursor + 1) % self.geo.lines
            else:
                await self.send(self.random_op(phase, p_flush=0.004, p_clear=0.001))
        await self.send(L1Op(flush=True))
        await self.idle(8)


class L1FaultSeq(L1SeqBase):
    """Each fault case on a cache in a known state; after it: the fault kind, a flush that
    still completes, DDR untouched, and after clear traffic checked again."""

    def __init__(self, name: str, geo: L1Geometry, rng: random.Random, ddr: DdrModel,
                 dut: object, sb: L1Scoreboard, hang_cycles: int) -> None:
        super().__init__(name, geo, rng)
        self.ddr, self.dut, self.sb, self.hang_cycles = ddr, dut, sb, hang_cycles

        @CoverPoint("radix.l1_fault.case", xf=lambda c: c, bins=FAULT_CASES)
        def sample(case: tuple[str, str]) -> None:
            pass

        self._sample = sample

    async def body(self) -> None:
        hot, fight, every = self.pools()
        cases = list(FAULT_CASES)
        self.rng.shuffle(cases)
        for case in cases:
            for _ in range(150):
                await self.send(self.random_op(self.rng.choice([hot, fight, every])))
            await self.run_case(*case)
        await self.send(L1Op(flush=True))
        await self.idle(8)

    async def run_case(self, fault: str, job: str) -> None:
        geo, rng = self.geo, self.rng
        # A known state: DDR holds everything, the cache nothing.
        await self.send(L1Op(flush=True))
        await self.send(L1Op(clear=True))
        s = rng.randrange(geo.sets)
        written: set[int] = set()
        if fault.startswith("write"):
            # Fill set s with dirty lines: every way is taken, so the next miss in
            # the set writes one back.
            written = set(rng.sample(range(s, geo.lines, geo.sets), geo.ways))
            for line in written:
                await self.send(L1Op(we=True, waddr=geo.entry(line, rng),
                                     wdata=rng.getrandbits(geo.width)))
        await self.idle(3)   # the fills above have finished: arm the next DDR access
        setattr(self.ddr, {"read_error": "fail_reads", "read_hang": "hang_reads",
                           "write_error": "fail_writes", "write_hang": "hang_writes"}[fault], 1)
        line = geo.line_in_set(s, rng)
        while line in written:
            line = geo.line_in_set(s, rng)
        target = geo.entry(line, rng)
        if job == "flush":
            await self.send(L1Op(flush=True))
        elif job == "read_miss":
            await self.send(L1Op(re=True, raddr=target))
        else:
            await self.send(L1Op(we=True, waddr=target, wdata=rng.getrandbits(geo.width)))
        for _ in range(4 * self.hang_cycles):
            if int(self.dut.fault_o.value):
                break
            await self.idle(1)
        self.sb.compare(f"fault_o after {fault} on {job}", 1, int(self.dut.fault_o.value))
        self.sb.compare(f"fault_kind_o after {fault} on {job}", FAULT_KIND[fault],
                        int(self.dut.fault_kind_o.value))
        self._sample((fault, job))
        # Faulted: traffic is not served, a flush answers at once, nothing reaches DDR.
        for _ in range(20):
            await self.send(self.random_op(list(range(geo.lines))))
        await self.send(L1Op(flush=True))
        # A hung response arrives late; the clear after it must make it harmless.
        await self.idle(self.hang_cycles if fault.endswith("hang") else 4)
        await self.send(L1Op(clear=True))
        self.ddr.fail_reads = self.ddr.fail_writes = 0
        self.ddr.hang_reads = self.ddr.hang_writes = 0
        await self.idle(4)
        self.sb.compare(f"fault_o after clear ({fault} on {job})", 0,
                        int(self.dut.fault_o.value))
        # The faulting line and its set are read back against DDR.
        for _ in range(3 * geo.ways):
            await self.send(L1Op(re=True, raddr=geo.entry(geo.line_in_set(s, rng), rng)))
        await self.send(L1Op(re=True, raddr=target))


class L1PrefetchDirectedSeq(L1SeqBase):
    """Two prefetch corners that random traffic meets rarely or never, from an empty cache
    in each round; a miss of line m restarts the window at m+1..m+depth.

    * kept: a miss that meets a prefetch read its cache has not sent yet (the wait that
      keeps the slot, radix.l1.prefetch_wait "kept"). DDR's AR is held from about the
      cycle after the first miss's read is accepted until a miss of m+depth, the window's
      last line, has found its slot's read still queued. The hold starts a cycle late
      (AxiRam drives ready a cycle ahead), so m+1's read leaves and m+2's waits in the AR
      register, which counts as sent (a miss of it refills the slot): the buffer must be
      3 lines deep.
    * error: the first prefetch read of the window to finish answers SLVERR; the slot
      only empties (no fault), so reads of m+1..m+depth must still see DDR's data.
    * slow: the window's first prefetch read answers hang_cycles late (no timeout: no
      miss waits on it), and misses far apart restart the window RESTARTS times, so
      its slot's next reads queue behind it (one AXI ID) until the slot is full and
      takes no new line (radix_l1_cache's pf_full); reads of the windows' lines after
      the late answers must see DDR's data."""

    #: Window restarts while the slow read is out: enough to fill its slot's count.
    RESTARTS = 10

    def __init__(self, name: str, geo: L1Geometry, rng: random.Random, ddr: DdrModel,
                 dut: object, clock: object, depth: int, rounds: int = 3) -> None:
        super().__init__(name, geo, rng)
        if depth < 3:
            raise ValueError(f"L1PrefetchDirectedSeq needs a 3-line prefetch buffer, not {depth}")
        self.ddr, self.dut, self.clock, self.rounds = ddr, dut, clock, rounds
        self.depth = depth
        self.kept = 0     # kept rounds whose last miss waited on a queued read
        self.failed = 0   # error rounds whose SLVERR went to a prefetch read
        self.full = 0     # slow rounds in which a slot was too full to take a line
        self._slot_full = False

    async def _first_read(self, limit: int = 2000) -> int:
        """The AXI ID of the next read accepted, a cycle before its handshake."""
        d = self.dut
        for _ in range(limit):
            await FallingEdge(self.clock)
            if int(d.m_axi_arvalid.value) and int(d.m_axi_arready.value):
                return int(d.m_axi_arid.value)
        raise AssertionError(f"no read in {limit} cycles")

    async def _hold(self, limit: int = 2000) -> None:
        await self._first_read(limit)
        self.ddr.hold_ar(True)
        try:
            for _ in range(limit):
                await FallingEdge(self.clock)
                if int(self.dut.pf_wait_now.value):
                    self.kept += not int(self.dut.pf_refill.value)
                    break
        finally:
            self.ddr.hold_ar(False)

    async def _fail_a_prefetch(self) -> None:
        demand = await self._first_read()
        self.ddr.fail_read_if = lambda arid: arid != demand

    async def _hang_a_prefetch(self) -> None:
        demand = await self._first_read()
        self.ddr.hang_read_if = lambda arid: arid != demand

    async def _empty_cache(self) -> None:
        """Each round starts from an empty cache: nothing left to write back, no line
        or prefetch slot held from the round before."""
        await self.send(L1Op(flush=True))
        await self.send(L1Op(clear=True))
        await self.idle(4)

    async def _watch_full(self) -> None:
        while not self._slot_full:
            await FallingEdge(self.clock)
            self._slot_full = bool(int(self.dut.pf_full.value))

    async def _slow_round(self) -> None:
        geo, rng, span = self.geo, self.rng, self.depth + 1
        await self._empty_cache()
        # Starts a window apart: no miss falls in an earlier window (none waits on the
        # slow read, which would time out).
        lines = [span * i for i in rng.sample(range(geo.lines // span - 1), self.RESTARTS)]
        self._slot_full = False
        watch = cocotb.start_soon(self._watch_full())
        side = cocotb.start_soon(self._hang_a_prefetch())
        for line in lines:
            await self.send(L1Op(re=True, raddr=geo.entry(line, rng)))
        await side
        await self.idle(self.ddr.hang_cycles + 4 * self.ddr.read_latency[1])
        watch.cancel()
        self.full += self._slot_full
        for line in lines:
            for k in (1, self.depth):
                await self.send(L1Op(re=True, raddr=geo.entry(line + k, rng)))
        # The driver holds the last request's inputs until the next item: end on idles.
        await self.idle(4)

    async def _round(self, kind: str) -> None:
        geo, rng = self.geo, self.rng
        await self._empty_cache()
        line = rng.randrange(geo.lines - self.depth)
        injected = self.ddr.injected
        side = cocotb.start_soon(self._hold() if kind == "kept" else self._fail_a_prefetch())
        await self.send(L1Op(re=True, raddr=geo.entry(line, rng)))
        if kind == "kept":
            await self.send(L1Op(re=True, raddr=geo.entry(line + self.depth, rng)))
        else:
            # The failed read's SLVERR must reach its slot before a miss waits on it (a
            # miss waiting for a failed prefetch faults, as a demand read would).
            for _ in range(2000):
                if self.ddr.fail_read_if is None:
                    break
                await self.idle(1)
            await self.idle(64)
            for k in range(1, self.depth + 1):
                await self.send(L1Op(re=True, raddr=geo.entry(line + k, rng)))
        await self.idle(4)
        await side
        if kind == "error":
            self.failed += self.ddr.injected > injected and self.ddr.fail_read_if is None

    async def body(self) -> None:
        for _ in range(self.rounds):
            await self._round("kept")
            await self._round("error")
            await self._slow_round()
