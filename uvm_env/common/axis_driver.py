# SPDX-License-Identifier: Apache-2.0
"""AxisDriver: hands sequence items to a cocotbext-axi AxiStreamSource."""

from __future__ import annotations

from cocotbext.axi import AxiStreamFrame, AxiStreamSource
from pyuvm import uvm_driver


class AxisDriver(uvm_driver):
    source: AxiStreamSource  # set by the agent before build

    async def run_phase(self) -> None:
        while True:
            item = await self.seq_item_port.get_next_item()
            # send() queues the frame and returns; the source paces it onto the pins.
            await self.source.send(AxiStreamFrame(tdata=item.data))
            self.seq_item_port.item_done()

    async def idle(self) -> None:
        """Wait until every queued frame has left the source."""
        await self.source.wait()
