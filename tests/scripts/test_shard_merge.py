# SPDX-License-Identifier: Apache-2.0
"""The regression workflow's shard-and-merge steps, run here end to end.

.github/workflows/regress.yml runs `make regress SHARD=i/N` in a fresh checkout per shard,
uploads each shard's build/regress/, downloads them all into one build/regress/ of another
checkout and runs `make dashboard` there. This test does the same with copies of this
working tree standing in for the checkouts: two shards of two fast tests on both
simulators at one seed, then the merge, and checks that the page holds every job.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from scripts.registry import ROOT

TESTS = "fifo_random,skid_random"
SHARDS = 2


def _checkout(dest: Path) -> Path:
    """The working tree's files as git sees them (tracked and new), without build/."""
    files = subprocess.run(["git", "ls-files", "-z", "--cached", "--others",
                            "--exclude-standard"], cwd=ROOT, capture_output=True,
                           check=True).stdout.decode().split("\0")
    for name in filter(None, files):
        src = ROOT / name
        if name == ".venv" or not src.is_file():
            continue
        (dest / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(src, dest / name)
    (dest / ".venv").symlink_to(Path(sys.prefix))   # the same pinned environment
    return dest


def _make(checkout: Path, *args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)   # the Makefile points it at the checkout
    return subprocess.run(["make", "--no-print-directory", *args], cwd=checkout, env=env,
                          capture_output=True, text=True, timeout=1200)


_VIEW = """
import json
from scripts import dashboard
r = dashboard.load_regression()
print(json.dumps({"shards_seen": r["shards_seen"], "shards_missing": r["shards_missing"],
                  "failed": r["failed"], "jobs": [[j["test"], j["sim"]] for j in r["records"]],
                  "functional_files": r["coverage"]["functional_files"],
                  "code_files": r["coverage"]["code_files"]}))
"""


def _merged_view(checkout: Path) -> dict:
    proc = subprocess.run([sys.executable, "-c", _VIEW], cwd=checkout, capture_output=True,
                          text=True, env={**os.environ, "PYTHONPATH": str(checkout)},
                          check=True)
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_shards_merge_into_one_dashboard(tmp_path: Path):
    jobs = set()
    shard_roots = []
    for i in range(1, SHARDS + 1):
        co = _checkout(tmp_path / f"shard{i}")
        proc = _make(co, "regress", "SEEDS=1", "JOBS=1", f"SHARD={i}/{SHARDS}",
                     f"TESTS={TESTS}")
        assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
        assert (co / "build" / "regress" / f"summary-{i}of{SHARDS}.json").exists()
        shard_roots.append(co / "build" / "regress")
        jobs |= {line.split()[2] + " " + line.split()[3] for line in proc.stdout.splitlines()
                 if line.startswith("[") and " PASS " in line}

    merged = _checkout(tmp_path / "merge")
    into = merged / "build" / "regress"
    for root in shard_roots:   # what download-artifact with merge-multiple does
        shutil.copytree(root, into, dirs_exist_ok=True)
    proc = _make(merged, "dashboard")
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]

    reg = _merged_view(merged)   # read in the merged checkout, as its make dashboard did
    assert reg["shards_seen"] == ["1/2", "2/2"] and reg["shards_missing"] == []
    assert len(reg["jobs"]) == 4 == len(jobs) and reg["failed"] == 0
    assert set(map(tuple, reg["jobs"])) == {
        (t, s) for t in TESTS.split(",") for s in ("verilator", "icarus")}
    assert reg["functional_files"] == 4 and reg["code_files"] == 2
    page = (merged / "build" / "dashboard" / "index.html").read_text()
    assert "shards: 1/2, 2/2" in page and "missing shards" not in page
    for t in TESTS.split(","):
        assert t in page
