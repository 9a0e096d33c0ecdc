# SPDX-License-Identifier: Apache-2.0
"""`make regress`: every registered test x seed x simulator, one simulator process per job.

    make regress [SEEDS=n] [SEED=first] [SIMS=verilator,icarus] [JOBS=2] [SHARD=i/N]
                 [TESTS=pattern[,pattern]]

Each job runs scripts.sim.run_one in a process pool and keeps its results.xml, sim.log,
coverage.xml and (Verilator) coverage.dat in build/regress/<test>/<sim>/seed<N>/. Each
DUT configuration is built once per simulator: run_one's file lock makes later jobs of a
configuration wait for the first one's build, and the first job of every configuration is
started before any second one so that builds of different configurations overlap.

The run writes build/regress/summary.json (summary-<i>of<N>.json for a shard), merged
coverage under build/regress/coverage/, and appends one line to build/history.jsonl.
It ends with `N passed, N failed` and exits 1 on any failure.
"""

from __future__ import annotations

import argparse
import datetime as dt
import fnmatch
import json
import multiprocessing
import os
import re
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path

from scripts import coverage_gates, coverage_merge, registry, testplan
from scripts.registry import ROOT, SIMULATORS
from scripts.sim import replay_command

REGRESS_ROOT = ROOT / "build" / "regress"
HISTORY = ROOT / "build" / "history.jsonl"
EXIT_USAGE = 2
BENCH_TEST = "radix_bench"   # its bench.json gives the key cycle counts for the trends


@dataclass(frozen=True, order=True)
class Job:
    test: str
    sim: str
    seed: int

    def out_dir(self, root: Path = REGRESS_ROOT) -> Path:
        return root / self.test / self.sim / f"seed{self.seed}"


# ---------------------------------------------------------------- job list
def select_tests(pattern: str) -> list[registry.SimTest]:
    """Comma-separated patterns; a pattern without wildcards matches as a substring."""
    pats = [p.strip() for p in pattern.split(",") if p.strip()]

    def hit(name: str) -> bool:
        return not pats or any(
            fnmatch.fnmatchcase(name, p) if any(c in p for c in "*?[") else p in name
            for p in pats)

    return [t for t in registry.TESTS.values() if hit(t.name)]


def plan_jobs(tests: list[registry.SimTest], sims: list[str], seeds: list[int],
              ci: bool = False) -> list[Job]:
    """Registry order x simulator x seed: the canonical list every shard agrees on."""
    jobs = []
    for t in tests:
        supported = t.ci_sims if ci else t.sims
        for sim in SIMULATORS:
            if sim in sims and sim in supported:
                jobs += [Job(t.name, sim, s) for s in seeds]
    return jobs


def parse_shard(text: str) -> tuple[int, int]:
    """'i/N', 1 <= i <= N (1-based, like CI matrix indices)."""
    m = re.fullmatch(r"\s*(\d+)\s*/\s*(\d+)\s*", text or "1/1")
    if not m or not 1 <= int(m[1]) <= int(m[2]):
        raise ValueError(f"SHARD must be i/N with 1 <= i <= N, got '{text}'")
    return int(m[1]), int(m[2])


def shard(jobs: list[Job], index: int, count: int) -> list[Job]:
    """Round-robin over the canonical list, so long tests spread over the shards."""
    return [j for k, j in enumerate(jobs) if k % count == index - 1]


def build_first(jobs: list[Job]) -> list[Job]:
    """First job of each (simulator, DUT configuration) first, then the rest."""
    seen: set[tuple[str, str]] = set()
    first, rest = [], []
    for j in jobs:
        key = (j.sim, registry.TESTS[j.test].config_key())
        (rest if key in seen else first).append(j)
        seen.add(key)
    return first + rest


