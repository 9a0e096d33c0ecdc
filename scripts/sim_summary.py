# SPDX-License-Identifier: Apache-2.0
"""The few lines `make sim` prints after PASS/FAIL: what the test did, in numbers.

The numbers come from run_summary.json, which BaseTest writes beside sim.log
(uvm_env/common/run_summary.py). A test's key figures come from the CSR read-back the
radix and fsm benches end with: from run_summary.json's `figures` where the bench put it
there, else from the `CSRs: {...}` line the bench logs.
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

RUN_SUMMARY = "run_summary.json"
_CSR_LINE = re.compile(r"CSRs: (\{[^}]*\})")


def load(out_dir: Path) -> dict | None:
    path = out_dir / RUN_SUMMARY
    try:
        return json.loads(path.read_text())
    except (OSError, json.JSONDecodeError):
        return None


def logged_csrs(log: Path) -> dict[str, int]:
    """The last `CSRs: {...}` dict in sim.log ({} when there is none)."""
    try:
        hits = _CSR_LINE.findall(log.read_text(errors="replace"))
    except OSError:
        return {}
    try:
        value = ast.literal_eval(hits[-1]) if hits else {}
    except (ValueError, SyntaxError):
        return {}
    return value if isinstance(value, dict) else {}


def csrs_of(summary: dict | None, log: Path) -> dict[str, int]:
    figures = (summary or {}).get("figures") or {}
    return figures.get("csrs") or logged_csrs(log)


def radix_figures(c: dict[str, int]) -> str | None:
    if "LOOKUPS" not in c:
        return None
    queried, hit = c.get("QUERIED", 0), c.get("HIT", 0)
    rate = f"{100.0 * hit / queried:.1f}%" if queried else "n/a"
    return (f"radix: {c['LOOKUPS']:,} lookups, hit rate {rate} ({hit:,} of {queried:,} "
            f"tokens), {c.get('INSERTS', 0):,} inserts, {c.get('SPLITS', 0):,} splits, "
            f"{c.get('EVICTED_NODES', 0):,} evictions ({c.get('EVICTED_TOKENS', 0):,} tokens)")


def fsm_figures(c: dict[str, int]) -> str | None:
    if "ADVANCES" not in c:
        return None
    return (f"fsm: {c['ADVANCES']:,} tokens advanced ({c.get('ACCEPTED', 0):,} allowed), "
            f"{c.get('VALIDATES', 0):,} validated, {c.get('MASKS', 0):,} masks "
            f"({c.get('MASK_BEATS', 0):,} beats), {c.get('VIOL_COUNT', 0):,} violations")


def summary_lines(out_dir: Path) -> list[str]:
    """4-6 lines, or one saying why there are none (e.g. the run never reached the end)."""
    if not (out_dir / "sim.log").exists():
        return []   # nothing ran (a failed build says so already)
    s = load(out_dir)
    log = out_dir / "sim.log"
    if s is None:
        return [f"no {RUN_SUMMARY} (the test did not reach its checks; see the log)"]
    boards = s.get("scoreboards", {})
    checks = sum(b["checked"] for b in boards.values())
    mism = sum(b["mismatches"] for b in boards.values())
    ops = s.get("operations")
    lines = [(f"{ops:,} operations, " if ops is not None else "")
             + f"{checks:,} checks by {len(boards)} scoreboard{'s' * (len(boards) != 1)}, "
             f"{mism:,} mismatches"]
    csrs = csrs_of(s, log)
    lines += [f for f in (radix_figures(csrs), fsm_figures(csrs)) if f]
    lines.append(f"simulated: {s.get('cycles', 0):,} cycles "
                 f"({s.get('sim_time_ns', 0) / 1000:,.1f} us at {s.get('clk_period_ns')} ns)")
    if s.get("coverage_prefix"):
        lines.append(f"functional coverage ({s['coverage_prefix']}.*): "
                     f"{s.get('coverage_pct')}%, {s.get('coverage_holes')} holes "
                     f"(listed in sim.log)")
    return lines
