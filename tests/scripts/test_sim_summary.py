# SPDX-License-Identifier: Apache-2.0
"""`make sim` says what the test did: the summary lines, and that they agree with sim.log."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

from scripts import sim_summary
from scripts.registry import ROOT

FSM_LOG = ("  5.00ns INFO  ..fsm_base_test.py(86) [uvm_test_top]: CSRs: {'COMMANDS': 9, "
           "'ADVANCES': 7, 'ACCEPTED': 6, 'VALIDATES': 1, 'MASKS': 2, 'MASK_BEATS': 8, "
           "'VIOL_COUNT': 1}; errors by code {1: 0}; 90 cycles\n")


def _fake_run(tmp_path: Path, figures: dict) -> Path:
    (tmp_path / "sim.log").write_text(FSM_LOG)
    (tmp_path / "run_summary.json").write_text(json.dumps({
        "seed": 1, "sim_time_ns": 900.0, "clk_period_ns": 10, "cycles": 90,
        "scoreboards": {"a": {"checked": 5, "mismatches": 0},
                        "b": {"checked": 7, "mismatches": 1}},
        "coverage_prefix": "fsm", "coverage_pct": 40.0, "coverage_holes": 3,
        "operations": 9, "figures": figures}))
    return tmp_path


def test_fsm_figures_come_from_the_logged_csrs(tmp_path):
    lines = sim_summary.summary_lines(_fake_run(tmp_path, {}))
    assert lines[0] == "9 operations, 12 checks by 2 scoreboards, 1 mismatches"
    assert lines[1] == ("fsm: 7 tokens advanced (6 allowed), 1 validated, 2 masks (8 beats), "
                        "1 violations")
    assert lines[2].startswith("simulated: 90 cycles (0.9 us")
    assert lines[3].startswith("functional coverage (fsm.*): 40.0%, 3 holes")


def test_figures_in_the_summary_file_win_over_the_log(tmp_path):
    csrs = {"LOOKUPS": 4, "QUERIED": 10, "HIT": 5, "SPLITS": 1, "EVICTED_NODES": 2}
    lines = sim_summary.summary_lines(_fake_run(tmp_path, {"csrs": csrs}))
    assert lines[1].startswith("radix: 4 lookups, hit rate 50.0% (5 of 10 tokens)")
    assert not any(line.startswith("fsm:") for line in lines)


def test_no_summary_file_says_so(tmp_path):
    (tmp_path / "sim.log").write_text("crashed\n")
    assert "no run_summary.json" in sim_summary.summary_lines(tmp_path)[0]
    assert sim_summary.summary_lines(tmp_path / "never-ran") == []


def _num(text: str) -> int:
    return int(text.replace(",", ""))


def test_make_sim_prints_a_summary_that_agrees_with_the_log():
    proc = subprocess.run(
        [sys.executable, "-m", "scripts.sim", "--test", "radix_lookup", "--sim", "verilator",
         "--seed", "1"], cwd=ROOT, capture_output=True, text=True, timeout=900)
    out = proc.stdout
    assert proc.returncode == 0, out + proc.stderr
    assert re.search(r"^building radix_top-\S+ for verilator\u2026", out, re.M), out
    lines = out[out.index("PASS radix_lookup"):].splitlines()
    assert 4 <= len(lines) - 2 <= 6 and lines[-1].strip().startswith("replay: make sim"), out
    text = "\n".join(lines)
    log_dir = ROOT / "build" / "sim" / "radix_lookup" / "verilator"
    log = (log_dir / "sim.log").read_text()

    checks, mism = map(_num, re.search(r"([\d,]+) checks by 1 scoreboard, ([\d,]+) mis",
                                       text).groups())
    logged = re.findall(r"(\d+) checked, (\d+) mismatches", log)
    assert (checks, mism) == (sum(int(c) for c, _ in logged), sum(int(m) for _, m in logged))

    csrs = sim_summary.logged_csrs(log_dir / "sim.log")
    m = re.search(r"radix: ([\d,]+) lookups, hit rate ([\d.]+)% \(([\d,]+) of ([\d,]+) tokens\)"
                  r".* ([\d,]+) splits, ([\d,]+) evictions", text)
    assert m, text
    assert _num(m[1]) == csrs["LOOKUPS"] and _num(m[3]) == csrs["HIT"]
    assert _num(m[4]) == csrs["QUERIED"] and _num(m[5]) == csrs["SPLITS"]
    assert _num(m[6]) == csrs["EVICTED_NODES"]
    assert abs(float(m[2]) - 100 * csrs["HIT"] / csrs["QUERIED"]) < 0.06

    sim_ns = sum(float(p.get("value")) for p in ET.parse(log_dir / "results.xml").iter("property")
                 if p.get("name") == "sim_time_duration")
    cycles = _num(re.search(r"simulated: ([\d,]+) cycles", text)[1])
    assert abs(cycles - sim_ns / 10) <= 1

    pct, holes = re.search(r"functional coverage \(radix\.\*\): ([\d.]+)%, (\d+) holes",
                           text).groups()
    assert int(holes) == log.count("coverage hole radix.")
    assert f"coverage radix overall: {pct}%, {holes} holes" in log
