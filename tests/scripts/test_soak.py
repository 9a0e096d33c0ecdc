# SPDX-License-Identifier: Apache-2.0
"""make soak: which tests it takes, and the record the dashboard reads."""

from __future__ import annotations

import json

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
