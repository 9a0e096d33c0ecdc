# SPDX-License-Identifier: Apache-2.0
"""Helpers over cocotb-coverage's global coverage_db: holes, summary, export."""

from __future__ import annotations

from pathlib import Path

from cocotb_coverage.coverage import CoverCross, CoverPoint, coverage_db


def coverage_holes(prefix: str) -> list[str]:
    """Bins under `prefix` hit fewer than `at_least` times, as 'point: bin (hits/need)'."""
    holes = []
    for name, item in coverage_db.items():
        if not name.startswith(prefix) or not isinstance(item, CoverPoint | CoverCross):
            continue
        for bin_, hits in item.detailed_coverage.items():
            if hits < item.at_least:
                holes.append(f"{name}: {bin_!r} ({hits}/{item.at_least})")
    return holes


def coverage_summary(prefix: str) -> dict[str, float]:
    """Percent covered per cover point / cross under `prefix`."""
    return {
        name: float(item.cover_percentage)
        for name, item in coverage_db.items()
        if name.startswith(prefix) and isinstance(item, CoverPoint | CoverCross)
    }


def export_coverage(out_dir: Path) -> Path | None:
    """Write coverage.xml; None when the bench defined no cover points
    (cocotb-coverage's exporter fails on an empty database)."""
    if not any(isinstance(i, CoverPoint | CoverCross) for i in coverage_db.values()):
        return None
    path = out_dir / "coverage.xml"
    coverage_db.export_to_xml(filename=str(path))
    return path
