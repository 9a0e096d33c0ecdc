# SPDX-License-Identifier: Apache-2.0
"""RamDriver: the only code that touches common_ram_sdp's pins; one op at a time (a read
waits out ReadLatency before the next op)."""

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
        # rdata_o follows re_i by ReadLatency edges; the pipeline then holds it.
        latency = int(dut.ReadLatency.value)
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
            if op.re and latency == 1:
                op.rdata = int(dut.rdata_o.value)
            await FallingEdge(self.clock)
            dut.we_i.value = 0
            dut.re_i.value = 0
            if op.re and latency > 1:
                for _ in range(latency - 1):
                    await RisingEdge(self.clock)
                await ReadOnly()
                op.rdata = int(dut.rdata_o.value)
            self.ap.write(op)
            self.seq_item_port.item_done()
