# SPDX-License-Identifier: Apache-2.0
"""FsmEnv: command / result / mask streams, table loader, CSR master, interrupt monitor,
hazard-wait monitor, scoreboard, and a shadow predictor the sequences consult to choose
stimulus."""

from __future__ import annotations

import logging

from cocotbext.axi import (
    AxiLiteBus,
    AxiLiteMaster,
    AxiStreamBus,
    AxiStreamSink,
    AxiStreamSource,
)
from pyuvm import ConfigDB, uvm_env, uvm_sequencer

from uvm_env.common.axis_bus import lane_bits
from uvm_env.common.pause import random_pause, set_pattern, stall_axil
from uvm_env.fsm.fsm_driver import FsmDriver
from uvm_env.fsm.fsm_irq_monitor import FsmIrqMonitor
from uvm_env.fsm.fsm_load_bfm import FsmLoadAgent
from uvm_env.fsm.fsm_predictor import FsmParams, FsmPredictor
from uvm_env.fsm.fsm_scoreboard import FsmScoreboard
from uvm_env.fsm.hazard_monitor import HazardMonitor
from uvm_env.fsm.protocol import CSR


class FsmEnv(uvm_env):
    dut: object
    clock: object
    reset: object

    def build_phase(self) -> None:
        self.cfg = cfg = ConfigDB().get(self, "", "cfg")
        dut = self.dut
        self.params = FsmParams.from_dut(dut)
        cmd_bus = AxiStreamBus.from_prefix(dut, "s_axis_cmd")
        rsp_bus = AxiStreamBus.from_prefix(dut, "m_axis_rsp")
        mask_bus = AxiStreamBus.from_prefix(dut, "m_axis_mask")
        self.source = AxiStreamSource(cmd_bus, self.clock, self.reset, reset_active_level=False,
                                      byte_size=lane_bits(cmd_bus))
        self.rsp_sink = AxiStreamSink(rsp_bus, self.clock, self.reset, reset_active_level=False,
                                      byte_size=lane_bits(rsp_bus))
        self.mask_sink = AxiStreamSink(mask_bus, self.clock, self.reset,
                                       reset_active_level=False, byte_size=lane_bits(mask_bus))
        for model in (self.source, self.rsp_sink, self.mask_sink):
            model.log.setLevel(logging.WARNING)
        self.csr = AxiLiteMaster(AxiLiteBus.from_prefix(dut, "s_axil"), self.clock, self.reset,
                                 reset_active_level=False)
        self.csr.write_if.log.setLevel(logging.WARNING)
        self.csr.read_if.log.setLevel(logging.WARNING)

        self.seqr = uvm_sequencer("seqr", self)
        self.driver = FsmDriver("driver", self)
        self.driver.source, self.driver.rsp_sink = self.source, self.rsp_sink
        self.driver.mask_sink = self.mask_sink
        self.loader = FsmLoadAgent("loader", self)
        self.loader.dut, self.loader.clock = dut, self.clock
        self.driver.loader = self.loader
        self.irq_mon = FsmIrqMonitor("irq_mon", self)
        self.irq_mon.dut = dut
        self.scoreboard = FsmScoreboard("scoreboard", self)
        self.hazard_mon = HazardMonitor("hazard_mon", self)
        self.hazard_mon.dut = dut
        self.scoreboard.params = self.params
        # The sequences' own view of the core, advanced when a command is sent.
        self.shadow = FsmPredictor(self.params)
        self.set_traffic(cfg.p_idle, cfg.p_stall)

    def connect_phase(self) -> None:
        self.driver.seq_item_port.connect(self.seqr.seq_item_export)
        self.driver.ap.connect(self.scoreboard.analysis_export)
        self.scoreboard.mask_sink = self.mask_sink
        self.scoreboard.driver = self.driver
        self.hazard_mon.scoreboard = self.scoreboard

    def abort_for_reset(self) -> None:
        """rst_ni is low: drop what is in flight (FsmDriver.abort)."""
        self.driver.abort()

    def power_on(self) -> None:
        """The DUT was reset: both predictors start over; the driver sends again."""
        self.scoreboard.pred.power_on()
        self.shadow.power_on()
        self.driver.resume()

    def set_traffic(self, p_idle: float, p_stall: float, tag: str = "") -> None:
        """Random idles on both input streams and back-pressure on both outputs."""
        cfg = self.cfg
        set_pattern(self.source, random_pause(cfg.child_rng(f"idle{tag}"), p_idle)
                    if p_idle else None)
        set_pattern(self.rsp_sink, random_pause(cfg.child_rng(f"stall{tag}"), p_stall)
                    if p_stall else None)
        set_pattern(self.mask_sink, random_pause(cfg.child_rng(f"mstall{tag}"), p_stall)
                    if p_stall else None)
        self.loader.set_pause(random_pause(cfg.child_rng(f"lidle{tag}"), p_idle)
                              if p_idle else None)
        stall_axil(self.csr, cfg.child_rng, p_idle, p_stall, tag)

    async def read_csr(self, name: str | int) -> int:
        word = name if isinstance(name, int) else CSR[name]
        return await self.csr.read_dword(4 * word)

    async def write_csr(self, name: str, value: int) -> None:
        await self.csr.write_dword(4 * CSR[name], value)

    async def clear_irq(self) -> None:
        """W1C the violation flag; call with nothing in flight so the models agree."""
        await self.write_csr("IRQ_STATUS", 1)
        self.scoreboard.pred.clear_irq()
        self.shadow.clear_irq()
