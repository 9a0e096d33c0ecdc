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


def test_pause_pattern_is_seeded_and_bounded():
    a = [next(g) for g in [random_pause(random.Random(3), 0.3)] for _ in range(500)]
    b = [next(g) for g in [random_pause(random.Random(3), 0.3)] for _ in range(500)]
    assert a == b and 0.1 < sum(a) / len(a) < 0.5
    with pytest.raises(ValueError):
        next(random_pause(random.Random(0), 1.0))


def test_diff_names_the_first_divergence():
    text = format_diff([1, 2, 3, 4], [1, 2, 9, 4])
    assert "first difference at [2]" in text
    assert "prefix_len: expected 3, got 4" in format_diff({"prefix_len": 3}, {"prefix_len": 4})
