# SPDX-License-Identifier: Apache-2.0
"""The runner's verdicts: unknown tests, result parsing, knob precedence."""

import random

import pytest

from scripts import registry, sim
from uvm_env.common.pause import random_pause
from uvm_env.common.scoreboard_base import format_diff

CASE = '<testcase name="T"><properties><property name="sim_time_duration" value="{t}"/>' \
       "</properties>{extra}</testcase>"


def _results(tmp_path, *cases):
    path = tmp_path / "results.xml"
    path.write_text(f"<testsuites><testsuite>{''.join(cases)}</testsuite></testsuites>")
    return path


def test_unknown_test_exits_2_and_lists_tests(capsys):
    assert sim.main(["--test", "nope"]) == 2
    err = capsys.readouterr().err
    for name in registry.TESTS:
        assert name in err


def test_unsupported_simulator_exits_2():
    assert sim.main(["--test", "fifo_random", "--sim", "xsim"]) == 2


def test_results_pass_only_with_cases_and_no_failures(tmp_path):
    assert sim._read_results(_results(tmp_path, CASE.format(t=10, extra=""))) == (True, 10.0)
    assert sim._read_results(_results(tmp_path))[0] is False
    failed = CASE.format(t=5, extra='<failure message="x"/>')
    assert sim._read_results(_results(tmp_path, failed))[0] is False
    skipped = CASE.format(t=0, extra="<skipped/>")
    assert sim._read_results(_results(tmp_path, skipped))[0] is False
    assert sim._read_results(tmp_path / "absent.xml")[0] is False


def test_caller_environment_overrides_knobs(monkeypatch):
    t = registry.TESTS["fifo_random"]
    assert sim.knob_env(t, ci=True)["N_ITEMS"] == t.ci_env["N_ITEMS"]
    monkeypatch.setenv("N_ITEMS", "7")
    assert sim.knob_env(t, ci=True)["N_ITEMS"] == "7"


def _fake_ccache(bin_dir, cache_dir) -> None:
    """A `ccache` on PATH that reports `cache_dir` as its cache directory."""
    bin_dir.mkdir()
    tool = bin_dir / "ccache"
    tool.write_text(f"#!/bin/sh\necho {cache_dir}\n")
    tool.chmod(0o755)


def test_ccache_used_only_with_a_writable_cache_dir(monkeypatch, tmp_path):
    # ccache fails the compile itself when its directory is unusable, so sim.py
    # must leave OBJCACHE unset then, not break every Verilator build.
    _fake_ccache(tmp_path / "bin", tmp_path / "cache" / "sub")
    monkeypatch.setenv("PATH", str(tmp_path / "bin"))
    assert sim.usable_ccache()
    assert (tmp_path / "cache" / "sub").is_dir()

    (tmp_path / "bin").rename(tmp_path / "old")
    _fake_ccache(tmp_path / "bin", "/proc/no_such_cache")
    assert not sim.usable_ccache()

    (tmp_path / "bin" / "ccache").unlink()
    assert not sim.usable_ccache()


def test_icarus_ci_sizes_apply_to_icarus_in_ci_only(monkeypatch):
    t = registry.TESTS["radix_concurrent_overlap"]
    monkeypatch.delenv("N_ROUNDS", raising=False)
    assert t.icarus_ci_env["N_ROUNDS"] != t.ci_env["N_ROUNDS"]
    assert sim.knob_env(t, ci=True, sim="icarus")["N_ROUNDS"] == t.icarus_ci_env["N_ROUNDS"]
    assert sim.knob_env(t, ci=True, sim="verilator")["N_ROUNDS"] == t.ci_env["N_ROUNDS"]
    assert sim.knob_env(t, ci=False, sim="icarus")["N_ROUNDS"] == t.env["N_ROUNDS"]
    monkeypatch.setenv("N_ROUNDS", "3")
    assert sim.knob_env(t, ci=True, sim="icarus")["N_ROUNDS"] == "3"


