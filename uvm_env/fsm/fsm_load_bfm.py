# SPDX-License-Identifier: Apache-2.0
"""FsmLoadAgent: drives table images onto the load stream, one beat per cycle at most.

cocotbext-axi's AxiStreamSource pops frame bytes from the front of a list,
which is quadratic for a multi-megabyte image, so this agent drives the pins
itself: the image is cut into beats once, then each cycle presents the next
beat (unless the idle pattern says pause) and advances when TVALID and TREADY
were both high at the clock edge.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator

from cocotb.triggers import Event, RisingEdge
from pyuvm import uvm_component


class FsmLoadAgent(uvm_component):
    dut: object
    clock: object
    pause: Iterator[bool] | None = None

    def build_phase(self) -> None:
        self.lb = len(self.dut.s_axis_load_tdata) // 8
        self.queue: deque[tuple[list[int], int]] = deque()
        self.kick = Event()
        self.beats_sent = 0
        self.images_sent = 0
        self.idle_event = Event()
        self.idle_event.set()
        self.epoch = 0   # abort() moves it on: the image being driven is dropped

    def abort(self) -> None:
        """Reset: drop the image being driven and every queued one (the core forgot the
        LOAD commands they belong to)."""
        self.queue.clear()
        self.epoch += 1
        self.dut.s_axis_load_tvalid.value = 0

    def send(self, image: bytes, keep_last: int | None = None) -> None:
        """Queue one image; TKEEP on the last beat covers its bytes unless overridden."""
        lb = self.lb
        beats = [int.from_bytes(image[i:i + lb], "little") for i in range(0, len(image), lb)]
        if not beats:
            beats = [0]
        rem = len(image) - (len(beats) - 1) * lb
        keep = keep_last if keep_last is not None else (1 << rem) - 1
        self.queue.append((beats, keep))
        self.idle_event.clear()
        self.kick.set()

    async def wait_idle(self) -> None:
        await self.idle_event.wait()

    def set_pause(self, pause: Iterator[bool] | None) -> None:
        self.pause = pause

    async def run_phase(self) -> None:
        dut = self.dut
        tvalid, tdata, tkeep, tlast, tready = (dut.s_axis_load_tvalid, dut.s_axis_load_tdata,
                                               dut.s_axis_load_tkeep, dut.s_axis_load_tlast,
                                               dut.s_axis_load_tready)
        full_keep = (1 << self.lb) - 1
        tvalid.value = 0
        tlast.value = 0
        tkeep.value = full_keep
        edge = RisingEdge(self.clock)
        while True:
            if not self.queue:
                self.idle_event.set()
                self.kick.clear()
                await self.kick.wait()
                await edge
            beats, keep = self.queue.popleft()
            i, n = 0, len(beats)
            driving = False
            epoch = self.epoch
            while i < n and epoch == self.epoch:
                if not driving:
                    pause = next(self.pause) if self.pause is not None else False
                    if not pause:
                        last = i == n - 1
                        tdata.value = beats[i]
                        tlast.value = int(last)
                        tkeep.value = keep if last else full_keep
                        tvalid.value = 1
                        driving = True
                await edge
                if epoch != self.epoch:
                    break
                if driving and tready.value:
                    i += 1
                    self.beats_sent += 1
                    driving = False
                    tvalid.value = 0
            tvalid.value = 0
            self.images_sent += epoch == self.epoch