# ---------------------------------------------------------------- running
def run_job(job: Job, ci: bool, root: str) -> dict:
    """One job, in a pool worker. Returns a JSON-able record."""
    from scripts.sim import run_one

    try:
        res = run_one(registry.TESTS[job.test], job.sim, job.seed,
                      out_dir=job.out_dir(Path(root)), ci=ci)
    except Exception as exc:  # noqa: BLE001 - a crashed runner is a failed job, not a dead pool
        return job_record(job, Path(root), False, errors=[f"runner crashed: {exc!r}"], ci=ci)
    return job_record(job, Path(root), res.passed, res.sim_time_ns, res.wall_s, res.errors,
                      ci=ci)


def job_record(job: Job, root: Path, passed: bool, sim_ns: float = 0.0, wall: float = 0.0,
               errors: list[str] | None = None, ci: bool = False) -> dict:
    errors = errors or []
    return {
        "test": job.test, "block": registry.TESTS[job.test].block, "sim": job.sim,
        "seed": job.seed, "passed": passed, "sim_time_ns": sim_ns, "wall_s": round(wall, 2),
        "errors": errors, "first_error": "" if passed else first_error_line(errors),
        "replay": replay_command(job.test, job.sim, job.seed, ci),
        "dir": _rel(job.out_dir(root)),
    }


def run_jobs(jobs: list[Job], workers: int, ci: bool, root: Path = REGRESS_ROOT,
             echo: bool = True) -> list[dict]:
    records: list[dict] = []
    # fork: workers inherit the parent's registry as it is (tests add entries to it).
    ctx = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(max_workers=max(1, workers), mp_context=ctx) as pool:
        futures = {pool.submit(run_job, j, ci, str(root)): j for j in build_first(jobs)}
        try:
            for k, fut in enumerate(as_completed(futures), 1):
                try:
                    rec = fut.result()
                except Exception as exc:  # noqa: BLE001 - e.g. a worker killed by the OOM killer
                    rec = job_record(futures[fut], root, False,
                                     errors=[f"worker died: {exc!r}"], ci=ci)
                records.append(rec)
                if echo:
                    _print_record(rec, k, len(jobs))
        except KeyboardInterrupt:
            pool.shutdown(wait=False, cancel_futures=True)
            raise
    return sorted(records, key=lambda r: (r["test"], r["sim"], r["seed"]))


# cocotb/pyuvm log columns: "  1240.00ns ERROR    ..nv/common/scoreboard_base.py(32) [comp]: msg"
_TIME_PREFIX = re.compile(r"^\s*[\d.]+\s*[munpf]?s\s+")
_LEVEL = re.compile(r"^(ERROR|WARNING|CRITICAL|INFO)\s+")
_WHERE = re.compile(r"^\S+\.py\(\d+\)\s+")


def first_error_line(errors: list[str]) -> str:
    """The line that names the failure, without the time, level and source-file columns
    (they differ between seeds and would split one bug into many groups)."""
    for line in errors:
        text = _WHERE.sub("", _LEVEL.sub("", _TIME_PREFIX.sub("", line))).strip()
        if not text or "Traceback (most recent call last)" in text \
                or text.startswith(("File \"", "^")):
            continue
        return text[:300]
    return errors[0].strip()[:300] if errors else "no error line found"


def _print_record(rec: dict, k: int, n: int) -> None:
    status = "PASS" if rec["passed"] else "FAIL"
    print(f"[{k}/{n}] {status} {rec['test']} sim={rec['sim']} seed={rec['seed']} "
          f"sim_time={rec['sim_time_ns'] / 1000:.1f}us wall={rec['wall_s']:.1f}s", flush=True)
    if not rec["passed"]:
        for line in rec["errors"][:6]:
            print(f"    {line}")
        print(f"    log: {rec['dir']}/sim.log")
        print(f"    replay: {rec['replay']}", flush=True)


