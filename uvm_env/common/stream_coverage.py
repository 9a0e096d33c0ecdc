# SPDX-License-Identifier: Apache-2.0
"""StreamCoverage: per-cycle handshake coverage of a one-in, one-out stream block."""

from __future__ import annotations

from collections.abc import Callable

from cocotb.triggers import RisingEdge
from cocotb_coverage.coverage import CoverCross, CoverPoint
from pyuvm import uvm_component

LEVELS = ("empty", "partial", "full")


class StreamCoverage(uvm_component):
    """Samples every cycle: occupancy (empty/partial/full) x push x pop, plus stalls.

    Combinations the protocol makes impossible (a pop while empty, a push
    while full) are ignored bins, so a hit on one would still be visible in
    the report as a mismatch of the block's own scoreboard, not as coverage.
    """

    prefix: str                      # cover point names start with this
    dut: object
    clock: object
    reset: object                    # active low; sampling starts once released
    ports: dict[str, str]            # in_valid, in_ready, out_valid, out_ready
    level: Callable[[], str]         # returns one of LEVELS for this cycle

    def build_phase(self) -> None:
        p = self.prefix

        @CoverPoint(f"{p}.level", xf=lambda s: s[0], bins=list(LEVELS))
        @CoverPoint(f"{p}.push", xf=lambda s: s[1], bins=[False, True])
        @CoverPoint(f"{p}.pop", xf=lambda s: s[2], bins=[False, True])
        @CoverPoint(f"{p}.in_stalled", xf=lambda s: s[3], bins=[True])
        @CoverPoint(f"{p}.out_stalled", xf=lambda s: s[4], bins=[True])
        @CoverCross(f"{p}.level_x_push_x_pop",
                    items=[f"{p}.level", f"{p}.push", f"{p}.pop"],
                    ign_bins=[("empty", None, True), ("full", True, None)])
        def sample(s: tuple) -> None:
            pass

        self._sample = sample
        self._sig = {k: getattr(self.dut, v) for k, v in self.ports.items()}

    async def run_phase(self) -> None:
        sig = self._sig
        while str(self.reset.value) != "1":
            await RisingEdge(self.clock)
        while True:
            await RisingEdge(self.clock)
            iv, ir = bool(sig["in_valid"].value), bool(sig["in_ready"].value)
            ov, orr = bool(sig["out_valid"].value), bool(sig["out_ready"].value)
            self._sample((self.level(), iv and ir, ov and orr, iv and not ir, ov and not orr))
