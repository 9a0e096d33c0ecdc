# SPDX-License-Identifier: Apache-2.0
"""WAVES=1 after a run without it leaves a non-empty waveform in the test's own folder."""

from __future__ import annotations

from pathlib import Path

import pytest

from scripts import registry, sim, waves

SHORT = {"N_ITEMS": "200"}


@pytest.mark.parametrize("simulator", registry.SIMULATORS)
def test_waves_after_a_normal_run(simulator: str, tmp_path: Path):
    test = registry.TESTS["fifo_random"]
    plain = sim.run_one(test, simulator, seed=3, out_dir=tmp_path, extra_env=SHORT)
    assert plain.passed and plain.waves is None, plain.errors
    traced = sim.run_one(test, simulator, seed=3, out_dir=tmp_path, waves=True,
                         extra_env=SHORT)
    assert traced.passed, traced.errors
    assert traced.waves is not None and traced.waves.parent == tmp_path
    assert traced.waves.stat().st_size > 0
    # Tracing has its own build: switching WAVES never reuses the other one.
    assert sim.build_dir(test, simulator, True) != sim.build_dir(test, simulator, False)


def test_make_waves_without_a_waveform_says_how(capsys, monkeypatch):
    monkeypatch.setattr(waves, "find_waveform", lambda t, s: None)
    assert waves.main(["--test", "fifo_random"]) == 1
    assert "WAVES=1" in capsys.readouterr().err


def test_make_waves_without_a_viewer_names_them(capsys, monkeypatch, tmp_path: Path):
    wave = tmp_path / "dump.fst"
    wave.write_bytes(b"x")
    monkeypatch.setattr(waves, "find_waveform", lambda t, s: wave)
    monkeypatch.setattr(waves, "find_viewer", lambda: None)
    assert waves.main(["--test", "fifo_random"]) == 1
    err = capsys.readouterr().err
    assert str(wave) in err and "gtkwave" in err.lower() and "surfer" in err.lower()
