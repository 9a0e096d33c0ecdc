# SPDX-License-Identifier: Apache-2.0
"""HandshakeProbe: clock-cycle numbers of every beat on the token-FSM core's streams.

A passive monitor, counted in clock cycles (never wall-clock or sim time): the
cycle of every command, result, mask and load transfer, plus the cycles in which
the core refused an offered command (TVALID high, TREADY low). Rates measured
from these are the DUT's, whatever the testbench's pace.
"""

from __future__ import annotations

from dataclasses import dataclass

from cocotb.triggers import RisingEdge


@dataclass(frozen=True)
class Window:
    """Command beats the core took between two probe marks."""

    beats: int          # commands accepted
    span: int           # cycles from the first acceptance to the last, inclusive
    refused: int        # cycles in that span where a command was offered and refused

    @property
    def per_cycle(self) -> float:
        return self.beats / self.span if self.span else 0.0


class HandshakeProbe:
    def __init__(self, dut: object, clock: object) -> None:
        self.dut, self.clock = dut, clock
        self.cycle = 0
        self.cmd: list[int] = []
        self.cmd_refused: list[int] = []
        self.rsp: list[int] = []
        self.mask: list[tuple[int, int]] = []    # (cycle, tlast)
        self.mask_idle: list[int] = []           # cycles with no mask beat offered
        self.load: list[int] = []
        self.running = False

    async def run(self) -> None:
        d = self.dut
        edge = RisingEdge(self.clock)
        self.running = True
        while self.running:
            await edge
            self.cycle += 1
            if d.s_axis_cmd_tvalid.value:
                if d.s_axis_cmd_tready.value:
                    self.cmd.append(self.cycle)
                else:
                    self.cmd_refused.append(self.cycle)
            if d.m_axis_rsp_tvalid.value and d.m_axis_rsp_tready.value:
                self.rsp.append(self.cycle)
            if d.m_axis_mask_tvalid.value:
                if d.m_axis_mask_tready.value:
                    self.mask.append((self.cycle, int(d.m_axis_mask_tlast.value)))
            else:
                self.mask_idle.append(self.cycle)
            if d.s_axis_load_tvalid.value and d.s_axis_load_tready.value:
                self.load.append(self.cycle)

    def mark(self) -> tuple[int, int, int, int]:
        return len(self.cmd), len(self.rsp), len(self.mask), len(self.load)

    def cmd_window(self, mark: tuple[int, int, int, int], count: int | None = None) -> Window:
        """Command acceptance since ``mark`` (the first ``count`` beats, if given)."""
        c = self.cmd[mark[0]:]
        if count is not None:
            c = c[:count]
        if not c:
            return Window(0, 0, 0)
        refused = sum(1 for x in self.cmd_refused if c[0] <= x <= c[-1])
        return Window(len(c), c[-1] - c[0] + 1, refused)

    def mask_gaps(self, mark: tuple[int, int, int, int]) -> tuple[int, int, int]:
        """(beats, span, cycles without a beat offered) of the mask stream since ``mark``."""
        m = self.mask[mark[2]:]
        if not m:
            return 0, 0, 0
        first, last = m[0][0], m[-1][0]
        gaps = sum(1 for x in self.mask_idle if first <= x <= last)
        return len(m), last - first + 1, gaps
