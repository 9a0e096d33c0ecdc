# SPDX-License-Identifier: Apache-2.0
"""AxisSourceAgent: sequencer + driver + monitor for a stream the DUT consumes."""

from __future__ import annotations

import logging
from collections.abc import Iterator

from cocotbext.axi import AxiStreamBus, AxiStreamSource
from pyuvm import uvm_agent, uvm_sequencer

from uvm_env.common.axis_bus import lane_bits
from uvm_env.common.axis_driver import AxisDriver
from uvm_env.common.axis_monitor import AxisMonitor


class AxisSourceAgent(uvm_agent):
    # Set by the parent right after creation, before this agent's build_phase.
    bus: AxiStreamBus
    clock: object
    reset: object
    pause: Iterator[bool] | None = None   # idle pattern; None = never idle
    monitor_input: bool = True             # publish accepted frames on self.ap

    def build_phase(self) -> None:
        self.seqr = uvm_sequencer("seqr", self)
        self.driver = AxisDriver("driver", self)
        self.driver.source = AxiStreamSource(self.bus, self.clock, self.reset,
                                             reset_active_level=False,
                                             byte_size=lane_bits(self.bus))
        # Per-frame INFO logs cost more than the simulation itself.
        self.driver.source.log.setLevel(logging.WARNING)
        if self.pause is not None:
            self.driver.source.set_pause_generator(self.pause)
        self.monitor = None
        if self.monitor_input:
            self.monitor = AxisMonitor("monitor", self)
            self.monitor.bus, self.monitor.clock, self.monitor.reset = (
                self.bus, self.clock, self.reset)

    def connect_phase(self) -> None:
        self.driver.seq_item_port.connect(self.seqr.seq_item_export)
        if self.monitor is not None:
            self.ap = self.monitor.ap
