# SPDX-License-Identifier: Apache-2.0
"""L1Driver: the only code that touches radix_l1_cache's core-side pins.

It plays the radix core: one request per tick, and adv_i low whenever stall_o is up
or, at random, for a few cycles as if another table's cache had stalled the core.
A request is reported once everything it produced is known: its read data (ReadLatency
ticks later), the cache counters' change it caused (read two ticks later), a flush's
DDR image (at flush_done_o), in issue order, so the scoreboard replays the cycle order.
"""

from __future__ import annotations

import random
from collections import Counter, deque

from cocotb.triggers import FallingEdge
from pyuvm import uvm_analysis_port, uvm_driver

from uvm_env.common.axi_ddr import DdrModel
from uvm_env.radix.l1_item import L1Op

COUNTERS = ("cnt_hit_o", "cnt_miss_o", "cnt_wb_o")


class L1Driver(uvm_driver):
    dut: object
    clock: object
    ddr: DdrModel
    base: int
    region_bytes: int
    rng: random.Random
    p_freeze: float = 0.1

    def build_phase(self) -> None:
        self.ap = uvm_analysis_port("ap", self)
        self.inflight: deque[L1Op] = deque()
        self.stall_cycles = self.ticks = 0
        self.fault_image: bytes | None = None   # the DDR region when fault_o first rose
        # Misses that waited for a prefetch read in flight: "refill" gave the slot the
        # line after the window at once, "kept" left it to the miss (its AR had not left).
        self.pf_waits: Counter[str] = Counter()

    def image(self) -> bytes:
        return self.ddr.peek(self.base, self.region_bytes)

    def _drive_idle(self) -> None:
        d = self.dut
        for name in ("we_i", "re_i", "flush_i", "clear_i", "adv_i"):
            getattr(d, name).value = 0

    async def run_phase(self) -> None:
        d = self.dut
        lat = int(d.ReadLatency.value)
        d.base_i.value = self.base
        self._drive_idle()
        flushes: deque[L1Op] = deque()
        by_tick: dict[int, L1Op] = {}   # awaiting their counter change
        reads: dict[int, L1Op] = {}     # awaiting their read data
        prev: tuple[int, ...] | None = None
        freeze = 0
        prefetch = int(d.PrefetchDepth.value) > 0
        while True:
            await FallingEdge(self.clock)
            if prefetch and int(d.pf_wait_now.value):
                self.pf_waits["refill" if int(d.pf_refill.value) else "kept"] += 1
            if int(d.fault_o.value):
                if self.fault_image is None:
                    self.fault_image = self.image()
                for op in self.inflight:
                    op.faulted = True
            if int(d.flush_done_o.value):
                flushes.popleft().image = self.image()
            if int(d.stall_o.value):
                d.adv_i.value = 0
                self.stall_cycles += 1
                continue
            if not freeze and self.rng.random() < self.p_freeze:
                freeze = self.rng.randint(1, 6)
            if freeze:
                freeze -= 1
                d.adv_i.value = 0
                continue
            d.adv_i.value = 1
            t = self.ticks
            # This tick's view: read data due now, and the counters after request t-2.
            if (op := reads.pop(t - lat, None)) is not None:
                op.rdata = int(d.rdata_o.value)
            now = tuple(int(getattr(d, c).value) for c in COUNTERS)
            if (op := by_tick.pop(t - 2, None)) is not None and prev is not None:
                op.hits, op.misses, op.wbs = ((a - b) & 0xFFFF_FFFF
                                              for a, b in zip(now, prev, strict=True))
                if op.clear:
                    op.image, op.fault_image = self.image(), self.fault_image
                    self.fault_image = None
            prev = now
            self._emit(t, lat)
            op = await self.seq_item_port.get_next_item()
            op.tick = t
            op.faulted = bool(int(d.fault_o.value))
            d.we_i.value, d.waddr_i.value, d.wdata_i.value = int(op.we), op.waddr, op.wdata
            d.re_i.value, d.raddr_i.value = int(op.re), op.raddr
            d.flush_i.value, d.clear_i.value = int(op.flush), int(op.clear)
            if op.kind != "idle":
                self.inflight.append(op)
                by_tick[t] = op
            if op.re:
                reads[t] = op
            if op.flush:
                flushes.append(op)
            self.ticks += 1
            self.seq_item_port.item_done()

    def _emit(self, t: int, lat: int) -> None:
        """Report finished requests, oldest first; a younger one waits for the older."""
        while self.inflight:
            op = self.inflight[0]
            done = (t >= op.tick + 2 and (not op.re or t >= op.tick + lat)
                    and (not op.flush or op.image is not None))
            if not done:
                return
            self.ap.write(self.inflight.popleft())
