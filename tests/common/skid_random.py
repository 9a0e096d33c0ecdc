# SPDX-License-Identifier: Apache-2.0
"""skid_random: common_skid_buffer passes every beat, in order, at one per cycle."""

from __future__ import annotations

import pyuvm

from uvm_env.common.stream_test import StreamTest


@pyuvm.test()
class SkidRandomTest(StreamTest):
    coverage_prefix = "common.skid"
    require_full_coverage = True
    max_latency = 2
    ports = {"in_valid": "in_valid_i", "in_ready": "in_ready_o", "in_data": "in_data_i",
             "out_valid": "out_valid_o", "out_ready": "out_ready_i", "out_data": "out_data_o"}

    def build_phase(self) -> None:
        super().build_phase()
        self.width = int(self.dut.Width.value)

    def level(self) -> str:
        # Two entries: the output register and the skid register behind it.
        if not self.dut.out_valid_o.value:
            return "empty"
        return "partial" if self.dut.in_ready_o.value else "full"
