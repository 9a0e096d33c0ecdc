# SPDX-License-Identifier: Apache-2.0
"""RamDriver: the only code that touches common_ram_sdp's pins; one op per cycle."""

from __future__ import annotations

from cocotb.triggers import FallingEdge, ReadOnly, RisingEdge
from pyuvm import uvm_analysis_port, uvm_driver


class RamDriver(uvm_driver):
    dut: object
    clock: object

    def build_phase(self) -> None:
        self.ap = uvm_analysis_port("ap", self)

    async def run_phase(self) -> None:
        dut = self.dut
        dut.we_i.value = 0
        dut.re_i.value = 0
        while True:
            op = await self.seq_item_port.get_next_item()
            # Drive mid-cycle, sample after the edge: the same in every simulator.
            await FallingEdge(self.clock)
            dut.we_i.value, dut.waddr_i.value, dut.wdata_i.value = int(op.we), op.waddr, op.wdata
            dut.re_i.value, dut.raddr_i.value = int(op.re), op.raddr
            await RisingEdge(self.clock)
            await ReadOnly()
            if op.re:
                op.rdata = int(dut.rdata_o.value)
            self.ap.write(op)
            self.seq_item_port.item_done()
            await FallingEdge(self.clock)
            dut.we_i.value = 0
            dut.re_i.value = 0
