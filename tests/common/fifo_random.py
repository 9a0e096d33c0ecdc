# SPDX-License-Identifier: Apache-2.0
"""fifo_random: common_fifo_sync against a queue, random idle and back-pressure."""

from __future__ import annotations

import pyuvm

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
