# SPDX-License-Identifier: Apache-2.0
"""Frozen cycles of the L2 build, told apart by which stages had work.

An L1 miss freezes the whole core (radix_core's ``adv`` is one signal for both the walk
stage and the commit stage), so with Overlap = 1 a miss in one stage also stops the
other. This counts, over a window of a stream, the frozen cycles by what the two stages
were doing, which says what freezing each stage on its own misses could gain:

* ``both``: a walk in progress (``ws_q`` in WALKING) beside a commit (``cm_busy_q``).
  Only in these cycles could a per-stage freeze let one stage go on while the other
  waits for its miss. ``cycles - both`` is what the stream would take if every one of
  them became free: a first-order figure, not a bound (a stage that went on could also
  move other work into the other stage's misses; the two stages share each table's
  one read port, which would take some back).
* ``walk``: a walk alone; ``commit``: a commit alone; ``other``: neither (header,
  trailer, intake). These are misses no stage could work beside: only more walks in
  flight with misses under misses could hide them.

The frozen total is held to the core's own count of frozen cycles (``l2_stall_q``,
CSR L2_STALL_CYCLES) at every cycle, so the figures cannot drift from the cycles the core
really lost; ``errors`` says where they did."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import cocotb
from cocotb.triggers import FallingEdge

from uvm_env.radix.core_states import WALKING

KINDS = ("both", "walk", "commit", "other")


@dataclass
class FreezeCount:
    core: Any
    frozen: dict[str, int] = field(default_factory=lambda: dict.fromkeys(KINDS, 0))
    cycles: int = 0
    total: int = 0  # sum of ``frozen``, kept as it counts
    errors: list[str] = field(default_factory=list)
    task: Any = None

    def start(self, clock: Any) -> None:
        self.task = cocotb.start_soon(self._run(clock))

    def stop(self) -> dict[str, int]:
        """The counts so far, and sampling stops."""
        if self.task is not None:
            self.task.cancel()
            self.task = None
        return {"cycles": self.cycles, **self.frozen}

    async def _run(self, clock: Any) -> None:
        core, edge = self.core, FallingEdge(clock)
        stall0: int | None = None
        while True:
            await edge
            # l2_stall_q counts the frozen cycles before this one.
            stall = int(core.l2_stall_q.value)
            if stall0 is None:
                stall0 = stall
            elif stall - stall0 != self.total and not self.errors:
                self.errors.append(f"after {self.cycles} cycles: {self.total} "
                                   f"frozen, the core counted {stall - stall0}")
            self.cycles += 1
            if int(core.adv.value):
                continue
            walking = int(core.ws_q.value) in WALKING
            committing = bool(int(core.cm_busy_q.value))
            kind = ("both" if walking and committing else "walk" if walking
                    else "commit" if committing else "other")
            self.frozen[kind] += 1
            self.total += 1
