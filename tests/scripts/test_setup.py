# SPDX-License-Identifier: Apache-2.0
"""scripts/setup.sh says what it will install from Debian, and why, before it does;
Chromium only for the targets that check the dashboard (setup.sh --browser)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from scripts.registry import ROOT


def _setup(tmp_path: Path, *args: str) -> str:
    """Run setup.sh as 'root' with a recording apt-get and no Chromium on PATH."""
    bin_ = tmp_path / "bin"
    bin_.mkdir(exist_ok=True)
    # Logs to stdout and to a file (setup.sh silences apt-get install's output).
    (bin_ / "apt-get").write_text(f'#!/bin/sh\necho "APT $*"\necho "$*" >> {tmp_path}/apt.log\n')
    (bin_ / "id").write_text('#!/bin/sh\necho 0\n')
    for tool in bin_.iterdir():
        tool.chmod(0o755)
    env = {**os.environ, "PATH": f"{bin_}{os.pathsep}{os.environ['PATH']}",
           "CHROMIUM": "no-such-chromium-here"}
    proc = subprocess.run(["bash", "scripts/setup.sh", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc.stdout


def test_browser_setup_says_what_and_why_before_installing(tmp_path: Path):
    out = _setup(tmp_path, "--browser")
    lines = out.splitlines()
    plan = lines.index("setup: will install from Debian (apt-get install):")
    first_apt = next(i for i, ln in enumerate(lines) if ln.startswith("APT "))
    assert plan < first_apt
    assert any(ln.startswith("setup:   chromium: headless browser") for ln in lines[plan:first_apt])
    installs = [ln for ln in (tmp_path / "apt.log").read_text().splitlines()
                if ln.startswith("install")]
    assert installs and "chromium" in installs[0]


def test_plain_setup_never_installs_a_browser(tmp_path: Path):
    out = _setup(tmp_path)
    assert "chromium" not in out