# ---------------------------------------------------------------- summary
def coverage_summary(records: list[dict], out_dir: Path) -> dict:
    """Merge coverage of the passing jobs (a failed run's coverage is not evidence)."""
    dirs = [ROOT / r["dir"] for r in records if r["passed"]]
    xmls = [d / "coverage.xml" for d in dirs if (d / "coverage.xml").exists()]
    dats = [d / "coverage.dat" for d in dirs if (d / "coverage.dat").exists()]
    groups = coverage_merge.functional_groups(coverage_merge.merge_functional(xmls))
    points = coverage_merge.merge_dat(dats)
    modules = coverage_merge.code_modules(points)
    lcov = coverage_merge.write_lcov(points, out_dir / "coverage.info") if dats else None
    return {"functional": groups, "functional_total": coverage_merge.functional_total(groups),
            "functional_files": len(xmls), "code_modules": modules,
            "code_totals": coverage_merge.code_totals(
                modules, exclude=coverage_merge.generated_modules(points)), "code_files": len(dats),
            "lcov": _rel(lcov) if lcov else None}


def key_cycles(records: list[dict]) -> dict[str, float]:
    """Headline cycle counts from the first passing radix_bench job, for the trends."""
    from scripts import bench_radix_rtl

    for rec in records:
        path = ROOT / rec["dir"] / "bench.json"
        if rec["test"] == BENCH_TEST and rec["passed"] and path.exists():
            data = json.loads(path.read_text())
            s = bench_radix_rtl.summarise(data["records"], data["params"])
            out = {}
            if "match_576" in s:
                out["radix MATCH 576 tok"] = s["match_576"]["cycles"]
            if "insert_anchor" in s:
                out["radix INSERT 576 tok"] = s["insert_anchor"]["cycles"]
            if "evict" in s:
                out["radix EVICT per token"] = s["evict"]["cycles_per_token"]
            return out
    return {}


def summary_path(index: int, count: int, root: Path = REGRESS_ROOT) -> Path:
    return root / ("summary.json" if count == 1 else f"summary-{index}of{count}.json")


def write_summary(summary: dict, index: int, count: int, root: Path = REGRESS_ROOT) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    # Summaries of another shard layout describe an older run: drop them so the
    # dashboard never mixes runs. Shards of the same layout may be running beside us.
    for old in root.glob("summary*.json"):
        if old.name != summary_path(index, count, root).name and \
                not old.name.endswith(f"of{count}.json"):
            old.unlink()
    path = summary_path(index, count, root)
    path.write_text(json.dumps(summary, indent=1))
    return path


def history_line(summary: dict) -> dict:
    n = summary["passed"] + summary["failed"]
    cov = summary["coverage"]
    return {"time": summary["finished"], "commit": summary["git"]["commit"],
            "dirty": summary["git"]["dirty"], "ci": summary["args"]["ci"],
            "shard": summary["args"]["shard"], "seeds": len(summary["args"]["seeds"]),
            "jobs": n, "passed": summary["passed"], "failed": summary["failed"],
            "pass_rate": round(summary["passed"] / n, 4) if n else None,
            "wall_s": summary["wall_s"], "functional_pct": cov["functional_total"],
            "code": cov["code_totals"], "cycles": summary["cycles"]}


def append_history(line: dict, path: Path = HISTORY) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a") as fh:
        fh.write(json.dumps(line) + "\n")


def git_state() -> dict:
    def git(*args: str) -> str:
        proc = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True)
        return proc.stdout.strip() if proc.returncode == 0 else ""

    return {"commit": git("rev-parse", "--short=12", "HEAD") or "unknown",
            "dirty": bool(git("status", "--porcelain", "--untracked-files=no"))}


def _rel(path: Path) -> str:
    try:
        return path.resolve().relative_to(ROOT).as_posix()
    except ValueError:
        return str(path)


