# SPDX-License-Identifier: Apache-2.0
"""The `python -m scripts.bench_<x>` entry point every bench script shares."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

OUT = Path("build/bench")


def main(name: str, run: Callable[[], dict], table: Callable[[dict], str]) -> int:
    """Run one bench, keep its figures in build/bench/<name>.json, print its table."""
    s = run()
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / f"{name}.json").write_text(json.dumps(s, indent=1))
    print(table(s))
    return 0
