# SPDX-License-Identifier: Apache-2.0
"""AxisSinkAgent: takes a stream the DUT produces, with random back-pressure."""

from __future__ import annotations

import logging
from collections.abc import Iterator

from cocotb.triggers import Event
from cocotbext.axi import AxiStreamBus, AxiStreamSink
from pyuvm import uvm_agent, uvm_analysis_port

from uvm_env.common.axis_bus import lane_bits


class AxisSinkAgent(uvm_agent):
    bus: AxiStreamBus
    clock: object
    reset: object
    pause: Iterator[bool] | None = None   # back-pressure pattern; None = always ready

    def build_phase(self) -> None:
        self.ap = uvm_analysis_port("ap", self)
        self.sink = AxiStreamSink(self.bus, self.clock, self.reset, reset_active_level=False,
                                  byte_size=lane_bits(self.bus))
        self.sink.log.setLevel(logging.WARNING)  # per-frame INFO logs cost more than the sim
        if self.pause is not None:
            self.sink.set_pause_generator(self.pause)
        self.n_frames = 0
        self._progress = Event()

    async def run_phase(self) -> None:
        while True:
            frame = await self.sink.recv()
            self.n_frames += 1
            self.ap.write(tuple(frame.tdata))
            self._progress.set()

    async def wait_for(self, n: int) -> None:
        """Return once n frames in total have been received (the test's timeout bounds it)."""
        while self.n_frames < n:
            self._progress.clear()
            await self._progress.wait()
