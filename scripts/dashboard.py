# SPDX-License-Identifier: Apache-2.0
"""`make dashboard`: one self-contained page, build/dashboard/index.html.

Reads what the other targets left in build/ and shows what is there, saying plainly what
is missing: the regression (build/regress/summary*.json, from `make regress` or
`make test`), pytest results (build/pytest/results.xml, from `make test`), the testplan,
benchmarks (build/bench/*.json, `make bench`), resource estimates
(build/synth-estimate/*/estimate.json, `make synth-estimate`) and the run history
(build/history.jsonl). Plots are matplotlib PNGs embedded as base64.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import re
import shutil
import sys
import xml.etree.ElementTree as ET
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import jinja2

from scripts import (
    coverage_gates,
    coverage_merge,
    dashboard_mutate,
    formal,
    registry,
    regress,
    soak,
    testplan,
)
from scripts import dashboard_plots as plots
from scripts.registry import ROOT, SIMULATORS

OUT_DIR = ROOT / "build" / "dashboard"
PYTEST_XML = ROOT / "build" / "pytest" / "results.xml"
BENCH_DIR = ROOT / "build" / "bench"
SYNTH_DIR = ROOT / "build" / "synth-estimate"
TEMPLATES = Path(__file__).resolve().parent / "templates"
RESOURCE_KEYS = ("lut", "ff", "bram36", "uram", "dsp")
SYNTH_LABEL = "Yosys estimate for UltraScale+, not a Vivado result"
TREND_RUNS = 50


# ---------------------------------------------------------------- regression
def load_regression(root: Path = regress.REGRESS_ROOT) -> dict | None:
    """The latest run: summary.json, or the union of one shard layout's summaries."""
    whole = root / "summary.json"
    if whole.exists():
        s = json.loads(whole.read_text())
        s["shards_seen"], s["shards_missing"] = ["1/1"], []
        return s
    parts = sorted(root.glob("summary-*of*.json"), key=lambda p: p.stat().st_mtime)
    if not parts:
        return None
    count = int(re.search(r"of(\d+)\.json$", parts[-1].name)[1])
    shards = [json.loads(p.read_text()) for p in parts if p.name.endswith(f"of{count}.json")]
    records = sorted((r for s in shards for r in s["records"]),
                     key=lambda r: (r["test"], r["sim"], r["seed"]))
    seen = sorted({s["args"]["shard"] for s in shards})
    merged = dict(shards[-1])
    merged.update(
        records=records, passed=sum(r["passed"] for r in records),
        failed=sum(not r["passed"] for r in records),
        started=min(s["started"] for s in shards), finished=max(s["finished"] for s in shards),
        wall_s=max(s["wall_s"] for s in shards),
        coverage=regress.coverage_summary(records, root / "coverage"),
        cycles=regress.key_cycles(records), shards_seen=seen,
        shards_missing=[f"{i}/{count}" for i in range(1, count + 1)
                        if f"{i}/{count}" not in seen])
    return merged


def test_rows(records: list[dict], tp_of: dict[str, list[str]]) -> list[dict]:
    """One row per registered test (and per unregistered test that has results)."""
    by_test: dict[str, list[dict]] = defaultdict(list)
    for r in records:
        by_test[r["test"]].append(r)
    names = list(registry.TESTS) + sorted(set(by_test) - set(registry.TESTS))
    rows = []
    for name in names:
        recs = by_test.get(name, [])
        t = registry.TESTS.get(name)
        cells = {}
        for sim in SIMULATORS:
            rs = [r for r in recs if r["sim"] == sim]
            supported = t is not None and sim in t.sims
            cells[sim] = (f"{sum(r['passed'] for r in rs)}/{len(rs)}" if rs
                          else "-" if not supported else "not run")
        n, ok = len(recs), sum(r["passed"] for r in recs)
        rows.append({
            "name": name, "block": t.block if t else "?", "cells": cells, "runs": n,
            "passed": ok, "rate": ok / n if n else None,
            "status": "not run" if not n else "passing" if ok == n else "failing",
            "sim_us": _mean([r["sim_time_ns"] / 1000 for r in recs]),
            "wall_mean": _mean([r["wall_s"] for r in recs]),
            "wall_max": max((r["wall_s"] for r in recs), default=None),
            "failing": [f"{r['sim']}/seed{r['seed']}" for r in recs if not r["passed"]],
            "testpoints": tp_of.get(name, []),
            "description": t.description if t else "not in the registry",
        })
    return rows


