# SPDX-License-Identifier: Apache-2.0
"""The lint passes besides Verilator and ruff: slang, FuseSoC cores, actionlint."""

from __future__ import annotations

from pathlib import Path

from scripts import lint, lint_fusesoc, lint_slang, registry

IPS = ("common", "radix", "fsm", "top")


def _sv_test(tmp_path: Path, body: str) -> registry.SimTest:
    (tmp_path / "m.sv").write_text(f"module m (input logic a, output logic b);\n{body}\n"
                                   "endmodule\n")
    (tmp_path / "m.f").write_text("m.sv\n")
    return registry.SimTest(name="m", block="common", top="m", module="", testcase="",
                            description="", filelists=(str(tmp_path / "m.f"),))


def test_slang_passes_clean_rtl_and_fails_an_error(tmp_path: Path):
    assert lint_slang.slang_lint(_sv_test(tmp_path, "  assign b = a;"))[0]
    ok, text = lint_slang.slang_lint(_sv_test(tmp_path, "  assign b = undeclared_c;"))
    assert not ok and "1 errors" in text


def test_one_core_per_ip_with_lint_and_sim_targets():
    cores = lint_fusesoc.cores()
    for ip in IPS:
        name = f"{lint_fusesoc.VENDOR}{ip}"
        assert name in cores
        assert "lint" in lint_fusesoc.lint_targets(name)
        info = lint_fusesoc._fusesoc("core-info", name).stdout
        assert "\nsim " in info.split("Targets:", 1)[1] + "\n", info


def test_fusesoc_lint_target_runs_offline():
    ok, out = lint_fusesoc.run_target(f"{lint_fusesoc.VENDOR}common", "lint")
    assert ok, out


def test_actionlint_flags_a_broken_workflow(tmp_path: Path, monkeypatch):
    assert lint.actionlint()[0]
    (tmp_path / "bad.yml").write_text("on: push\njobs:\n  a:\n    steps:\n"
                                      "      - run: echo ${{ matrix.nope }}\n")
    monkeypatch.setattr(lint, "WORKFLOWS", tmp_path)
    ok, out = lint.actionlint()
    assert not ok and "runs-on" in out
