# SPDX-License-Identifier: Apache-2.0
"""RamScoreboard: a dict model of common_ram_sdp, read-first on collisions."""

from __future__ import annotations

from cocotb_coverage.coverage import CoverCross, CoverPoint
from pyuvm import uvm_subscriber

from uvm_env.common.ram_item import RamOp
from uvm_env.common.scoreboard_base import ScoreboardBase


class RamScoreboard(ScoreboardBase):
    cov_prefix = "common.ram"

    def build_phase(self) -> None:
        super().build_phase()
        self.model: dict[int, int] = {}
        self.sub = _OpSubscriber("sub", self)
        self.analysis_export = self.sub.analysis_export
        p = self.cov_prefix

        @CoverPoint(f"{p}.we", xf=lambda op: op.we, bins=[False, True])
        @CoverPoint(f"{p}.re", xf=lambda op: op.re, bins=[False, True])
        @CoverCross(f"{p}.we_x_re", items=[f"{p}.we", f"{p}.re"])
        @CoverPoint(f"{p}.collision", xf=lambda op: op.we and op.re and op.waddr == op.raddr,
                    bins=[True])
        def sample(op: RamOp) -> None:
            pass

        self._sample = sample

    def write_op(self, op: RamOp) -> None:
        self._sample(op)
        if op.re:
            # Read-first: the read sees the word as it was before this cycle's write.
            expected = self.model.get(op.raddr)
            if expected is not None:
                self.compare(f"read [{op.raddr}]", expected, op.rdata)
        if op.we:
            self.model[op.waddr] = op.wdata


class _OpSubscriber(uvm_subscriber):
    def write(self, tt: RamOp) -> None:
        self.get_parent().write_op(tt)