def failure_groups(records: list[dict]) -> list[dict]:
    """Failed jobs grouped by their first error line, numbers masked so seeds group."""
    groups: dict[str, dict] = {}
    for r in records:
        if r["passed"]:
            continue
        line = regress.first_error_line(r.get("errors", [])) if r.get("errors") \
            else r.get("first_error", "")
        key = re.sub(r"0x[0-9a-fA-F]+|\d+", "#", line)
        g = groups.setdefault(key, {"error": line, "jobs": [], "tests": set()})
        log = f"{r['dir']}/sim.log"
        g["jobs"].append({"test": r["test"], "sim": r["sim"], "seed": r["seed"],
                          "replay": r["replay"], "log": log,
                          # The page lives in build/dashboard/: logs are one folder up.
                          "href": f"../{log.removeprefix('build/')}"
                          if log.startswith("build/") else None,
                          "error": line, "errors": r.get("errors", [])[:8]})
        g["tests"].add(r["test"])
    out = sorted(groups.values(), key=lambda g: (-len(g["jobs"]), g["error"]))
    for g in out:
        g["tests"] = sorted(g["tests"])
    return out


# ---------------------------------------------------------------- pytest + testplan
def read_pytest(path: Path = PYTEST_XML) -> list[dict] | None:
    if not path.exists():
        return None
    cases = []
    for case in ET.parse(path).getroot().iter("testcase"):
        bad = next((tag for tag in ("failure", "error", "skipped")
                    if case.find(tag) is not None), None)
        cases.append({"classname": case.get("classname", ""), "name": case.get("name", ""),
                      "outcome": bad or "passed"})
    return cases


def pytest_status(entry: str, cases: list[dict] | None) -> tuple[str, str]:
    """Status of a testplan pytest entry (file or node id) from the junit cases."""
    if cases is None:
        return "not run", "no build/pytest/results.xml (run make test)"
    path, _, func = entry.partition("::")
    module = path.removesuffix(".py").replace("/", ".")
    hits = [c for c in cases
            if (c["classname"] == module or c["classname"].startswith(module + "."))
            and (not func or c["name"] == func or c["name"].startswith(func + "["))]
    if not hits:
        return "not run", "no cases in the last pytest run"
    bad = [c for c in hits if c["outcome"] != "passed"]
    if bad:
        first = f"{bad[0]['name']}: {bad[0]['outcome']}"
        return "failing", f"{len(bad)}/{len(hits)} not passed ({first})"
    return "passing", f"{len(hits)} cases passed"


_PRIORITY = ("failing", "not run", "planned", "passing")


def proof_status(entry: str, proofs: dict[str, dict] | None) -> tuple[str, str]:
    """Status of a testplan proof entry (a .sby path) from `make formal`'s saved verdicts."""
    res = (proofs or {}).get(entry)
    if res is None:
        return "not run", "not in build/formal/results.json (run make formal)"
    if res.get("passed"):
        return "passing", f"proof passed ({res.get('seconds', 0)} s)"
    detail = res.get("detail") or ["failed"]
    return "failing", str(detail[0])


def testplan_rows(plan: testplan.Testplan, records: list[dict],
                  cases: list[dict] | None,
                  proofs: dict[str, dict] | None = None) -> list[dict]:
    by_test: dict[str, list[dict]] = defaultdict(list)
    for r in records:
        by_test[r["test"]].append(r)
    rows = []
    for tp in plan.testpoints:
        tests = []
        for name in tp.tests:
            if testplan.is_proof(name):
                status, detail = proof_status(name, proofs)
            elif testplan.is_pytest(name):
                status, detail = pytest_status(name, cases)
            else:
                status, detail = _sim_status(by_test.get(name, []))
            tests.append({"name": name, "status": status, "detail": detail})
        for name in tp.planned:
            # A planned test that has since been registered and run counts by its results.
            status, detail = _sim_status(by_test[name]) if by_test.get(name) \
                else ("planned", "planned")
            tests.append({"name": name, "status": status,
                          "detail": detail + (" (still marked planned)" if by_test.get(name)
                                              else "")})
        status = next((s for s in _PRIORITY if any(t["status"] == s for t in tests)), "planned")
        rows.append({"feature": tp.feature, "block": tp.block, "name": tp.name,
                     "stage": tp.stage, "desc": tp.desc, "tests": tests, "status": status})
    return rows


