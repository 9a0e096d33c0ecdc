# SPDX-License-Identifier: Apache-2.0
"""run_summary.json: what one test did, for `make sim`'s summary and other readers.

BaseTest.check_phase writes it beside sim.log with the numbers the log also states:
checks and mismatches per scoreboard, simulated time and cycles, functional coverage
of the test's cover-point prefix with its holes, and `figures`, a free-form dict a test
fills with its own key numbers (the radix tests put their CSR read-back there).
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path

from cocotb_coverage.coverage import coverage_db

FILE_NAME = "run_summary.json"
SCHEMA = 1


@dataclass
class RunSummary:
    seed: int
    sim_time_ns: float
    clk_period_ns: float
    scoreboards: dict[str, dict[str, int]] = field(default_factory=dict)
    coverage_prefix: str | None = None
    coverage_pct: float | None = None
    coverage_holes: int | None = None
    operations: int | None = None   # samples of the `<prefix>.op` cover point, if it has one
    figures: dict[str, object] = field(default_factory=dict)
    schema: int = SCHEMA

    @property
    def cycles(self) -> int:
        return round(self.sim_time_ns / self.clk_period_ns) if self.clk_period_ns else 0

    def add_scoreboard(self, name: str, checked: int, mismatches: int) -> None:
        self.scoreboards[name] = {"checked": checked, "mismatches": mismatches}

    def set_coverage(self, prefix: str, holes: int) -> None:
        item, ops = coverage_db.get(prefix), coverage_db.get(f"{prefix}.op")
        self.coverage_prefix = prefix
        self.coverage_pct = round(float(item.cover_percentage), 1) if item else None
        self.coverage_holes = holes
        if ops is not None and hasattr(ops, "detailed_coverage"):
            self.operations = sum(ops.detailed_coverage.values())

    def write(self, out_dir: Path) -> Path:
        path = out_dir / FILE_NAME
        path.write_text(json.dumps({**asdict(self), "cycles": self.cycles}, indent=1,
                                   default=str))
        return path