# ---------------------------------------------------------------- CLI
def regress(seeds: list[int], sims: list[str], workers: int, shard_spec: str = "1/1",
            pattern: str = "", ci: bool = False, root: Path = REGRESS_ROOT,
            history: Path | None = HISTORY, extra_jobs: tuple[Job, ...] = ()) -> dict:
    """extra_jobs (e.g. `make test`'s commit-seed runs) join the planned list."""
    index, count = parse_shard(shard_spec)
    tests = select_tests(pattern)
    if not tests:
        raise ValueError(f"TESTS='{pattern}' matches no registered test")
    all_jobs = plan_jobs(tests, sims, seeds, ci=ci)
    all_jobs += [j for j in extra_jobs if j not in all_jobs]
    if not all_jobs:
        raise ValueError(f"no jobs: none of {[t.name for t in tests]} runs on {','.join(sims)}")
    jobs = shard(all_jobs, index, count)
    print(f"regress: {len(jobs)} jobs (shard {index}/{count} of {len(all_jobs)}): "
          f"{len(tests)} tests x seeds {seeds[0]}..{seeds[-1]} x {','.join(sims)}, "
          f"{workers} at a time{', CI sizes' if ci else ''}; load {_load()}", flush=True)
    started, t0 = _now(), time.monotonic()
    records = run_jobs(jobs, workers, ci, root)
    wall = round(time.monotonic() - t0, 1)
    summary = {
        "schema": 1, "started": started, "finished": _now(), "wall_s": wall,
        "git": git_state(), "host": {"cpus": os.cpu_count(), "load_end": _load()},
        "args": {"seeds": seeds, "sims": sims, "jobs": workers, "shard": f"{index}/{count}",
                 "tests": pattern, "ci": ci, "total_jobs": len(all_jobs)},
        "records": records,
        "passed": sum(r["passed"] for r in records),
        "failed": sum(not r["passed"] for r in records),
        "coverage": coverage_summary(records, root / "coverage"),
        "cycles": key_cycles(records),
    }
    path = write_summary(summary, index, count, root)
    if history is not None:
        append_history(history_line(summary), history)
    cov = summary["coverage"]
    print(f"\nsummary: {_rel(path)}; {wall:.0f} s wall; functional coverage "
          f"{cov['functional_total']}%; code coverage {cov['code_totals']}")
    if count == 1:   # a shard's coverage is partial: gates are judged after the merge
        gates, _ = coverage_gates.evaluate(root, coverage_gates.load_waivers())
        print("coverage gates (make coverage-gates): " + ", ".join(
            f"{g.block} {g.kind} {g.pct}% {'ok' if g.passed else 'RED'}" for g in gates))
    return summary


def _now() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="seconds")


def _load() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "n/a"


def _seed_list(count: int, first: int) -> list[int]:
    if count < 1:
        raise ValueError(f"SEEDS must be >= 1, got {count}")
    return list(range(first, first + count))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seeds", default="1", help="seeds per test and simulator")
    ap.add_argument("--first-seed", default="1", help="seeds are first..first+SEEDS-1")
    ap.add_argument("--sims", default=",".join(SIMULATORS))
    ap.add_argument("--jobs", default="2", help="simulator processes at a time")
    ap.add_argument("--shard", default="1/1", help="i/N: run every N-th job from the i-th")
    ap.add_argument("--tests", default="", help="name patterns, comma-separated")
    ap.add_argument("--ci", action="store_true", help="registry ci_sims and ci_env sizes")
    args = ap.parse_args(argv)
    sims = [s.strip() for s in args.sims.split(",") if s.strip()]
    try:
        bad = [s for s in sims if s not in SIMULATORS]
        if bad or not sims:
            raise ValueError(f"SIMS must be from {','.join(SIMULATORS)}, got '{args.sims}'")
        seeds = _seed_list(int(args.seeds), int(args.first_seed or 1))
        summary = regress(seeds, sims, int(args.jobs), args.shard, args.tests, args.ci,
                          root=REGRESS_ROOT, history=HISTORY)
    except ValueError as exc:
        print(f"regress: {exc}", file=sys.stderr)
        return EXIT_USAGE
    rep = testplan.check(testplan.load())
    for err in rep.errors:
        print(f"testplan: {err}")
    fails = [r for r in summary["records"] if not r["passed"]]
    if fails:
        print("\nfailed jobs:")
        for r in fails:
            print(f"  {r['replay']}    # {r['first_error'][:100]}")
    print(f"{summary['passed']} passed, {summary['failed']} failed")
    return 1 if summary["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
