# SPDX-License-Identifier: Apache-2.0
"""`make soak TEST=radix_random OPS=1000000 [SEED=n] [SIM=verilator]`: one very long run.

A soak is the test's own body at a size no regression runs: the same scoreboard checks
every response, so a pass means every one of OPS operations matched the model. The
test must take its size from an ``N_OPS`` knob (registry ``env``); any other test is
refused. The result goes to build/soak/<test>.json (test, seed, operations, verdict,
times, commit, replay line) and `make dashboard` shows the last one per test.

A million radix_random operations take about 25 minutes on one core of the CI
machine, so the soak is not part of `make test`; run it nightly beside
`make regress SEEDS=20`.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import random
import subprocess
import sys
from pathlib import Path

from scripts import registry
from scripts.registry import ROOT
from scripts.sim import EXIT_USAGE, print_result, run_one

SOAK_DIR = ROOT / "build" / "soak"
KNOB = "N_OPS"


def commit() -> str:
    """The checkout the soak runs, "-dirty" when tracked files differ from it: a soak
    is only worth citing for a commit one can check out again."""
    def git(*args: str) -> str:
        return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True,
                              check=False).stdout.strip()

    head = git("rev-parse", "--short", "HEAD") or "unknown"
    return f"{head}-dirty" if git("status", "--porcelain", "--untracked-files=no") else head


def soak(test_name: str, ops: int, seed: int, sim: str, out_root: Path = SOAK_DIR) -> dict:
    test = registry.TESTS[test_name]
    started = dt.datetime.now(dt.UTC)
    # Taken before the run: a soak lasts long enough for commits to land meanwhile.
    ran_on = commit()
    res = run_one(test, sim, seed, out_dir=out_root / test_name / sim, echo=True,
                  extra_env={KNOB: str(ops)})
    print_result(res)
    record = {
        "test": test_name, "sim": sim, "seed": seed, "ops": ops, "passed": res.passed,
        "wall_s": round(res.wall_s, 1), "sim_time_ns": res.sim_time_ns,
        "started": started.isoformat(timespec="seconds"), "commit": ran_on,
        "errors": res.errors[:5],
        "replay": f"make soak TEST={test_name} OPS={ops} SEED={seed} SIM={sim}",
        "log": str(res.out_dir / "sim.log"),
    }
    out_root.mkdir(parents=True, exist_ok=True)
    (out_root / f"{test_name}.json").write_text(json.dumps(record, indent=1) + "\n")
    return record


def load_soaks(soak_dir: Path = SOAK_DIR) -> list[dict]:
    """The last soak of each test, for the dashboard."""
    rows = []
    for path in sorted(soak_dir.glob("*.json")):
        try:
            rows.append(json.loads(path.read_text()))
        except json.JSONDecodeError:
            continue
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--test", default="radix_random")
    ap.add_argument("--ops", type=int, default=1_000_000)
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--sim", default="verilator")
    args = ap.parse_args(argv)
    test = registry.TESTS.get(args.test)
    if test is None or KNOB not in test.env:
        sized = sorted(n for n, t in registry.TESTS.items() if KNOB in t.env)
        print(f"make soak needs a test sized by {KNOB}; got '{args.test}'. "
              f"Those are: {', '.join(sized)}", file=sys.stderr)
        return EXIT_USAGE
    if args.sim not in test.sims:
        print(f"test '{test.name}' runs on: {', '.join(test.sims)} (got SIM={args.sim})",
              file=sys.stderr)
        return EXIT_USAGE
    if args.ops < 1:
        print(f"OPS must be at least 1, got {args.ops}", file=sys.stderr)
        return EXIT_USAGE
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1, 2**31)
    record = soak(args.test, args.ops, seed, args.sim)
    print(f"soak {'PASSED' if record['passed'] else 'FAILED'}: {args.ops:,} operations; "
          f"replay: {record['replay']}")
    return 0 if record["passed"] else 1


if __name__ == "__main__":
    sys.exit(main())