def test_icarus_ci_sizes_only_shrink_known_knobs():
    for t in registry.TESTS.values():
        for key, value in t.icarus_ci_env.items():
            assert key in t.ci_env, (t.name, key)
            assert int(value) < int(t.ci_env[key]), (t.name, key)


def test_ci_flag_runs_at_ci_sizes_and_replays_with_it(monkeypatch, tmp_path):
    """`make sim CI=1` runs a job as CI ran it; its replay line says CI=1 again."""
    seen = {}

    def fake_run_one(test, sim_name, seed, **kw):
        seen.update(kw, test=test.name, seed=seed)
        return sim.SimResult(test.name, sim_name, seed, True, tmp_path, ci=kw["ci"])

    monkeypatch.setattr(sim, "run_one", fake_run_one)
    monkeypatch.setattr(sim.sim_summary, "summary_lines", lambda out_dir: [])
    assert sim.main(["--test", "fifo_random", "--sim", "icarus", "--seed", "3", "--ci"]) == 0
    assert seen["ci"] is True and seen["seed"] == 3
    assert sim.main(["--test", "fifo_random", "--sim", "icarus", "--seed", "3"]) == 0
    assert seen["ci"] is False
    assert sim.replay_command("x", "icarus", 3, True) == "make sim TEST=x SIM=icarus SEED=3 CI=1"
    assert sim.replay_command("x", "icarus", 3, False) == "make sim TEST=x SIM=icarus SEED=3"


def test_pause_pattern_is_seeded_and_bounded():
    a = [next(g) for g in [random_pause(random.Random(3), 0.3)] for _ in range(500)]
    b = [next(g) for g in [random_pause(random.Random(3), 0.3)] for _ in range(500)]
    assert a == b and 0.1 < sum(a) / len(a) < 0.5
    with pytest.raises(ValueError):
        next(random_pause(random.Random(0), 1.0))


def _runs(bits: list[bool]) -> list[tuple[bool, int]]:
    out: list[tuple[bool, int]] = []
    for b in bits:
        if out and out[-1][0] == b:
            out[-1] = (b, out[-1][1] + 1)
        else:
            out.append((b, 1))
    return out


def test_long_pauses_fill_what_short_ones_cannot():
    gen = random_pause(random.Random(5), 0.5, max_burst=8, p_long=1.0, long_burst=64)
    runs = _runs([next(gen) for _ in range(5000)])[1:-1]
    pauses = [n for b, n in runs if b]
    assert pauses and min(pauses) >= 32 and max(pauses) > 56
    # p_long = 0 replays the old stream exactly (seeds recorded before stay valid).
    old = random_pause(random.Random(9), 0.3)
    new = random_pause(random.Random(9), 0.3, p_long=0.0)
    assert [next(old) for _ in range(300)] == [next(new) for _ in range(300)]
    with pytest.raises(ValueError):
        next(random_pause(random.Random(0), 0.5, p_long=2.0))


def test_diff_names_the_first_divergence():
    text = format_diff([1, 2, 3, 4], [1, 2, 9, 4])
    assert "first difference at [2]" in text
    assert "prefix_len: expected 3, got 4" in format_diff({"prefix_len": 3}, {"prefix_len": 4})


def test_first_errors_skips_info_records_that_mention_errors(tmp_path):
    log = tmp_path / "sim.log"
    log.write_text(
        "10.00ns INFO     base_test.py(63) [top]: CSRs: {'ERRORS': 3}\n"
        "20.00ns WARNING  seq.py(9) [top]: FAIL-safe retry counted\n"
        "30.00ns ERROR    radix_scoreboard.py(35) [top]: mismatch on command 7\n"
        "%Error: radix_core.sv:10: Assertion failed\n")
    assert sim.first_errors(log) == [
        "30.00ns ERROR    radix_scoreboard.py(35) [top]: mismatch on command 7",
        "%Error: radix_core.sv:10: Assertion failed"]
