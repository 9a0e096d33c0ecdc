# SPDX-License-Identifier: Apache-2.0
"""`make test`'s second seed: derived from the commit, on a fixed subset of tests."""

from scripts import regress, run_tests
from scripts.registry import TESTS


def test_commit_seed_is_the_first_eight_hex_digits():
    assert run_tests.commit_seed("0123abcd" + "9" * 32) == 0x0123ABCD
    assert run_tests.commit_seed("abc") is None
    assert run_tests.commit_seed("not-hex-at-all") is None
    assert run_tests.commit_seed() is not None        # this checkout is a git repository


def test_commit_seed_jobs_are_registered_ci_jobs():
    for name in run_tests.COMMIT_SEED_TESTS:
        assert run_tests.COMMIT_SEED_SIM in TESTS[name].ci_sims, name
    jobs = run_tests.commit_seed_jobs("", 77)
    assert {j.test for j in jobs} == set(run_tests.COMMIT_SEED_TESTS)
    assert all(j.seed == 77 and j.sim == run_tests.COMMIT_SEED_SIM for j in jobs)
    assert run_tests.commit_seed_jobs("", run_tests.CI_SEED) == ()
    assert run_tests.commit_seed_jobs("fsm_csr", 77) == (
        regress.Job("fsm_csr_suite", "verilator", 77),)
