# SPDX-License-Identifier: Apache-2.0
"""InFlightMonitor: the commands in flight at radix_top's stream ports, counted in the
testbench every cycle, so the CSRs IN_FLIGHT, IN_FLIGHT_MAX and IN_FLIGHT_HIST<b> can be
compared exactly (docs/radix-protocol.md defines them).

A command counts from the cycle after its first command beat's handshake up to and
including the cycle of its response's TLAST handshake (the count steps at those edges).
The histogram counts, per cycle with n >= 1 commands in flight, bin ceil(log2(n)) capped
at the last bin. The RTL (radix_occupancy) trails by two cycles, so the histogram and
the maximum are compared with the streams idle; IN_FLIGHT itself is compared at any
time, against the count each AXI-Lite read of it sampled."""

from __future__ import annotations

import cocotb
from cocotb.triggers import RisingEdge

from uvm_env.radix.csr_regs import BLOCK, CSR

#: Bins of the histogram: the register map's IN_FLIGHT_HIST array.
BINS = sum(1 for r in BLOCK.registers if r.name.startswith("IN_FLIGHT_HIST"))
IN_FLIGHT_INDEX = CSR["IN_FLIGHT"]


def bin_of(n: int, bins: int = BINS) -> int:
    """The histogram bin of n >= 1 commands in flight: (2**(b-1), 2**b], the last open."""
    return min((n - 1).bit_length(), bins - 1)


class InFlightMonitor:
    def __init__(self, dut: object, clock: object) -> None:
        self.dut, self.clock = dut, clock
        self.count = 0
        self.peak = 0
        self.hist = [0] * BINS
        self._first_beat = True
        # IN_FLIGHT as each AXI-Lite read of it sampled it (the CSR block latches the
        # value in the cycle it takes the read address), oldest first; append-only, so a
        # reader can note where its read's sample will be.
        self.read_samples: list[int] = []
        cocotb.start_soon(self._run())

    def _clear(self) -> None:
        self.count, self.peak, self.hist, self._first_beat = 0, 0, [0] * BINS, True

    async def _run(self) -> None:
        d = self.dut
        cv, cr, cl = d.s_axis_cmd_tvalid, d.s_axis_cmd_tready, d.s_axis_cmd_tlast
        rv, rr, rl = d.m_axis_rsp_tvalid, d.m_axis_rsp_tready, d.m_axis_rsp_tlast
        rst, edge = d.rst_ni, RisingEdge(self.clock)
        arv, arr, ara = d.s_axil_arvalid, d.s_axil_arready, d.s_axil_araddr
        in_flight_addr = 4 * IN_FLIGHT_INDEX
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
            if arv.value == 1 and arr.value == 1 and int(ara.value) == in_flight_addr:
                self.read_samples.append(n)
            if cv.value == 1 and cr.value == 1:
                if self._first_beat:
                    n += 1
                self._first_beat = cl.value == 1
            if rv.value == 1 and rr.value == 1 and rl.value == 1:
                n -= 1
            if self.count > self.peak:
                self.peak = self.count
            self.count = n

    def expected(self) -> dict[str, int]:
        """IN_FLIGHT_MAX and the histogram once the streams have been idle for two cycles
        (the bins are 32-bit counters)."""
        return {"IN_FLIGHT_MAX": self.peak,
                **{f"IN_FLIGHT_HIST{b}": v & 0xFFFF_FFFF for b, v in enumerate(self.hist)}}
