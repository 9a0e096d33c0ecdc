# SPDX-License-Identifier: Apache-2.0
"""ScoreboardBase: counts checks, records mismatches with a readable diff."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pyuvm import uvm_component


class ScoreboardBase(uvm_component):
    """Every scoreboard derives from this; BaseTest.check_phase reads all of them.

    A scoreboard fails the test when it saw a mismatch, when it compared
    nothing at all, or when it still holds expectations nobody answered.
    """

    max_logged = 10  # mismatches printed in full; the rest are only counted

    def build_phase(self) -> None:
        self.n_checked = 0
        self.mismatches: list[str] = []

    def compare(self, what: str, expected: Any, actual: Any) -> bool:
        self.n_checked += 1
        if expected == actual:
            return True
        msg = f"{what}: mismatch\n{format_diff(expected, actual)}"
        self.mismatches.append(msg)
        if len(self.mismatches) <= self.max_logged:
            self.logger.error(msg)
        return False

    def check(self, what: str, ok: bool, detail: str = "") -> bool:
        """A pass/fail check that is not an equality (bounds, protocol rules)."""
        self.n_checked += 1
        if not ok:
            self.mismatches.append(f"{what}: {detail}")
            if len(self.mismatches) <= self.max_logged:
                self.logger.error(f"{what}: {detail}")
        return ok

    def pending(self) -> list[str]:
        """Expectations still open at the end of the test; override where queued."""
        return []

    def problems(self) -> list[str]:
        out = []
        if self.n_checked == 0:
            out.append(f"{self.get_full_name()}: saw no transactions")
        if self.mismatches:
            out.append(f"{self.get_full_name()}: {len(self.mismatches)} mismatches; "
                       f"first:\n{self.mismatches[0]}")
        out += [f"{self.get_full_name()}: {p}" for p in self.pending()]
        return out


def accounting(in_flight: Sequence[object], leftover: int, sent: int, answered: int,
               dropped: int, checked: int) -> list[str]:
    """A driver's end-of-test books: every command answered (or dropped by a reset), no
    response frame left unclaimed, and every answer checked."""
    out = []
    if in_flight:
        out.append(f"{len(in_flight)} command(s) never answered, first {in_flight[0]}")
    if leftover:
        out.append(f"{leftover} response frame(s) left over at the end")
    if sent != answered + dropped:
        out.append(f"{sent} commands sent, {answered} answered, {dropped} dropped by resets")
    if answered != checked:
        out.append(f"{answered} commands answered, {checked} checked")
    return out


def format_diff(expected: Any, actual: Any, context: int = 3) -> str:
    """Expected vs actual, field by field for mappings, first divergence for sequences."""
    if isinstance(expected, Mapping) and isinstance(actual, Mapping):
        keys = list(dict.fromkeys([*expected, *actual]))
        rows = [f"  {k}: expected {expected.get(k, '<absent>')!r}, "
                f"got {actual.get(k, '<absent>')!r}"
                for k in keys if expected.get(k) != actual.get(k)]
        return "\n".join(rows)
    if _is_seq(expected) and _is_seq(actual):
        exp, act = list(expected), list(actual)
        pairs = enumerate(zip(exp, act, strict=False))  # lengths may differ; that is reported
        idx = next((i for i, (a, b) in pairs if a != b), min(len(exp), len(act)))
        lo = max(0, idx - context)
        return (f"  lengths: expected {len(exp)}, got {len(act)}; first difference at [{idx}]\n"
                f"  expected[{lo}:]: {exp[lo:idx + context]}\n"
                f"  actual  [{lo}:]: {act[lo:idx + context]}")
    return f"  expected: {expected!r}\n  actual:   {actual!r}"


def _is_seq(x: object) -> bool:
    return isinstance(x, Sequence | bytes) and not isinstance(x, str) or hasattr(x, "tolist")
