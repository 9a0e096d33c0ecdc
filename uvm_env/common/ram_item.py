# SPDX-License-Identifier: Apache-2.0
"""RamOp: what one cycle drives on common_ram_sdp, and the read data it produced."""

from __future__ import annotations

from pyuvm import uvm_sequence_item


class RamOp(uvm_sequence_item):
    def __init__(self, name: str = "ram_op", we: bool = False, waddr: int = 0,
                 wdata: int = 0, re: bool = False, raddr: int = 0) -> None:
        super().__init__(name)
        self.we, self.waddr, self.wdata = we, waddr, wdata
        self.re, self.raddr = re, raddr
        self.rdata: int | None = None   # filled in by the driver when re was set

    def __str__(self) -> str:
        w = f"W[{self.waddr}]={self.wdata:#x}" if self.we else "-"
        r = f"R[{self.raddr}]->{self.rdata}" if self.re else "-"
        return f"RamOp({w} {r})"
