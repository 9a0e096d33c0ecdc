# SPDX-License-Identifier: Apache-2.0
"""Conflict detection on the overlapped core (Overlap = 1), checked link by link every
cycle in every test that runs it:

1. every key a walk reads is added to its signature first (read_check.py);
2. every key a commit changes beside a walk is broadcast after the write and before that
   walk's hand-over (write_check.py);
3. every broadcast is answered exactly as the walk's signature gives, none missed, and
   every replay follows a hit on its walk (sig_check.py).

The scoreboard sees a broken link only when a race made an answer differ; these see it
at the first walk it touches. rst_ni low drops what each link holds (the core's
registers reset with it); the next walk's clear brings the signature model back."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import cocotb
from cocotb.triggers import FallingEdge

from models.radix_image import ImageLayout
from uvm_env.radix.read_check import WalkReadCheck
from uvm_env.radix.sig_check import SignatureCheck
from uvm_env.radix.write_check import BroadcastCoverCheck


class ConflictChain:
    def __init__(self, dut: Any, layout: ImageLayout) -> None:
        core = dut.u_core
        self.dut = dut
        self.sig = SignatureCheck(core)
        self.reads = WalkReadCheck(core, self.sig.sig)
        self.writes = BroadcastCoverCheck(core, layout.node_fields(),
                                          on_chip=not int(dut.L2.value))
        self.resets = 0
        self.cycle = 0      # falling edges since start, reset cycles included
        # Per-cycle samplers run on the same edge after the checks (OverlapCoverage);
        # they are not called while rst_ni is low.
        self.observers: list[Callable[[], None]] = []
        self.task: Any = None

    def start(self, clock: Any) -> None:
        self.task = cocotb.start_soon(self._run(clock))

    async def _run(self, clock: Any) -> None:
        """Every cycle, between edges (registers settled), until the test ends."""
        was_reset = False
        core = self.dut.u_core
        while True:
            await FallingEdge(clock)
            self.cycle += 1
            if not int(self.dut.rst_ni.value):
                if not was_reset:
                    self.resets += 1
                    self.sig.reset()
                    self.reads.reset()
                    self.writes.reset()
                was_reset = True
                continue
            was_reset = False
            adv = bool(int(core.adv.value))
            self.sig.step(self.cycle, adv)
            self.reads.step(self.cycle, adv, self.sig.synced)
            self.writes.step(self.cycle, adv)
            for observe in self.observers:
                observe()

    def errors(self) -> list[str]:
        return self.sig.errors + self.reads.errors + self.writes.errors

    def summary(self) -> dict[str, int]:
        return {**self.sig.summary(), **self.reads.summary(), **self.writes.summary(),
                "resets": self.resets}
