# SPDX-License-Identifier: Apache-2.0
"""FsmDriver: streams commands without waiting for results, pairs results and masks in order.

The core answers every command with exactly one result (a MASK_BATCH: one per
named slot), in command order, and every MASK / MASK_BATCH slot whose result is
OK with one mask frame, in that order. So the
driver keeps the commands in flight in a FIFO and a collector coroutine takes
results (and masks) as they come, fills each command in and publishes it.
A LOAD's image goes to the load agent when the command is queued; the core
takes it only once the command is accepted. At most ``window`` commands are
in flight, so a sequence cannot run arbitrarily far ahead of the DUT.

A reset (abort()) drops every command in flight, every queued beat and the image being
loaded; the collector starts over, since it may have been waiting for the mask of a
command the core forgot. While `resetting`, items are completed without being sent.
"""

from __future__ import annotations

from collections import deque

import cocotb
from cocotb.simtime import get_sim_time
from cocotb.triggers import Event
from cocotbext.axi import AxiStreamFrame, AxiStreamSink, AxiStreamSource
from pyuvm import uvm_analysis_port, uvm_driver

from uvm_env.fsm.fsm_item import FsmCmd
from uvm_env.fsm.fsm_load_bfm import FsmLoadAgent
from uvm_env.fsm.protocol import MASK_OPS, OP_LOAD, OP_MASK_BATCH, ST_OK, FsmRsp


class FsmDriver(uvm_driver):
    source: AxiStreamSource
    rsp_sink: AxiStreamSink
    mask_sink: AxiStreamSink
    loader: FsmLoadAgent
    window: int = 64

    def build_phase(self) -> None:
        self.ap = uvm_analysis_port("ap", self)
        self.inflight: deque[FsmCmd] = deque()
        self.space = Event()
        self.space.set()
        self.drained = Event()
        self.drained.set()
        self.sent = 0
        self.completed = 0
        self.aborted = 0
        self.resetting = False

    async def run_phase(self) -> None:
        self.collector = cocotb.start_soon(self._collect())
        while True:
            cmd = await self.seq_item_port.get_next_item()
            while len(self.inflight) >= self.window and not self.resetting:
                self.space.clear()
                await self.space.wait()
            if self.resetting:
                cmd.aborted = True
                cmd.done.set()
                self.seq_item_port.item_done()
                continue
            cmd.seq_no = self.sent
            cmd.sink_stalled = bool(getattr(self.rsp_sink, "pause", False))
            self.sent += 1
            self.inflight.append(cmd)
            self.drained.clear()
            if cmd.op == OP_LOAD:
                self.loader.send(cmd.image or b"", cmd.load_keep_last)
            frame = AxiStreamFrame(tdata=cmd.beats())
            cmd.frame = frame
            self.source.send_nowait(frame)
            self.seq_item_port.item_done()

    async def wait_drained(self) -> None:
        """Return once every command sent so far has its result (and mask)."""
        await self.drained.wait()

    def abort(self) -> None:
        """rst_ni is low: the core forgot everything in flight."""
        self.resetting = True
        self.collector.cancel()
        for cmd in self.inflight:
            cmd.aborted = True
            cmd.done.set()
        self.aborted += len(self.inflight)
        self.inflight.clear()
        for q in (self.source, self.rsp_sink, self.mask_sink):
            q.clear()
        self.loader.abort()
        self.space.set()
        self.drained.set()

    def resume(self) -> None:
        self.resetting = False
        self.collector = cocotb.start_soon(self._collect())

    async def _collect(self) -> None:
        while True:
            frame = await self.rsp_sink.recv()
            beats = list(frame.tdata)
            if not self.inflight:
                raise AssertionError(f"result {beats} with no command in flight")
            # Popped only once complete: a reset while its mask is awaited aborts it.
            cmd = self.inflight[0]
            cmd.rsps, cmd.masks = [], []
            n_results = len(cmd.slots) if cmd.op == OP_MASK_BATCH else 1
            for i in range(n_results):
                if i:
                    frame = await self.rsp_sink.recv()
                    beats = list(frame.tdata)
                if len(beats) != 1:
                    raise AssertionError(f"{cmd}: result frame of {len(beats)} beats")
                rsp = FsmRsp.decode(beats[0])
                mask = None
                if cmd.op in MASK_OPS and rsp.status == ST_OK and rsp.op == cmd.op:
                    mframe = await self.mask_sink.recv()
                    mask = [int(x) for x in mframe.tdata]
                cmd.rsps.append(rsp)
                cmd.masks.append(mask)
            self.inflight.popleft()
            cmd.rsp, cmd.mask = cmd.rsps[0], cmd.masks[0]
            cmd.t_cmd = float(cmd.frame.sim_time_start or 0)
            cmd.t_rsp = float(get_sim_time("ns"))
            self.completed += 1
            self.ap.write(cmd)
            cmd.done.set()
            self.space.set()
            if not self.inflight:
                self.drained.set()
