# SPDX-License-Identifier: Apache-2.0
"""`make test`: lint, formal proofs, model unit tests (pytest), the package check, the
SGLang check, the CI-sized regression, and the dashboard.

`make lint` counts as one test and each `make formal` proof (one .sby file, all its
tasks) as one more.

The regression is `make regress` at CI size (scripts/regress.py: seed 1, each test's
ci_sims and ci_env), so CI and a full regression share one runner and one output layout
(build/regress/). The dashboard is then built from these results and opened in headless
Chromium; that check counts as one more test.

Ends with one line `N passed, N failed`; exits non-zero on any failure.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from scripts import (
    browser_check,
    dashboard,
    formal,
    lint,
    package_check,
    registry,
    regress,
    sglang_check,
)
from scripts.registry import ROOT, SIMULATORS

CI_SEED = 1  # fixed, so CI is reproducible; `make regress` sweeps seeds
# Also run at a seed derived from the commit (commit_seed()), so each commit explores new
# stimulus while staying replayable: the constrained-random tests, on Verilator only, to
# keep CI time in bounds (they add about a fifth of the simulation jobs).
COMMIT_SEED_TESTS = ("fifo_random", "skid_random", "ram_random", "radix_random",
                     "radix_errors", "radix_csr_suite", "radix_stress_all", "fsm_random_regex",
                     "fsm_irq", "fsm_errors", "fsm_csr_suite", "fsm_stress_all")
COMMIT_SEED_SIM = "verilator"


def commit_seed(rev: str | None = None) -> int | None:
    """int of the first 8 hex digits of `git rev-parse HEAD`; None outside a git checkout."""
    if rev is None:
        proc = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True,
                              text=True)
        rev = proc.stdout.strip() if proc.returncode == 0 else ""
    try:
        return int(rev[:8], 16) if len(rev) >= 8 else None
    except ValueError:
        return None


def commit_seed_jobs(pattern: str, seed: int | None) -> tuple[regress.Job, ...]:
    if seed is None or seed == CI_SEED:
        return ()
    tests = {t.name for t in regress.select_tests(pattern)}
    return tuple(regress.Job(name, COMMIT_SEED_SIM, seed) for name in COMMIT_SEED_TESTS
                 if name in tests and COMMIT_SEED_SIM in registry.TESTS[name].ci_sims)


def run_lint() -> tuple[int, int]:
    """`make lint` (verilator -Wall on every top, ruff): one test."""
    print("lint:", flush=True)
    return (1, 0) if lint.main() == 0 else (0, 1)


def run_package_check() -> tuple[int, int]:
    """`make package-check`: the wheel's contents and each artifact's smoke run count."""
    print("package-check:", flush=True)
    return package_check.run()


def run_formal(results: list[formal.ProofResult] | None = None) -> tuple[int, int]:
    """`make formal`: each proof (prove and cover tasks of one .sby file) is one test.
    With `results` (proofs already run beside pytest), only report them."""
    if results is None:
        results = formal.run_all()
    else:
        for res in results:
            formal.report(res)
    if not results:
        print("formal: no proofs found")
        return 0, 1
    passed = sum(r.passed for r in results)
    return passed, len(results) - passed


def junit_counts(report: Path, returncode: int) -> tuple[int, int]:
    """(passed, failed) from a pytest junit report; a skipped case counts as failed."""
    if not report.exists():
        print(f"pytest produced no report (exit {returncode})")
        return 0, 1
    passed = failed = 0
    for case in ET.parse(report).getroot().iter("testcase"):
        bad = any(case.find(tag) is not None for tag in ("failure", "error", "skipped"))
        failed += bad
        passed += not bad
    if returncode not in (0, 1) and failed == 0:
        failed = 1  # pytest itself broke (collection error, usage error, ...)
    return passed, failed


def run_pytest(workers: int) -> tuple[int, int]:
    """Run the Python test suites in `workers` processes (pytest-xdist): the two Yosys
    runs of the tops take about 300 s each and would otherwise run one after the other.
    Count the cases from the junit report."""
    report = ROOT / "build" / "pytest" / "results.xml"
    report.parent.mkdir(parents=True, exist_ok=True)
    report.unlink(missing_ok=True)
    # loadgroup with no groups: one test per unit, in collection order, so the tests
    # marked slow (tests/conftest.py puts them first) start on different workers.
    spread = ["-n", str(workers), "--dist", "loadgroup"] if workers > 1 else []
    proc = subprocess.run([sys.executable, "-m", "pytest", *spread, f"--junitxml={report}"],
                          cwd=ROOT)
    return junit_counts(report, proc.returncode)


def run_sglang_check() -> tuple[int, int]:
    """`make sglang-check` in its own venv: each of its test cases counts."""
    print("sglang-check:", flush=True)
    report = sglang_check.OUT / "results.xml"
    report.parent.mkdir(parents=True, exist_ok=True)
    report.unlink(missing_ok=True)
    return junit_counts(report, sglang_check.run(report))


def run_sims(pattern: str, jobs: int) -> tuple[int, int]:
    """The CI-sized regression: every test on its ci_sims at CI_SEED, CI sizes, plus the
    COMMIT_SEED_TESTS at the commit's seed; a replay line for every job."""
    seed = commit_seed()
    extra = commit_seed_jobs(pattern, seed)
    print(f"simulation seeds: {CI_SEED} (fixed), " + (
        f"{seed} (from the commit, {len(extra)} tests on {COMMIT_SEED_SIM})"
        if seed is not None else "none from the commit (not a git checkout)"), flush=True)
    try:
        summary = regress.regress([CI_SEED], list(SIMULATORS), jobs, "1/1", pattern, ci=True,
                                  extra_jobs=extra)
    except ValueError as exc:
        print(f"regression: {exc}")
        return 0, 1
    print("replay (CI=1: the registry's CI sizes, as run here):")
    for r in summary["records"]:
        print(f"    {r['replay']}")
    for r in summary["records"]:
        if not r["passed"]:
            print(f"FAIL {r['test']} sim={r['sim']} seed={r['seed']}: {r['first_error']}\n"
                  f"    replay: {r['replay']}")
    return summary["passed"], summary["failed"]


