# SPDX-License-Identifier: Apache-2.0
"""`make test`: model unit tests (pytest) plus the CI-sized simulation regression.

Ends with one line `N passed, N failed`; exits non-zero on any failure.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
import xml.etree.ElementTree as ET

from scripts import registry
from scripts.registry import ROOT
from scripts.sim import BUILD_ROOT, print_result, run_one

CI_SEED = 1  # fixed, so CI is reproducible; `make regress` sweeps seeds


def run_pytest() -> tuple[int, int]:
    """Run the Python test suites; count their cases from the junit report."""
    report = ROOT / "build" / "pytest" / "results.xml"
    report.parent.mkdir(parents=True, exist_ok=True)
    report.unlink(missing_ok=True)
    proc = subprocess.run([sys.executable, "-m", "pytest", f"--junitxml={report}"], cwd=ROOT)
    if not report.exists():
        print(f"pytest produced no report (exit {proc.returncode})")
        return 0, 1
    passed = failed = 0
    for case in ET.parse(report).getroot().iter("testcase"):
        bad = any(case.find(tag) is not None for tag in ("failure", "error", "skipped"))
        failed += bad
        passed += not bad
    if proc.returncode not in (0, 1) and failed == 0:
        failed = 1  # pytest itself broke (collection error, usage error, ...)
    return passed, failed


def run_sims(pattern: str) -> tuple[int, int]:
    passed = failed = 0
    for test in registry.TESTS.values():
        if pattern not in test.name:
            continue
        for sim in test.ci_sims:
            res = run_one(test, sim, CI_SEED, out_dir=BUILD_ROOT / "ci" / test.name / sim, ci=True)
            print_result(res)
            passed += res.passed
            failed += not res.passed
    return passed, failed


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--tests", default="", help="only simulation tests whose name contains this")
    ap.add_argument("--no-pytest", action="store_true")
    args = ap.parse_args()
    start = time.monotonic()
    py_pass, py_fail = (0, 0) if args.no_pytest else run_pytest()
    sim_pass, sim_fail = run_sims(args.tests)
    print(f"\npytest: {py_pass} passed, {py_fail} failed; "
          f"simulation: {sim_pass} passed, {sim_fail} failed; "
          f"{time.monotonic() - start:.0f} s")
    total_pass, total_fail = py_pass + sim_pass, py_fail + sim_fail
    if total_pass + total_fail == 0:
        print("no tests ran")
        return 1
    print(f"{total_pass} passed, {total_fail} failed")
    return 0 if total_fail == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
