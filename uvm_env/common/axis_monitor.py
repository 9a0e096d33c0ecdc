# SPDX-License-Identifier: Apache-2.0
"""AxisMonitor: publishes every frame seen on a stream (valid && ready beats)."""

from __future__ import annotations

import logging

from cocotbext.axi import AxiStreamBus, AxiStreamMonitor
from pyuvm import uvm_analysis_port, uvm_component

from uvm_env.common.axis_bus import lane_bits


class AxisMonitor(uvm_component):
    bus: AxiStreamBus
    clock: object
    reset: object

    def build_phase(self) -> None:
        self.ap = uvm_analysis_port("ap", self)
        self.mon = AxiStreamMonitor(self.bus, self.clock, self.reset, reset_active_level=False,
                                    byte_size=lane_bits(self.bus))
        self.mon.log.setLevel(logging.WARNING)  # per-frame INFO logs cost more than the sim

    async def run_phase(self) -> None:
        while True:
            frame = await self.mon.recv()
            self.ap.write(tuple(frame.tdata))
