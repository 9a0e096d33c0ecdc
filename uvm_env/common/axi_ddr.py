# SPDX-License-Identifier: Apache-2.0
"""DdrModel: a cocotbext-axi AxiRam that behaves like a DDR controller behind a NoC.

Every read answers after a random latency (cycles, uniform in ``read_latency``),
counted from its address handshake: reads are pipelined, as in a DDR controller, so
reads with different IDs overlap and answer in the order they complete, while reads
with one ID answer in the order they were asked (AXI's rule; single-beat requests, as
the radix L1 caches issue). Every channel
sees random back-pressure, and a test can arm faults on the next read or write: an
error response (SLVERR) or a hang (the response comes ``hang_cycles`` late, long after
the master should have given up; a hung write is lost).
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable, Iterator

import cocotb
from cocotb.triggers import ClockCycles, Event
from cocotbext.axi import AxiBus, AxiRam
from cocotbext.axi.constants import AxiResp

from uvm_env.common.pause import random_pause, set_pattern


class InjectedError(Exception):
    """Raised inside the RAM model; cocotbext-axi answers it with SLVERR."""


class DdrModel:
    def __init__(self, dut: object, prefix: str, clock: object, reset: object, size: int,
                 rng: random.Random, read_latency: tuple[int, int] = (50, 70),
                 p_pause: float = 0.2, hang_cycles: int = 10_000,
                 ar_p_long: float = 0.0, ar_long_burst: int = 64) -> None:
        self.clock, self.rng = clock, rng
        self.read_latency, self.hang_cycles = read_latency, hang_cycles
        self.ram = AxiRam(AxiBus.from_prefix(dut, prefix), clock, reset,
                          reset_active_level=False, size=size)
        for log in (self.ram.write_if.log, self.ram.read_if.log):
            log.setLevel(logging.CRITICAL)   # injected errors are expected here
        # Armed faults: how many of the next reads / writes fail or hang.
        self.fail_reads = self.fail_writes = self.hang_reads = self.hang_writes = 0
        # One-shot: the next read to finish whose AXI ID passes this test answers SLVERR.
        self.fail_read_if: Callable[[int], bool] | None = None
        # One-shot: the next read whose AXI ID passes this test answers hang_cycles late
        # (later reads of its ID wait behind it, as AXI orders one ID's responses).
        self.hang_read_if: Callable[[int], bool] | None = None
        self.reads = self.writes = 0
        # Each armed fault that fired (an error answered or a hang begun): (case, AXI ID),
        # the read's ID or None for a write (AXI writes fail at the B response, which
        # this model does not tie to an AW here).
        self.injections: list[tuple[str, int | None]] = []
        self.ram.read_if._read = self._read
        # cocotbext-axi answers one read burst at a time; this keeps many in flight. Its
        # reader already runs (started out of reset at construction): restart it as ours.
        read_if = self.ram.read_if
        read_if._process_read = self._process_reads
        if read_if._process_read_cr is not None:
            read_if._process_read_cr.cancel()
            read_if._process_read_cr = cocotb.start_soon(read_if._process_read())
        self.ram.write_if._write = self._write
        self._ar_pattern: Iterator[bool] | None = None
        if p_pause:
            channels = (self.ram.read_if.ar_channel, self.ram.read_if.r_channel,
                        self.ram.write_if.aw_channel, self.ram.write_if.w_channel,
                        self.ram.write_if.b_channel)
            # ar_p_long: now and then a long AR stall (random_pause's p_long, up to
            # ar_long_burst cycles), so reads the master queued behind one another wait
            # long enough to meet later requests.
            for i, ch in enumerate(channels):
                pattern = random_pause(random.Random(rng.random() + i), p_pause,
                                       p_long=ar_p_long if i == 0 else 0.0,
                                       long_burst=ar_long_burst)
                ch.set_pause_generator(pattern)
                if i == 0:
                    self._ar_pattern = pattern

    def hold_ar(self, hold: bool) -> None:
        """Hold AR's ready low from the next cycle on (True) until released (False), which
        resumes the random pauses: for a test that needs reads queued in the master."""
        chan = self.ram.read_if.ar_channel
        set_pattern(chan, None if hold else self._ar_pattern)
        chan.pause = hold

    # The RAM content, for images and initialisation; bypasses the bus.
    def peek(self, address: int, length: int) -> bytes:
        return bytes(self.ram.read(address, length))

    def poke(self, address: int, data: bytes) -> None:
        self.ram.write(address, data)

    async def _process_reads(self) -> None:
        read_if = self.ram.read_if
        last: dict[int, Event] = {}   # per ID, the answer before: AXI keeps an ID in order
        while True:
            ar = await read_if.ar_channel.recv()
            done = Event()
            cocotb.start_soon(self._answer(ar, last.get(int(ar.arid)), done))
            last[int(ar.arid)] = done

    async def _answer(self, ar: object, before: Event | None, done: Event) -> None:
        read_if = self.ram.read_if
        if int(ar.arlen) != 0:
            raise AssertionError("DdrModel serves single-beat reads only")
        lanes = read_if.byte_lanes
        r = read_if.r_channel._transaction_obj()
        r.rid, r.rlast, r.rresp = int(ar.arid), 1, AxiResp.OKAY
        try:
            data = await self._read(int(ar.araddr) // lanes * lanes, lanes, int(ar.arid))
        except InjectedError:
            data, r.rresp = bytes(lanes), AxiResp.SLVERR
        r.rdata = int.from_bytes(data, "little")
        if before is not None:
            await before.wait()
        await read_if.r_channel.send(r)
        done.set()

    async def _read(self, address: int, length: int, arid: int | None = None) -> bytes:
        self.reads += 1
        lo, hi = self.read_latency
        hang_if = (self.hang_read_if is not None and arid is not None
                   and self.hang_read_if(arid))
        if self.hang_reads or hang_if:
            if hang_if:
                self.hang_read_if = None
            else:
                self.hang_reads -= 1
            self._fired("hang_reads", arid)
            await ClockCycles(self.clock, self.hang_cycles)
        else:
            await ClockCycles(self.clock, self.rng.randint(lo, hi))
        if self.fail_reads:
            self.fail_reads -= 1
            self._fired("fail_reads", arid)
            raise InjectedError(f"read {address:#x}")
        if self.fail_read_if is not None and arid is not None and self.fail_read_if(arid):
            self.fail_read_if = None
            self._fired("fail_reads", arid)
            raise InjectedError(f"read {address:#x} (ID {arid})")
        return bytes(self.ram.read(address, length))

    async def _write(self, address: int, data: bytes) -> None:
        self.writes += 1
        if self.hang_writes:
            # The write is lost: a master that gave up on it must not count on it.
            self.hang_writes -= 1
            self._fired("hang_writes", None)
            await ClockCycles(self.clock, self.hang_cycles)
            raise InjectedError(f"write {address:#x} timed out")
        if self.fail_writes:
            self.fail_writes -= 1
            self._fired("fail_writes", None)
            raise InjectedError(f"write {address:#x}")
        self.ram.write(address, data)

    @property
    def injected(self) -> int:
        """Armed faults that have fired."""
        return len(self.injections)

    def _fired(self, case: str, axi_id: int | None) -> None:
        self.injections.append((case, axi_id))
