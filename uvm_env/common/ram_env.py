# SPDX-License-Identifier: Apache-2.0
"""RamEnv: sequencer + driver on common_ram_sdp, and its scoreboard."""

from __future__ import annotations

from pyuvm import uvm_env, uvm_sequencer

from uvm_env.common.ram_driver import RamDriver
from uvm_env.common.ram_scoreboard import RamScoreboard


class RamEnv(uvm_env):
    dut: object
    clock: object

    def build_phase(self) -> None:
        self.seqr = uvm_sequencer("seqr", self)
        self.driver = RamDriver("driver", self)
        self.driver.dut, self.driver.clock = self.dut, self.clock
        self.scoreboard = RamScoreboard("scoreboard", self)

    def connect_phase(self) -> None:
        self.driver.seq_item_port.connect(self.seqr.seq_item_export)
        self.driver.ap.connect(self.scoreboard.analysis_export)
