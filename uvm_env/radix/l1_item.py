# SPDX-License-Identifier: Apache-2.0
"""L1Op: what one tick asks of radix_l1_cache, and what it produced."""

from __future__ import annotations

from pyuvm import uvm_sequence_item


class L1Op(uvm_sequence_item):
    def __init__(self, name: str = "l1_op", *, we: bool = False, waddr: int = 0,
                 wdata: int = 0, re: bool = False, raddr: int = 0, flush: bool = False,
                 clear: bool = False) -> None:
        super().__init__(name)
        self.we, self.waddr, self.wdata = we, waddr, wdata
        self.re, self.raddr = re, raddr
        self.flush, self.clear = flush, clear
        # Filled in by the driver.
        self.tick = -1
        self.rdata: int | None = None
        self.hits = self.misses = self.wbs = -1     # counter deltas of this request
        self.faulted = False                         # fault_o was up while it ran
        self.image: bytes | None = None              # DDR region after a flush or clear
        self.fault_image: bytes | None = None        # a clear: DDR when fault_o rose

    @property
    def kind(self) -> str:
        if self.flush:
            return "flush"
        if self.clear:
            return "clear"
        return {(True, True): "read_write", (True, False): "read",
                (False, True): "write"}.get((self.re, self.we), "idle")

    def __str__(self) -> str:
        parts = []
        if self.re:
            parts.append(f"R[{self.raddr}]->{self.rdata}")
        if self.we:
            parts.append(f"W[{self.waddr}]={self.wdata:#x}")
        if self.flush or self.clear:
            parts.append(self.kind)
        return f"L1Op(tick {self.tick}: {' '.join(parts) or 'idle'})"