def _sim_status(recs: list[dict]) -> tuple[str, str]:
    if not recs:
        return "not run", "not in this regression"
    ok = sum(r["passed"] for r in recs)
    return ("passing" if ok == len(recs) else "failing"), f"{ok}/{len(recs)} jobs passed"


def stage_counts(rows: list[dict]) -> dict[str, dict[str, int]]:
    counts = {s: dict.fromkeys(_PRIORITY, 0) for s in testplan.STAGES}
    for row in rows:
        if row["stage"] in counts:
            counts[row["stage"]][row["status"]] += 1
    for c in counts.values():
        c["total"] = sum(c[s] for s in _PRIORITY)
    return counts


# ---------------------------------------------------------------- bench, synth, history
def load_bench(bench_dir: Path = BENCH_DIR) -> dict[str, dict]:
    """Benchmark results by name; for each name the newer of summary.json and <name>.json."""
    found: dict[str, tuple[float, dict]] = {}
    summary = bench_dir / "summary.json"
    if summary.exists():
        mtime = summary.stat().st_mtime
        for key, val in json.loads(summary.read_text()).items():
            if isinstance(val, dict):
                found[key] = (mtime, val)
    for path in sorted(bench_dir.glob("*.json")):
        if path.name == "summary.json":
            continue
        mtime = path.stat().st_mtime
        if path.stem not in found or found[path.stem][0] <= mtime:
            try:
                found[path.stem] = (mtime, json.loads(path.read_text()))
            except json.JSONDecodeError:
                continue
    return {k: v for k, (_, v) in sorted(found.items())}


def bench_sections(bench: dict[str, dict]) -> list[dict]:
    """Tables (and plots) per benchmark; known ones get a tailored view, others a flat one."""
    out = []
    for name, data in bench.items():
        view = {"radix_rtl": _radix_rtl, "radix_model": _radix_model,
                "fsm_model": _fsm_model}.get(name, _generic)
        try:
            out.append({"name": name, **view(data)})
        except (KeyError, TypeError, ValueError) as exc:
            out.append({"name": name, **_generic(data),
                        "note": f"unexpected layout ({exc!r}); shown flat"})
    return out


def _radix_rtl(d: dict) -> dict:
    rows = []
    if "match_576" in d:
        m = d["match_576"]
        rows.append(["MATCH, 576 tokens matched", m["cycles"], m["us"], m["sglang_us"],
                     m["speedup"]])
    if "insert_anchor" in d:
        i = d["insert_anchor"]
        rows.append(["INSERT, 576 tokens", i["cycles"], i["us"], i["sglang_us"], i["speedup"]])
    if "evict" in d:
        e = d["evict"]
        rows.append(["EVICT 32,000 tokens", round(e["cycles_per_token"] * 32_000),
                     e["us_for_32000_tokens"], e["sglang_us_for_32000_tokens"],
                     round(e["sglang_us_for_32000_tokens"] / e["us_for_32000_tokens"], 1)])
    tables = [{"id": "tbl-bench-radix-rtl", "head": ["measurement", "cycles",
                                                      f"us @{d.get('clock_mhz', 300)} MHz",
                                                      "SGLang us", "speedup"], "rows": rows}]
    wl = [[w, op, v["n"], v["cycles_mean"], v["tokens_mean"]]
          for w, ops in d.get("workloads", {}).items() for op, v in ops.items()]
    if wl:
        tables.append({"id": "tbl-bench-radix-workloads",
                       "head": ["workload", "command", "n", "mean cycles", "mean tokens"],
                       "rows": wl})
    byl = d.get("match_by_length", {})
    img = plots.bars(list(byl), [v["cycles_mean"] for v in byl.values()],
                     "MATCH mean cycles by matched length (tokens)") if byl else None
    return {"title": "Radix controller RTL: simulated cycles",
            "note": d.get("note", "") + " (timing closure at that clock is not shown here)",
            "tables": tables, "images": [("radix MATCH cycles by length", img)] if img else []}


