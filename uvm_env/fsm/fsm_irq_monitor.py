# SPDX-License-Identifier: Apache-2.0
"""FsmIrqMonitor: records every change of irq_o with its simulation time.

It waits on the pin's edges rather than polling each cycle, so it costs
nothing while the interrupt is quiet.
"""

from __future__ import annotations

from cocotb.simtime import get_sim_time
from cocotb.triggers import Edge
from pyuvm import uvm_analysis_port, uvm_component


class FsmIrqMonitor(uvm_component):
    dut: object

    def build_phase(self) -> None:
        self.ap = uvm_analysis_port("ap", self)
        self.changes: list[tuple[float, int]] = []

    @property
    def level(self) -> int:
        return int(self.dut.irq_o.value)

    @property
    def rises(self) -> int:
        return sum(1 for _, v in self.changes if v)

    async def run_phase(self) -> None:
        pin = self.dut.irq_o
        while True:
            await Edge(pin)
            value = int(pin.value)
            self.changes.append((get_sim_time("ns"), value))
            self.ap.write(value)
