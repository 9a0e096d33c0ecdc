# SPDX-License-Identifier: Apache-2.0
"""CycleBounds: the benches hold their measured cycle counts to the documented cycle model.

Cycle counts from simulation are deterministic for a given design, seed and
configuration, so a bound on them is a structural check, not a timing test (nothing
here reads a wall clock). Each check is recorded with its measured value and its bound;
``verdict()`` lists every one that failed, so a bench reports all broken bounds at once.
"""

from __future__ import annotations

import operator
from dataclasses import dataclass

_OPS = {"<=": operator.le, ">=": operator.ge, "==": operator.eq}


@dataclass(frozen=True)
class Check:
    name: str
    measured: float
    op: str
    bound: float

    @property
    def ok(self) -> bool:
        return _OPS[self.op](self.measured, self.bound)

    def __str__(self) -> str:
        return (f"{self.name}: {self.measured} {self.op} {self.bound}"
                f"{'' if self.ok else '  <-- VIOLATED'}")


class CycleBounds:
    def __init__(self) -> None:
        self.checks: list[Check] = []

    def at_most(self, name: str, measured: float, bound: float) -> None:
        self.checks.append(Check(name, measured, "<=", bound))

    def at_least(self, name: str, measured: float, bound: float) -> None:
        self.checks.append(Check(name, measured, ">=", bound))

    def exactly(self, name: str, measured: float, value: float) -> None:
        self.checks.append(Check(name, measured, "==", value))

    @property
    def failed(self) -> list[Check]:
        return [c for c in self.checks if not c.ok]

    def as_dict(self) -> list[dict[str, object]]:
        return [{"name": c.name, "measured": c.measured, "op": c.op, "bound": c.bound,
                 "ok": c.ok} for c in self.checks]

    def verdict(self) -> None:
        """Raise with every violated bound; a bench that checked nothing fails too."""
        if not self.checks:
            raise AssertionError("no cycle bound was checked")
        if self.failed:
            raise AssertionError("cycle model violated:\n  " +
                                 "\n  ".join(str(c) for c in self.failed))
