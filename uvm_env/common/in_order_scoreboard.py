# SPDX-License-Identifier: Apache-2.0
"""InOrderScoreboard: what went in must come out, in the same order."""

from __future__ import annotations

from collections import deque
from typing import Any

from pyuvm import uvm_analysis_export, uvm_subscriber

from uvm_env.common.scoreboard_base import ScoreboardBase


class _Port(uvm_subscriber):
    """A named analysis export that forwards writes to a scoreboard method."""

    def __init__(self, name: str, parent: InOrderScoreboard, sink: Any) -> None:
        super().__init__(name, parent)
        self._sink = sink

    def write(self, tt: Any) -> None:
        self._sink(tt)


class InOrderScoreboard(ScoreboardBase):
    """Connect the input monitor to `expected_export`, the output to `actual_export`.

    `transform` maps an input transaction to the output it must produce (the
    reference model); the identity suits FIFOs and register slices.
    """

    def build_phase(self) -> None:
        super().build_phase()
        self.queue: deque[Any] = deque()
        self.expected_sub = _Port("expected", self, self._expect)
        self.actual_sub = _Port("actual", self, self._actual)
        self.expected_export: uvm_analysis_export = self.expected_sub.analysis_export
        self.actual_export: uvm_analysis_export = self.actual_sub.analysis_export

    def transform(self, item: Any) -> Any:
        return item

    def _expect(self, item: Any) -> None:
        self.queue.append(self.transform(item))

    def _actual(self, item: Any) -> None:
        if not self.queue:
            self.compare(f"output #{self.n_checked}", "<nothing expected>", item)
            return
        self.compare(f"output #{self.n_checked}", self.queue.popleft(), item)

    def pending(self) -> list[str]:
        if self.queue:
            return [f"{len(self.queue)} expected items never came out; next: {self.queue[0]!r}"]
        return []
