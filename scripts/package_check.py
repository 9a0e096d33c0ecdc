# SPDX-License-Identifier: Apache-2.0
"""`make package-check`: build the wheel and the sdist, install each into its own scratch
venv (build/package-check/), and run scripts/package_smoke.py there, outside the checkout.

Also checks the wheel's contents: one top-level package, sglang_fpga, with the golden
models in it, and no checkout-only files. Ends with `N passed, N failed`."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

from scripts.registry import ROOT

OUT = ROOT / "build" / "package-check"
BUILD_TOOL = "build==1.6.1"     # pinned: the frontend that makes the sdist and wheel


def _venv(path: Path) -> Path:
    if path.exists():
        shutil.rmtree(path)
    venv.create(path, with_pip=True)
    return path / "bin" / "python"


def _clean_env() -> dict[str, str]:
    """The caller's environment without PYTHONPATH (make sets it to the checkout), so that
    nothing of the checkout is importable: not the sources, not the sglang_fpga.egg-info
    the sdist build leaves, which pip would take for an installed copy."""
    return {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}


def _pip(python: Path, *args: str) -> None:
    subprocess.run([str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check",
                    *args], check=True, cwd=OUT, env=_clean_env())


def build() -> tuple[Path, Path]:
    """sdist, then the wheel built from that sdist (so the sdist must be complete)."""
    tools = _venv(OUT / "tools")
    _pip(tools, BUILD_TOOL)
    dist = OUT / "dist"
    shutil.rmtree(dist, ignore_errors=True)
    with open(OUT / "build.log", "w") as log:
        subprocess.run([str(tools), "-m", "build", "--outdir", str(dist), str(ROOT)],
                       check=True, stdout=log, stderr=subprocess.STDOUT, env=_clean_env())
    shutil.rmtree(ROOT / "sglang_fpga.egg-info", ignore_errors=True)
    return next(dist.glob("*.whl")), next(dist.glob("*.tar.gz"))


def wheel_problems(wheel: Path) -> list[str]:
    names = zipfile.ZipFile(wheel).namelist()
    tops = {n.split("/")[0] for n in names if not n.split("/")[0].endswith(".dist-info")}
    problems = [] if tops == {"sglang_fpga"} else [f"top-level entries {sorted(tops)}"]
    for must in ("sglang_fpga/models/radix_cache.py", "sglang_fpga/wire.py",
                 "sglang_fpga/regex2sv.py", "sglang_fpga/sglang/radix_cache.py"):
        if must not in names:
            problems.append(f"{must} missing")
    init = zipfile.ZipFile(wheel).read("sglang_fpga/models/__init__.py").decode()
    if "__path__" in init:
        problems.append("the checkout's sglang_fpga/models shim was packaged")
    return problems


def smoke(artifact: Path) -> bool:
    kind = "wheel" if artifact.suffix == ".whl" else "sdist"
    python = _venv(OUT / f"venv-{kind}")
    _pip(python, str(artifact))
    work = OUT / f"run-{kind}"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir()
    script = work / "package_smoke.py"
    shutil.copy(ROOT / "scripts" / "package_smoke.py", script)
    print(f"{kind}: {artifact.name}", flush=True)
    env = {"PATH": "/usr/bin:/bin", "HOME": str(work)}
    return subprocess.run([str(python), str(script)], cwd=work, env=env).returncode == 0


def run() -> tuple[int, int]:
    """(passed, failed): the wheel's contents, then each artifact's smoke run."""
    OUT.mkdir(parents=True, exist_ok=True)
    try:
        wheel, sdist = build()
    except subprocess.CalledProcessError as exc:
        print(f"FAIL build: {exc}; see {OUT / 'build.log'}")
        return 0, 1
    problems = wheel_problems(wheel)
    for p in problems:
        print(f"FAIL wheel contents: {p}")
    passed, failed = (0, 1) if problems else (1, 0)
    for artifact in (wheel, sdist):
        ok = smoke(artifact)
        passed, failed = passed + ok, failed + (not ok)
    return passed, failed


def main() -> int:
    passed, failed = run()
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
