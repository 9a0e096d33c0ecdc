# SPDX-License-Identifier: Apache-2.0
"""make soak: which tests it takes, and the record the dashboard reads."""

from __future__ import annotations

import json
import subprocess

from scripts import sim, soak


def test_refuses_a_test_without_an_ops_knob(capsys):
    assert soak.main(["--test", "fifo_random", "--ops", "10"]) == sim.EXIT_USAGE
    assert "radix_random" in capsys.readouterr().err
    assert soak.main(["--test", "radix_random", "--ops", "0"]) == sim.EXIT_USAGE
    assert soak.main(["--test", "radix_random", "--sim", "icarus"]) == sim.EXIT_USAGE


def test_the_run_gets_the_size_and_the_record_its_verdict(tmp_path, monkeypatch):
    seen = {}

    def fake_run(test, simulator, seed, out_dir=None, echo=False, extra_env=None):
        seen.update(test=test.name, seed=seed, env=extra_env)
        return sim.SimResult(test.name, simulator, seed, False, out_dir, wall_s=3.0,
                             errors=["scoreboard: mismatch at op 812"])

    monkeypatch.setattr(soak, "run_one", fake_run)
    rec = soak.soak("radix_random", 1234, 9, "verilator", out_root=tmp_path)
    assert seen == {"test": "radix_random", "seed": 9, "env": {"N_OPS": "1234"}}
    assert rec["passed"] is False and rec["errors"] == ["scoreboard: mismatch at op 812"]
    assert rec["replay"] == "make soak TEST=radix_random OPS=1234 SEED=9 SIM=verilator"
    assert json.loads((tmp_path / "radix_random.json").read_text()) == rec
    assert soak.load_soaks(tmp_path) == [rec]


def test_the_record_names_the_commit_the_run_started_on(tmp_path, monkeypatch):
    commits = iter(["abc1234", "def5678"])
    monkeypatch.setattr(soak, "commit", lambda: next(commits))

    def fake_run(test, simulator, seed, out_dir=None, echo=False, extra_env=None):
        return sim.SimResult(test.name, simulator, seed, True, out_dir, wall_s=1.0)

    monkeypatch.setattr(soak, "run_one", fake_run)
    assert soak.soak("radix_random", 10, 1, "verilator", out_root=tmp_path)["commit"] == "abc1234"


def test_commit_marks_a_dirty_checkout(tmp_path, monkeypatch):
    def git(*args):
        subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", *args],
                       cwd=tmp_path, check=True, capture_output=True)

    git("init", "-q")
    (tmp_path / "f.txt").write_text("a\n")
    git("add", "f.txt")
    git("commit", "-qm", "one")
    monkeypatch.setattr(soak, "ROOT", tmp_path)
    clean = soak.commit()
    assert len(clean) >= 7 and "-" not in clean
    (tmp_path / "new.txt").write_text("untracked files do not count\n")
    assert soak.commit() == clean
    (tmp_path / "f.txt").write_text("b\n")
    assert soak.commit() == f"{clean}-dirty"