def _radix_model(d: dict) -> dict:
    ours, sg = d.get("anchor_us", {}), d.get("sglang_us", {})
    keys = [k for k in ours if k in sg]
    rows = [[k, round(ours[k], 2), sg[k]] for k in ours if k in sg]
    tables = [{"id": "tbl-bench-radix-model", "head": ["operation", "model us", "SGLang us"],
               "rows": rows}]
    wl = [[w, round(v.get("cache_hit_rate", 0) * 100, 1), v.get("capacity_tokens", "")]
          for w, v in d.get("workloads", {}).items()]
    if wl:
        tables.append({"id": "tbl-bench-radix-hit", "head": ["workload", "hit rate %",
                                                             "capacity tokens"], "rows": wl})
    img = plots.compare(keys, [ours[k] for k in keys], [sg[k] for k in keys],
                        "golden model (Python)", "SGLang 0.5.23 (CPU)", "us (log)") \
        if keys else None
    return {"title": "Radix golden model vs SGLang (wall clock, Python)", "note": "",
            "tables": tables, "images": [("radix model vs SGLang", img)] if img else []}


def _fsm_model(d: dict) -> dict:
    sizes = d.get("ours", {}).get("sizes", {})
    keep = ("dfa_states", "token_states", "classes", "mask_rows", "forced_states",
            "total_bits", "image_bytes")
    rows = [[k, sizes[k]] for k in keep if k in sizes]
    ours_s = d.get("ours", {}).get("total_s_median")
    oc = d.get("outlines_core", {})
    timing = [["ours: regex -> token tables (median)", ours_s]]
    if oc.get("available"):
        timing.append([f"outlines-core {oc.get('version', '')} index build (median)",
                       oc.get("index_build_s_median")])
    return {"title": f"Token-FSM golden model on {d.get('vocab', '?')} "
                     f"({d.get('vocab_size', '?')} tokens)",
            "note": f"regex: {d.get('regex', '')}",
            "tables": [{"id": "tbl-bench-fsm-sizes", "head": ["table size", "value"],
                        "rows": rows},
                       {"id": "tbl-bench-fsm-time", "head": ["compile", "seconds"],
                        "rows": timing}],
            "images": []}


def _generic(d: dict) -> dict:
    rows = [[k, v] for k, v in _flatten(d)][:60]
    return {"title": "", "note": "", "images": [],
            "tables": [{"id": "", "head": ["key", "value"], "rows": rows}]}


def _flatten(d: object, prefix: str = "") -> list[tuple[str, object]]:
    if isinstance(d, dict):
        return [kv for k, v in d.items() for kv in _flatten(v, f"{prefix}{k}.")]
    if isinstance(d, list):
        return [(prefix.rstrip("."), f"[{len(d)} items]")]
    return [(prefix.rstrip("."), d)]


def load_synth(synth_dir: Path = SYNTH_DIR) -> list[dict]:
    rows = []
    for path in sorted(synth_dir.glob("*/estimate.json")):
        try:
            data = json.loads(path.read_text())
        except json.JSONDecodeError:
            continue
        for top in data.get("tops", []):
            res, pct = top.get("resources", {}), top.get("percent", {})
            rows.append({"board": data.get("board", path.parent.name),
                         "part": data.get("part", ""), "name": top.get("name", ""),
                         "top": top.get("top", ""), "status": top.get("status", ""),
                         "cells": [(res.get(k), pct.get(k)) for k in RESOURCE_KEYS],
                         "levels": top.get("logic_levels") or None,
                         "error": top.get("error", ""), "label": top.get("label", SYNTH_LABEL),
                         "source": _rel(path)})
    return rows


def load_history(path: Path = regress.HISTORY) -> list[dict]:
    if not path.exists():
        return []
    runs = []
    for line in path.read_text().splitlines():
        try:
            runs.append(json.loads(line))
        except json.JSONDecodeError:
            continue
    # A shard's numbers describe part of a run; trends compare whole runs.
    return [r for r in runs if r.get("shard", "1/1") == "1/1"][-TREND_RUNS:]


