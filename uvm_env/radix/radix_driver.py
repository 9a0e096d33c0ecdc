# SPDX-License-Identifier: Apache-2.0
"""RadixDriver: sends command frames back to back, collects responses in order.

The controller answers every command with exactly one response frame, in
order. The driver keeps up to `window` commands in flight without waiting for
their responses (so the command stream stays busy while the core works), and a
collector pairs each response frame with the oldest command in flight. A
sequence that needs a response before its next command awaits `cmd.done`.
A missing response ends in the test's timeout rather than a silent pass.
"""

from __future__ import annotations

from collections import deque

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

    def build_phase(self) -> None:
        self.ap = uvm_analysis_port("ap", self)
        self.in_flight: deque[RadixCmd] = deque()
        self.max_in_flight = 0
        self.space = Event()

    async def run_phase(self) -> None:
        cocotb.start_soon(self._collect())
        while True:
            cmd = await self.seq_item_port.get_next_item()
            while len(self.in_flight) >= self.window:
                self.space.clear()
                await self.space.wait()
            cmd.data_w = self.data_w
            cmd.in_flight_at_send = len(self.in_flight)
            cmd.rsp_level_at_send = (int(self.level_probe.value)
                                     if self.level_probe is not None else 0)
            cmd.t_sent = get_sim_time("ns")
            self.in_flight.append(cmd)
            self.max_in_flight = max(self.max_in_flight, len(self.in_flight))
            await self.source.send(AxiStreamFrame(tdata=cmd.beats()))
            self.seq_item_port.item_done()

    async def _collect(self) -> None:
        while True:
            frame = await self.sink.recv()
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
            self.ap.write(cmd)
            cmd.done.set()
            self.space.set()
