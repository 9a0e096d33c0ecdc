# SPDX-License-Identifier: Apache-2.0
"""StreamEnv: source agent -> DUT -> sink agent, in-order scoreboard, coverage."""

from __future__ import annotations

from collections.abc import Callable

from pyuvm import ConfigDB, uvm_env

from uvm_env.common.axis_bus import axis_bus
from uvm_env.common.axis_sink_agent import AxisSinkAgent
from uvm_env.common.axis_source_agent import AxisSourceAgent
from uvm_env.common.in_order_scoreboard import InOrderScoreboard
from uvm_env.common.pause import random_pause
from uvm_env.common.stream_coverage import StreamCoverage


class StreamEnv(uvm_env):
    """For blocks whose output must equal their input, in order (FIFOs, slices).

    The test sets `dut`, `clock`, `reset`, `ports` (in_valid, in_ready,
    in_data, out_valid, out_ready, out_data), `cov_prefix` and `level`
    before build_phase.
    """

    dut: object
    clock: object
    reset: object
    ports: dict[str, str]
    cov_prefix: str
    level: Callable[[], str]

    def build_phase(self) -> None:
        cfg = ConfigDB().get(self, "", "cfg")
        p = self.ports
        self.src = AxisSourceAgent("src", self)
        self.src.bus = axis_bus(self.dut, {"tvalid": p["in_valid"], "tready": p["in_ready"],
                                           "tdata": p["in_data"]})
        self.src.clock, self.src.reset = self.clock, self.reset
        self.src.pause = random_pause(cfg.child_rng("idle"), cfg.p_idle)

        self.snk = AxisSinkAgent("snk", self)
        self.snk.bus = axis_bus(self.dut, {"tvalid": p["out_valid"], "tready": p["out_ready"],
                                           "tdata": p["out_data"]})
        self.snk.clock, self.snk.reset = self.clock, self.reset
        self.snk.pause = random_pause(cfg.child_rng("stall"), cfg.p_stall)

        self.scoreboard = InOrderScoreboard("scoreboard", self)

        self.cov = StreamCoverage("cov", self)
        self.cov.prefix, self.cov.dut = self.cov_prefix, self.dut
        self.cov.clock, self.cov.reset = self.clock, self.reset
        self.cov.ports = {k: p[k] for k in ("in_valid", "in_ready", "out_valid", "out_ready")}
        self.cov.level = self.level

    def connect_phase(self) -> None:
        self.src.ap.connect(self.scoreboard.expected_export)
        self.snk.ap.connect(self.scoreboard.actual_export)
