# SPDX-License-Identifier: Apache-2.0
"""Which races a radix test offered the DUT: for each command, what it reads that a
command still in flight ahead of it writes (docs/radix-concurrency.md, "The scheme").

The predictor's golden model is then models.radix_conflicts.RecordingCache, which answers
exactly as models.radix_cache does and records every command's read and write sets. A
command sent while n earlier commands were unanswered (RadixCmd.in_flight_at_send)
races each of those n whose write set meets its read set; the kind of the earlier write
(a split, a new child, an eviction, a lock count) and the two opcodes make the coverage.

This measures the stimulus, not the DUT: it says which races were offered. "In flight"
is the driver's count (sent, response not yet taken at the sink), so a command whose
response waits in the FIFO still counts: an upper bound on what a pipelined core, which
would have committed it, must detect. Today's core runs one walk at a time, so it meets
every race in order by construction; its answers are checked by the scoreboard as for
every test."""

from __future__ import annotations

from collections import Counter, deque

from cocotb_coverage.coverage import CoverCross, CoverPoint

from models.radix_conflicts import Access, RecordingCache
from uvm_env.radix.protocol import OP_RESET
from uvm_env.radix.radix_item import RadixCmd
from uvm_env.radix.radix_predictor import RadixPredictor

#: (kind of the earlier write, earlier op, this op): the races radix_concurrent aims at
#: (docs/radix-concurrency.md lists why each matters).
RACES = (
    ("new_child", "INSERT", "MATCH"),   # a MATCH racing the INSERT of its key
    ("split", "INSERT", "MATCH"),       # a walk comparing an edge an INSERT splits
    ("new_child", "INSERT", "INSERT"),  # the same new key inserted twice in a row
    ("split", "INSERT", "INSERT"),
    ("evict", "EVICT", "MATCH"),        # walks behind an EVICT
    ("evict", "EVICT", "INSERT"),
    ("split", "INSERT", "LOCK"),        # LOCK of a node being split
)
#: Earlier commands in flight when the racing one was sent.
OCCUPANCY = ("1", "2-3", "4-7")


def _occupancy(n: int) -> str:
    return "1" if n <= 1 else "2-3" if n <= 3 else "4-7"


class RaceTracker:
    """Fed every scored command in order; keeps the last accesses of the window."""

    def __init__(self, pred: RadixPredictor, window: int, prefix: str = "radix.race") -> None:
        # Swaps the predictor's model for the recording one, which answers the same; call
        # before the first command. A reset (power_on) builds a recording model again.
        pred.model_cls = RecordingCache
        pred.model = RecordingCache(pred.p.page_size)
        self.pred = pred
        self._model = pred.model
        self.recent: deque[Access | None] = deque(maxlen=max(window - 1, 1))
        # (kind, earlier op, op) -> command pairs that raced so
        self.seen: Counter[tuple[str, str, str]] = Counter()

        @CoverPoint(f"{prefix}.race", xf=lambda race, occ: race, bins=list(RACES))
        @CoverPoint(f"{prefix}.occupancy", xf=lambda race, occ: occ, bins=list(OCCUPANCY))
        @CoverCross(f"{prefix}.race_x_occupancy", items=[f"{prefix}.race", f"{prefix}.occupancy"])
        def sample(race: tuple[str, str, str], occ: str) -> None:
            pass

        self._sample = sample

    def scored(self, cmd: RadixCmd) -> None:
        """After the predictor took ``cmd``: its access (None when the model did not run
        it: a refusal, SIZES) against the earlier ones in flight with it.

        EVICT is a barrier in the design (docs/radix-concurrency.md): no command after
        it races one before it, so the window is cut there; the EVICT's own writes do
        count against the walks right behind it (those races are ordered by the
        barrier, not found by conflict detection). RESET and rst_ni start over (node
        ids restart)."""
        if self.pred.model is not self._model or cmd.op == OP_RESET:
            self._model = self.pred.model
            self.recent.clear()
        trace = self._model.trace
        acc = trace[-1] if trace else None
        trace.clear()
        n = getattr(cmd, "in_flight_at_send", 0)
        if acc is not None and n:
            ahead = list(self.recent)[-n:]
            last_barrier = max((i for i, e in enumerate(ahead)
                                if e is not None and e.op == "EVICT"), default=0)
            for earlier in ahead[last_barrier:]:
                if earlier is None:
                    continue
                races = {(earlier.kinds[key], earlier.op, acc.op)
                         for key in acc.reads & earlier.writes}
                self.seen.update(races)
                for race in races & set(RACES):
                    self._sample(race, _occupancy(n))
        self.recent.append(acc)
