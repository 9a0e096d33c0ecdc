# SPDX-License-Identifier: Apache-2.0
"""docs/testplan.yml and scripts/registry.py must name the same simulation tests."""

import textwrap

import pytest

from scripts import registry, testplan
from scripts.registry import ROOT


def _plan(tmp_path, body):
    path = tmp_path / "plan.yml"
    path.write_text("name: t\nstages: {V1: a, V2: b, V3: c}\n" + textwrap.dedent(body))
    return testplan.load(path)


def _feature(*testpoints):
    lines = ["features:", "  - name: f", "    block: radix", "    testpoints:"]
    for tp in testpoints:
        lines.append(f"      - {tp}")
    return "\n".join(lines) + "\n"


def test_the_committed_testplan_agrees_with_the_registry():
    rep = testplan.check(testplan.load())
    assert rep.ok, "\n".join(rep.errors)


def test_every_registered_test_is_in_a_testpoint():
    plan = testplan.load()
    assert set(registry.TESTS) <= plan.sim_tests() | plan.planned_tests()


def test_plan_covers_every_stage_and_block():
    plan = testplan.load()
    assert {tp.stage for tp in plan.testpoints} == set(testplan.STAGES)
    assert {"models", "common", "radix", "fsm", "top"} <= {tp.block for tp in plan.testpoints}
    assert {"kernel_radix", "kernel_fsm"} <= plan.sim_tests() | plan.planned_tests()


def test_unregistered_test_fails_unless_planned(tmp_path):
    plan = _plan(tmp_path, _feature("{name: a, stage: V1, tests: [fifo_random, no_such_test]}",
                                    "{name: b, stage: V2, planned: [later_test]}"))
    rep = testplan.check(plan, sim_tests={"fifo_random": None})
    assert rep.errors == [
        "testpoint f/a: test 'no_such_test' is not in scripts/registry.py "
        "(register it, or list it under planned:)"]


def test_registered_test_missing_from_plan_fails(tmp_path):
    plan = _plan(tmp_path, _feature("{name: a, stage: V1, tests: [fifo_random]}"))
    rep = testplan.check(plan, sim_tests={"fifo_random": None, "radix_new": None})
    assert any("'radix_new' is in no testpoint" in e for e in rep.errors)


def test_planned_test_that_got_registered_is_only_a_warning(tmp_path):
    plan = _plan(tmp_path, _feature("{name: a, stage: V1, planned: [fifo_random]}"))
    rep = testplan.check(plan, sim_tests={"fifo_random": None})
    assert rep.ok
    assert any("now registered" in w for w in rep.warnings)


@pytest.mark.parametrize("entry, problem", [
    ("tests/models/test_nope.py", "does not exist"),
    ("tests/models/test_radix_cache.py::test_nope", "is not defined"),
])
def test_pytest_entries_must_resolve(tmp_path, entry, problem):
    plan = _plan(tmp_path, _feature(f"{{name: a, stage: V1, tests: ['{entry}']}}"))
    rep = testplan.check(plan, sim_tests={}, root=ROOT)
    assert len(rep.errors) == 1 and problem in rep.errors[0]


def test_proof_entries_are_neither_pytest_nor_simulation_and_must_exist(tmp_path):
    good, bad = "rtl/common/formal/common_fifo_sync.sby", "rtl/common/formal/nope.sby"
    assert testplan.is_proof(good) and not testplan.is_pytest(good)
    plan = _plan(tmp_path, _feature(f"{{name: a, stage: V2, tests: ['{good}', '{bad}']}}"))
    assert plan.sim_tests() == set()
    rep = testplan.check(plan, sim_tests={}, root=ROOT)
    assert rep.errors == [f"testpoint f/a: proof '{bad}' does not exist"]


def test_pytest_node_ids_and_files_resolve():
    entry = "tests/models/test_radix_cache.py::test_evict_is_lru_over_leaves"
    assert testplan.is_pytest(entry) and not testplan.is_pytest("radix_lookup")
    assert testplan._pytest_problem(entry, ROOT) is None


@pytest.mark.parametrize("tp, problem", [
    ("{name: a, stage: V4, tests: [fifo_random]}", "stage 'V4'"),
    ("{name: a, stage: V1}", "no tests and nothing planned"),
])
def test_malformed_testpoints_fail(tmp_path, tp, problem):
    plan = _plan(tmp_path, _feature(tp, "{name: z, stage: V1, tests: [fifo_random]}"))
    rep = testplan.check(plan, sim_tests={"fifo_random": None})
    assert any(problem in e for e in rep.errors)


def test_duplicate_testpoint_names_fail(tmp_path):
    plan = _plan(tmp_path, _feature("{name: a, stage: V1, tests: [fifo_random]}",
                                    "{name: a, stage: V2, tests: [fifo_random]}"))
    assert any("duplicate" in e for e in testplan.check(plan, {"fifo_random": None}).errors)


def test_cli_exit_code_reflects_the_check(capsys):
    assert testplan.main([]) == 0
    assert "testplan consistent with the registry" in capsys.readouterr().out
