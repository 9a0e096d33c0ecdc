# SPDX-License-Identifier: Apache-2.0
"""The dashboard's mutation section: build/mutate/<block>/report.json (`make mutate`)."""

from __future__ import annotations

import json
from pathlib import Path

from scripts.registry import ROOT

MUTATE_DIR = ROOT / "build" / "mutate"
TARGET_PCT = 90.0   # issue 13: >= 90 % of non-equivalent mutants killed per core


def load_mutation(mutate_dir: Path = MUTATE_DIR) -> list[dict]:
    """One row per block that has a report, with its survivors' diffs."""
    rows = []
    for path in sorted(mutate_dir.glob("*/report.json")):
        try:
            r = json.loads(path.read_text())
        except json.JSONDecodeError:
            continue
        score = r.get("score")
        rows.append({
            "block": r.get("block", path.parent.name), "commit": r.get("commit", ""),
            "tests": ", ".join(r.get("tests", [])), "planted": r.get("planted", 0),
            "killed": r.get("killed", 0), "live": r.get("live", 0),
            "discarded": r.get("discarded_lint", 0), "score": score,
            "equivalent": r.get("equivalent", []),
            "gate": "pass" if score is not None and score >= TARGET_PCT else "fail",
            "survivors": r.get("survivors", []),
            "source": path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT)
            else str(path)})
    return rows