def run_dashboard() -> tuple[int, int]:
    """Build build/dashboard/index.html and check it in Chromium (screenshot beside it)."""
    page = dashboard.build()
    if browser_check.find_browser() is None:
        required = browser_check.browser_required()
        print(f"dashboard: {page.relative_to(ROOT)} written; {browser_check.NO_BROWSER}"
              + (" (required on CI: failed)" if required else ""))
        return (0, 1) if required else (0, 0)
    try:
        rep = browser_check.check_page(page, screenshot=page.parent / "screenshot.png")
    except (FileNotFoundError, RuntimeError) as exc:
        print(f"dashboard: {page} written, browser check failed: {exc}")
        return 0, 1
    problems = rep.problems(dashboard.required_tables())
    for p in problems:
        print(f"dashboard: {p}")
    print(f"dashboard: {page.relative_to(ROOT)} ({len(rep.images)} images; screenshot "
          f"{rep.screenshot.relative_to(ROOT) if rep.screenshot else 'missing'})")
    return (0, 1) if problems or rep.screenshot is None else (1, 0)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--tests", default="", help="only simulation tests whose name contains this")
    ap.add_argument("--no-pytest", action="store_true")
    ap.add_argument("--no-lint", action="store_true")
    ap.add_argument("--no-formal", action="store_true")
    ap.add_argument("--no-package", action="store_true")
    ap.add_argument("--no-sglang", action="store_true")
    ap.add_argument("--jobs", type=int, default=int(os.environ.get("JOBS", "2")),
                    help="simulator (and pytest) processes at a time (default: $JOBS or 2)")
    args = ap.parse_args()
    start = time.monotonic()
    lint_pass, lint_fail = (0, 0) if args.no_lint else run_lint()
    # The proofs (one solver process at a time) run beside pytest (--jobs processes), so
    # no core idles while the longest proof or Yosys run finishes; their lines are
    # printed once pytest is done, not mixed into its output.
    if not args.no_formal:
        formal.warm_tools(formal.tool_env())
    with ThreadPoolExecutor(max_workers=1) as pool:
        proofs = None if args.no_formal else pool.submit(formal.run_all, "", False)
        py_pass, py_fail = (0, 0) if args.no_pytest else run_pytest(args.jobs)
        fv_pass, fv_fail = (0, 0) if proofs is None else run_formal(proofs.result())
    pkg_pass, pkg_fail = (0, 0) if args.no_package else run_package_check()
    sg_pass, sg_fail = (0, 0) if args.no_sglang else run_sglang_check()
    sim_pass, sim_fail = run_sims(args.tests, args.jobs)
    dash_pass, dash_fail = run_dashboard()
    dash = "passed" if dash_pass else "failed" if dash_fail else "not checked (no browser)"
    print(f"\nlint: {'passed' if lint_pass else 'failed' if lint_fail else 'not run'}; "
          f"formal: {fv_pass} passed, {fv_fail} failed; "
          f"pytest: {py_pass} passed, {py_fail} failed; "
          f"package-check: {pkg_pass} passed, {pkg_fail} failed; "
          f"sglang-check: {sg_pass} passed, {sg_fail} failed; "
          f"simulation: {sim_pass} passed, {sim_fail} failed; "
          f"dashboard: {dash}; "
          f"{time.monotonic() - start:.0f} s")
    total_pass = lint_pass + fv_pass + py_pass + pkg_pass + sg_pass + sim_pass + dash_pass
    total_fail = lint_fail + fv_fail + py_fail + pkg_fail + sg_fail + sim_fail + dash_fail
    if total_pass + total_fail == 0:
        print("no tests ran")
        return 1
    print(f"{total_pass} passed, {total_fail} failed")
    return 0 if total_fail == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
