# SPDX-License-Identifier: Apache-2.0
"""`make sglang-check`: the SGLang plug-ins beside SGLang itself, in a venv of their own
(build/sglang-check/venv): SGLang 0.5.23 with --no-deps, torch 2.14.1, and the packages
of scripts/sglang_check.txt, then this package. Runs tests/sglang_check/: FpgaRadixCache
against SGLang's RadixCache (model back end, and a short trace on the sim back end) and
the "fpga" grammar backend against xgrammar over the GPT-2 vocabulary.

The venv is kept while its inputs (that list, this file) are unchanged, and installed over
when they change."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

from scripts.registry import ROOT

OUT = ROOT / "build" / "sglang-check"
REQS = ROOT / "scripts" / "sglang_check.txt"
TORCH = "torch==2.14.1"        # what SGLang 0.5.23 requires
SGLANG = "sglang==0.5.23"


def _env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}


def _pip(python: Path, *args: str) -> None:
    subprocess.run([str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check",
                    *args], check=True, cwd=OUT, env=_env())


def ensure_venv() -> Path:
    stamp = OUT / "venv" / ".stamp"
    want = hashlib.sha256(REQS.read_bytes() + Path(__file__).read_bytes()).hexdigest()
    python = OUT / "venv" / "bin" / "python"
    if not (stamp.exists() and stamp.read_text() == want):
        # Changed inputs install over the old venv (exact pins, so versions end up right;
        # `rm -rf build/sglang-check` for a fresh one): torch alone is about 3 GB.
        OUT.mkdir(parents=True, exist_ok=True)
        if not python.exists():
            venv.create(OUT / "venv", with_pip=True)
        print(f"sglang-check: {TORCH}, {SGLANG} (--no-deps) and {REQS.name} into "
              f"{(OUT / 'venv').relative_to(ROOT)}", flush=True)
        _pip(python, TORCH)
        _pip(python, "--no-deps", "-r", str(REQS))
        _pip(python, "--no-deps", SGLANG)
        stamp.write_text(want)
    _pip(python, "--no-deps", "--force-reinstall", str(ROOT))
    shutil.rmtree(ROOT / "sglang_fpga.egg-info", ignore_errors=True)
    return python


def run(report: Path) -> int:
    """Build or reuse the venv, run the tests with a junit report; pytest's exit code."""
    try:
        python = ensure_venv()
    except subprocess.CalledProcessError as exc:
        print(f"sglang-check: venv failed: {exc}")
        return 2
    env = {**_env(), "SGLANG_FPGA_ROOT": str(ROOT)}
    return subprocess.run([str(python), "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           "-W", "ignore", "--rootdir", str(OUT), f"--junitxml={report}",
                           str(ROOT / "tests" / "sglang_check")], cwd=OUT, env=env).returncode


if __name__ == "__main__":
    sys.exit(run(OUT / "results.xml"))
