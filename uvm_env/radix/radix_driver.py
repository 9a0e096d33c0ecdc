# SPDX-License-Identifier: Apache-2.0
"""RadixDriver: sends command frames back to back, collects responses in order.

The controller answers every command with exactly one response frame, in
order. The driver keeps up to `window` commands in flight without waiting for
their responses (so the command stream stays busy while the core works), and a
collector pairs each response frame with the oldest command in flight. A
sequence that needs a response before its next command awaits `cmd.done`.
A missing response ends in the test's timeout rather than a silent pass.

A reset (abort()) drops every command in flight: the DUT forgot them. Each is marked
aborted and its `done` set, so a waiting sequence goes on; while `resetting`, items the
sequences still hand over are completed without being sent. sent = completed + aborted
at every moment, which the test's end-of-run accounting checks.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

import cocotb
from cocotb.simtime import get_sim_time
from cocotb.triggers import Event
from cocotbext.axi import AxiStreamFrame, AxiStreamSink, AxiStreamSource
from pyuvm import uvm_analysis_port, uvm_driver

from uvm_env.radix.protocol import OP_EVICT, OP_MATCH, decode_rsp, trailer_beats
from uvm_env.radix.radix_item import RadixCmd


class RadixDriver(uvm_driver):
    source: AxiStreamSource
    sink: AxiStreamSink
    data_w: int = 512
    window: int = 8
    level_probe: object | None = None   # the DUT's response-FIFO level, for coverage
    # Called with each command just before its first beat is offered (a test arms a
    # DDR fault for one chosen command this way).
    before_send: Callable[[RadixCmd], None] | None = None

    def build_phase(self) -> None:
        self.ap = uvm_analysis_port("ap", self)
        self.in_flight: deque[RadixCmd] = deque()
        self.max_in_flight = 0
        self.space = Event()
        self.resetting = False
        self.sent = 0
        self.completed = 0
        self.aborted = 0

    async def run_phase(self) -> None:
        cocotb.start_soon(self._collect())
        while True:
            cmd = await self.seq_item_port.get_next_item()
            while len(self.in_flight) >= self.window and not self.resetting:
                self.space.clear()
                await self.space.wait()
            if self.resetting:
                cmd.aborted = True
                cmd.done.set()
                self.seq_item_port.item_done()
                continue
            cmd.data_w = self.data_w
            cmd.in_flight_at_send = len(self.in_flight)
            cmd.rsp_level_at_send = (int(self.level_probe.value)
                                     if self.level_probe is not None else 0)
            cmd.sink_stalled = bool(getattr(self.sink, "pause", False))
            cmd.t_sent = get_sim_time("ns")
            self.in_flight.append(cmd)
            self.sent += 1
            self.max_in_flight = max(self.max_in_flight, len(self.in_flight))
            if self.before_send is not None:
                self.before_send(cmd)
            await self.source.send(AxiStreamFrame(tdata=cmd.beats()))
            self.seq_item_port.item_done()

    def abort(self) -> None:
        """Reset is low: responses already received are still checked, the rest of the
        commands in flight and every queued beat are dropped."""
        self.resetting = True
        while not self.sink.empty():
            self._take(self.sink.recv_nowait())
        for cmd in self.in_flight:
            cmd.aborted = True
            cmd.done.set()
        self.aborted += len(self.in_flight)
        self.in_flight.clear()
        self.source.clear()
        self.space.set()

    def resume(self) -> None:
        self.resetting = False

    async def _collect(self) -> None:
        while True:
            self._take(await self.sink.recv())

    def _take(self, frame: AxiStreamFrame) -> None:
        """Pair one response frame with the oldest command in flight."""
        beats = list(frame.tdata)
        if not self.in_flight:
            raise AssertionError(f"response frame of {len(beats)} beats with no command")
        cmd = self.in_flight.popleft()
        cmd.t_done = get_sim_time("ns")
        # The trailer says how many KV indices the data beats hold.
        nt = trailer_beats(self.data_w)
        t0 = beats[-nt] if len(beats) >= nt else 0
        kv_count = ((t0 >> 32) & 0xFFFF_FFFF) if (t0 & 0xFF) in (OP_MATCH, OP_EVICT) else 0
        cmd.rsp = decode_rsp(beats, kv_count, self.data_w)
        cmd.rsp_beats = len(beats)
        cmd.rsp_raw = beats
        self.completed += 1
        self.ap.write(cmd)
        cmd.done.set()
        self.space.set()
