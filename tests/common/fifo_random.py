# SPDX-License-Identifier: Apache-2.0
"""fifo_random: common_fifo_sync against a queue, random idle and back-pressure; level_o,
full_o and empty_o against a count of the handshakes, every cycle."""

from __future__ import annotations

import cocotb
import pyuvm
from cocotb.triggers import FallingEdge

from uvm_env.common.stream_test import StreamTest


@pyuvm.test()
class FifoRandomTest(StreamTest):
    coverage_prefix = "common.fifo"
    require_full_coverage = True
    max_latency = 4   # three cycles through RAM and skid, plus one of sampling slack
    ports = {"in_valid": "in_valid_i", "in_ready": "in_ready_o", "in_data": "in_data_i",
             "out_valid": "out_valid_o", "out_ready": "out_ready_i", "out_data": "out_data_o"}

    def build_phase(self) -> None:
        super().build_phase()
        self.width = int(self.dut.Width.value)
        self.depth = int(self.dut.Depth.value)

    def level(self) -> str:
        lvl = int(self.dut.level_o.value)
        return "empty" if lvl == 0 else "full" if lvl == self.depth else "partial"

    async def body(self) -> None:
        cocotb.start_soon(self.status_monitor())
        await super().body()

    async def status_monitor(self) -> None:
        """At each falling edge the status outputs must describe the words taken in and
        not yet out; a handshake seen then changes the count at the next rising edge."""
        dut, sb, held = self.dut, self.env.scoreboard, 0
        while True:
            await FallingEdge(self.clock)
            got = (int(dut.level_o.value), int(dut.full_o.value), int(dut.empty_o.value),
                   int(dut.in_ready_o.value))
            want = (held, int(held == self.depth), int(held == 0), int(held < self.depth))
            if got != want:
                sb.compare("level_o, full_o, empty_o, in_ready_o", want, got)
            held += int(dut.in_valid_i.value) & got[3]
            held -= int(dut.out_valid_o.value) & int(dut.out_ready_i.value)