# ---------------------------------------------------------------- page
@dataclass(frozen=True)
class Sources:
    """Where the page reads from; tests point these at fixtures."""
    regress_root: Path = regress.REGRESS_ROOT
    pytest_xml: Path = PYTEST_XML
    formal_results: Path = formal.RESULTS
    bench_dir: Path = BENCH_DIR
    synth_dir: Path = SYNTH_DIR
    history: Path = regress.HISTORY
    plan: Path = testplan.PLAN_PATH
    mutate_dir: Path = dashboard_mutate.MUTATE_DIR
    waivers: Path = coverage_gates.WAIVERS
    soak_dir: Path = soak.SOAK_DIR


def build(out_dir: Path = OUT_DIR, src: Sources = Sources()) -> Path:  # noqa: B008 - frozen
    plan = testplan.load(src.plan)
    check = testplan.check(plan)
    reg = load_regression(src.regress_root)
    records = reg["records"] if reg else []
    cases = read_pytest(src.pytest_xml)
    tp_rows = testplan_rows(plan, records, cases, formal.load_results(src.formal_results))
    tp_of: dict[str, list[str]] = defaultdict(list)
    for row in tp_rows:
        for t in row["tests"]:
            tp_of[t["name"]].append(row["name"])
    rows = test_rows(records, tp_of)
    counts = stage_counts(tp_rows)
    images: dict[str, str] = {
        "stages": plots.stage_progress(list(testplan.STAGES), counts)}
    ran = [r for r in rows if r["runs"]]
    if ran:
        images["pass_rate"] = plots.pass_rates([r["name"] for r in ran],
                                               [r["rate"] for r in ran])
        images["times"] = plots.times([r["name"] for r in ran], [r["sim_us"] for r in ran],
                                      [r["wall_mean"] for r in ran])
    cov = reg["coverage"] if reg else None
    functional, modules = [], []
    if cov:
        for name, g in cov["functional"].items():
            functional.append({"name": name, "desc": plan.covergroups.get(name, ""), **g})
        if functional:
            images["functional"] = plots.percent_bars(
                [g["name"] for g in functional], [g["pct"] for g in functional],
                "functional coverage per covergroup, merged over seeds (%)")
        for mod, kinds in cov["code_modules"].items():
            modules.append({"name": mod, "kinds": {k: _pct(*v) for k, v in kinds.items()},
                            "raw": kinds})
        if modules:
            images["code"] = plots.grouped_percent(
                [m["name"] for m in modules],
                {k: [m["kinds"][k] for m in modules] for k in ("line", "branch", "toggle")},
                "code coverage per module, merged (%)")
    lcov_name = None
    out_dir.mkdir(parents=True, exist_ok=True)
    if cov and cov.get("lcov") and (ROOT / cov["lcov"]).exists():
        lcov_name = "coverage.info"
        shutil.copyfile(ROOT / cov["lcov"], out_dir / lcov_name)
    bench = bench_sections(load_bench(src.bench_dir))
    synth = load_synth(src.synth_dir)
    if any(s["status"] == "ok" for s in synth):
        ok = [s for s in synth if s["status"] == "ok"]
        images["synth"] = plots.grouped_percent(
            [f"{s['board']}/{s['name']}" for s in ok],
            {k: [s["cells"][i][1] or 0 for s in ok] for i, k in enumerate(RESOURCE_KEYS)},
            "percent of the device (Yosys estimate, not Vivado)")
    waivers = coverage_gates.load_waivers(src.waivers)
    gates, stale = coverage_gates.evaluate(src.regress_root, waivers)
    history = load_history(src.history)
    trend_imgs = _trend_images(history)
    groups = failure_groups(records)
    ctx = {
        "generated": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "plan": plan, "check": check, "reg": reg, "rows": rows, "tp_rows": tp_rows,
        "counts": counts, "stages": testplan.STAGES, "sims": SIMULATORS, "groups": groups,
        "functional": functional, "cov": cov, "modules": modules, "lcov": lcov_name,
        "code_kinds": [k for k in coverage_merge.CODE_KINDS
                       if any(m["raw"][k][1] for m in modules)],
        "bench": bench, "synth": synth, "synth_label": SYNTH_LABEL,
        "mutation": dashboard_mutate.load_mutation(src.mutate_dir),
        "soaks": soak.load_soaks(src.soak_dir),
        "gates": [g.row() for g in gates], "waivers": waivers, "stale_waivers": stale,
        "mutation_target": dashboard_mutate.TARGET_PCT,
        "resource_keys": RESOURCE_KEYS, "history": list(reversed(history[-15:])),
        "trend_imgs": trend_imgs, "images": images, "pytest_cases": cases,
        "pytest_counts": _pytest_counts(cases),
    }
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES),
                             autoescape=jinja2.select_autoescape(["html", "j2"]),
                             undefined=jinja2.StrictUndefined, trim_blocks=True,
                             lstrip_blocks=True)
    env.filters["fmt"] = _fmt
    page = out_dir / "index.html"
    page.write_text(env.get_template("dashboard.html.j2").render(**ctx))
    return page


