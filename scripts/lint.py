# SPDX-License-Identifier: Apache-2.0
"""`make lint`: Verilator -Wall and slang (pyslang, scripts/lint_slang.py) on every RTL
top of every test config, FuseSoC's lint target of every core (scripts/lint_fusesoc.py),
ruff on all Python, and actionlint on the GitHub Actions workflows (.github/workflows/)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from scripts import lint_fusesoc, lint_slang, registry
from scripts.registry import ROOT
from scripts.sim import ASSERT_DEFINES

os.environ["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"


def lint_targets() -> dict[str, registry.SimTest]:
    """One lint run per distinct top + parameter set the tests build."""
    return {t.config_key(): t for t in registry.TESTS.values()}


def verilator_lint(test: registry.SimTest) -> tuple[bool, str]:
    # With the simulation defines and --assert, so the assertion code is linted too.
    cmd = ["verilator", "--lint-only", "-Wall", "--assert", "--top-module", test.top,
           *[f"-D{k}={v}" for k, v in ASSERT_DEFINES.items()],
           *[f"-I{d}" for d in test.include_dirs()],
           *[f"-G{k}={v}" for k, v in test.parameters.items()],
           str(ROOT / "rtl" / "lint.vlt"), *map(str, test.sources())]
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    out = "\n".join(ln for ln in proc.stderr.splitlines() if ln.startswith("%"))
    return proc.returncode == 0 and "%Warning" not in proc.stderr, out


WORKFLOWS = ROOT / ".github" / "workflows"


def actionlint() -> tuple[bool, str]:
    """actionlint (pinned in pyproject.toml) on every workflow file."""
    files = sorted(map(str, [*WORKFLOWS.glob("*.yml"), *WORKFLOWS.glob("*.yaml")]))
    if not files:
        return False, f"no workflow files in {WORKFLOWS}"
    proc = subprocess.run(["actionlint", "-no-color", *files], cwd=ROOT, capture_output=True,
                          text=True)
    return proc.returncode == 0, (proc.stdout + proc.stderr).strip()


def main() -> int:
    bad = 0
    for key, test in sorted(lint_targets().items()):
        ok, out = verilator_lint(test)
        print(f"verilator -Wall {key}: {'clean' if ok else 'WARNINGS'}")
        if not ok:
            print(out)
            bad += 1
    for key, test in sorted(lint_targets().items()):
        ok, out = lint_slang.slang_lint(test)
        print(f"slang {key}: {'clean' if ok else out}", flush=True)
        bad += not ok
    bad += lint_fusesoc.main()
    proc = subprocess.run([sys.executable, "-m", "ruff", "check", "."], cwd=ROOT)
    bad += proc.returncode != 0
    ok, out = actionlint()
    print(f"actionlint .github/workflows: {'clean' if ok else 'PROBLEMS'}")
    if not ok:
        print(out)
        bad += 1
    print("lint: clean" if bad == 0 else f"lint: {bad} target(s) failed")
    return 0 if bad == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
