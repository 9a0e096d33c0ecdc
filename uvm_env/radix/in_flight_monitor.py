# SPDX-License-Identifier: Apache-2.0
"""InFlightMonitor: the commands in flight at radix_top's stream ports, counted in the
testbench every cycle, so the CSRs IN_FLIGHT, IN_FLIGHT_MAX and IN_FLIGHT_HIST<b> can be
compared exactly (docs/radix-protocol.md defines them).

A command is in flight from its first command beat's handshake to its response's TLAST
handshake. The histogram counts, per cycle with n >= 1 commands in flight, bin
ceil(log2(n)) capped at the last bin. The RTL (radix_occupancy) trails by two cycles;
the comparison is made when the streams are idle."""

from __future__ import annotations

import cocotb
from cocotb.triggers import RisingEdge

from uvm_env.radix.csr_regs import BLOCK

#: Bins of the histogram: the register map's IN_FLIGHT_HIST array.
BINS = sum(1 for r in BLOCK.registers if r.name.startswith("IN_FLIGHT_HIST"))


def bin_of(n: int, bins: int = BINS) -> int:
    """The histogram bin of n >= 1 commands in flight: (2**(b-1), 2**b], the last open."""
    return min((n - 1).bit_length(), bins - 1)


class InFlightMonitor:
    def __init__(self, dut: object, clock: object) -> None:
        self.dut, self.clock = dut, clock
        self.count = 0
        self.max = 0
        self.hist = [0] * BINS
        self._first_beat = True
        cocotb.start_soon(self._run())

    def _clear(self) -> None:
        self.count, self.max, self.hist, self._first_beat = 0, 0, [0] * BINS, True

    async def _run(self) -> None:
        d = self.dut
        cv, cr, cl = d.s_axis_cmd_tvalid, d.s_axis_cmd_tready, d.s_axis_cmd_tlast
        rv, rr, rl = d.m_axis_rsp_tvalid, d.m_axis_rsp_tready, d.m_axis_rsp_tlast
        rst, edge = d.rst_ni, RisingEdge(self.clock)
        # Every cycle of every radix test runs this loop, so the reads short-circuit
        # (reading all seven every cycle cost radix_random 16 % more wall time).
        while True:
            await edge
            # Values read here are the ones this edge samples.
            if rst.value != 1:
                self._clear()
                continue
            n = self.count
            if n:
                self.hist[bin_of(n)] += 1
            if cv.value == 1 and cr.value == 1:
                if self._first_beat:
                    n += 1
                self._first_beat = cl.value == 1
            if rv.value == 1 and rr.value == 1 and rl.value == 1:
                n -= 1
            if self.count > self.max:
                self.max = self.count
            self.count = n

    def expected(self) -> dict[str, int]:
        """The CSR values once the streams have been idle for two cycles."""
        return {"IN_FLIGHT": self.count, "IN_FLIGHT_MAX": self.max,
                **{f"IN_FLIGHT_HIST{b}": v for b, v in enumerate(self.hist)}}