def _trend_images(history: list[dict]) -> list[tuple[str, str]]:
    if len(history) < 1:
        return []
    labels = [f"{h['time'][5:16].replace('T', ' ')} {h['commit'][:7]}"
              f"{' ci' if h.get('ci') else ''}" for h in history]
    out = [("pass rate and coverage", plots.trends(labels, {
        "pass rate": [100 * h["pass_rate"] if h.get("pass_rate") is not None else None
                      for h in history],
        "functional": [h.get("functional_pct") for h in history],
        **{k: [(h.get("code") or {}).get(k) for h in history]
           for k in ("line", "branch", "toggle")}}, "%", (0, 105)))]
    keys = sorted({k for h in history for k in (h.get("cycles") or {})})
    if keys:
        out.append(("key cycle counts", plots.trends(
            labels, {k: [(h.get("cycles") or {}).get(k) for h in history] for k in keys},
            "cycles")))
    return out


def _pytest_counts(cases: list[dict] | None) -> dict[str, dict[str, int]] | None:
    if cases is None:
        return None
    out: dict[str, dict[str, int]] = defaultdict(lambda: {"passed": 0, "not passed": 0})
    for c in cases:
        mod = c["classname"].split(".")
        key = "/".join(mod[:3]) + ".py" if len(mod) >= 3 else c["classname"]
        out[key]["passed" if c["outcome"] == "passed" else "not passed"] += 1
    return dict(sorted(out.items()))


def _mean(xs: list[float]) -> float | None:
    return sum(xs) / len(xs) if xs else None


def _pct(hit: int, total: int) -> float | None:
    return round(100.0 * hit / total, 1) if total else None


def _fmt(value: object, digits: int = 1) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:,.{digits}f}"
    if isinstance(value, int) and not isinstance(value, bool):
        return f"{value:,}"
    return str(value)


def _rel(path: Path) -> str:
    try:
        return path.resolve().relative_to(ROOT).as_posix()
    except ValueError:
        return str(path)


# Tables a verification lead cannot do without; the browser check insists they have rows.
REQUIRED_TABLES = ("tbl-stages", "tbl-testplan", "tbl-tests", "tbl-functional", "tbl-code")


def required_tables(src: Sources = Sources()) -> tuple[str, ...]:  # noqa: B008 - frozen
    """REQUIRED_TABLES, less the coverage tables when no regression has produced coverage
    (a fresh clone's page says so in words instead)."""
    reg = load_regression(src.regress_root)
    cov = reg["coverage"] if reg else {}
    skip = set()
    if not cov.get("functional"):
        skip.add("tbl-functional")
    if not cov.get("code_modules"):
        skip.add("tbl-code")
    return tuple(t for t in REQUIRED_TABLES if t not in skip)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, default=OUT_DIR)
    ap.add_argument("--no-check", action="store_true",
                    help="skip opening the page in headless Chromium (screenshot.png)")
    args = ap.parse_args(argv)
    page = build(args.out)
    print(f"wrote {_rel(page)}")
    from scripts import browser_check

    if args.no_check:
        return 0
    if browser_check.find_browser() is None:
        required = browser_check.browser_required()
        print(f"dashboard: {browser_check.NO_BROWSER}"
              + (" (required on CI: failed)" if required else ""))
        return 1 if required else 0
    rep = browser_check.check_page(page, screenshot=args.out / "screenshot.png")
    problems = rep.problems(required_tables())
    for p in problems:
        print(f"browser: {p}")
    print(f"browser: {len(rep.images)} images, tables "
          f"{', '.join(f'{k}={v}' for k, v in rep.tables.items())}; screenshot "
          f"{_rel(rep.screenshot) if rep.screenshot else 'not written'}")
    return 1 if problems or rep.screenshot is None else 0


if __name__ == "__main__":
    sys.exit(main())
