# SPDX-License-Identifier: Apache-2.0
"""make mutate's site finder: operators in logic only (not in declarations, parameter
checks, assertion or formal blocks, nor the NBA arrow), and a mutant changes one token."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scripts import dashboard_mutate, formal, mutate, registry

ROOT = mutate.ROOT

SV = """\
module m (input logic a, input logic b, output logic y);
  localparam int N = 4 + 1;
  `COMMON_PARAM_CHECK(g_bad, N >= 2, "m: N must be >= 2")
  logic q;
  always_ff @(posedge clk) begin
    if (a == b && !q) q <= 1'b1;
  end
`ifdef COMMON_ASSERT_ON
  always_ff @(posedge clk) assert (a != b);
`endif
  assign y = q || (a < b);   // a < comment
endmodule
"""


def test_sites_cover_logic_only(tmp_path: Path) -> None:
    f = tmp_path / "m.sv"
    f.write_text(SV)
    found = {(m.line, m.op) for m in mutate.sites(f, tmp_path)}
    assert found == {(6, "eq->ne"), (6, "and->or"), (6, "not-dropped"), (6, "1'b1->1'b0"),
                     (11, "or->and"), (11, "lt->le")}


def test_a_mutant_changes_one_token(tmp_path: Path) -> None:
    f = tmp_path / "m.sv"
    f.write_text(SV)
    m = next(m for m in mutate.sites(f, tmp_path) if m.op == "lt->le")
    out = m.apply(SV)
    assert out.split("\n")[10] == "  assign y = q || (a <= b);   // a < comment"
    assert sum(x != y for x, y in zip(SV.split("\n"), out.split("\n"), strict=True)) == 1
    assert "+  assign y = q || (a <= b);" in m.diff(SV)


def test_every_block_has_sites_and_tests() -> None:
    for block, tests in mutate.DEFAULT_TESTS.items():
        assert mutate.choose(block, 5, 1), block
        assert tests


def test_choose_draws_only_from_the_named_files() -> None:
    picked = mutate.choose("radix", 12, 3, ("radix_read_sig.sv",))
    assert picked and {Path(m.file).name for m in picked} == {"radix_read_sig.sv"}
    with pytest.raises(SystemExit, match="not RTL of block radix"):
        mutate.choose("radix", 1, 1, ("fsm_core.sv",))


def test_file_tests_name_block_files_and_registered_tests() -> None:
    """A per-file test list that names a renamed file or test would silently fall back
    to the block's defaults (or fail every mutant): each key is one of the blocks' RTL
    files and each test is registered."""
    files = {p.name for block in mutate.DEFAULT_TESTS for p in mutate.rtl_files(block)}
    for name, tests in mutate.FILE_TESTS.items():
        assert name in files, name
        assert all(t in registry.TESTS for t in tests), (name, tests)


def test_dashboard_rows(tmp_path: Path) -> None:
    d = tmp_path / "fsm"
    d.mkdir()
    (d / "report.json").write_text(json.dumps({
        "block": "fsm", "commit": "abc", "tests": ["fsm_errors"], "planted": 10,
        "discarded_lint": 1, "killed": 8, "live": 1, "score": 88.9,
        "survivors": [{"diff": "-a\n+b\n"}]}))
    (row,) = dashboard_mutate.load_mutation(tmp_path)
    assert (row["score"], row["gate"], len(row["survivors"])) == (88.9, "fail", 1)


def test_every_equivalent_names_a_live_site() -> None:
    """Each documented equivalent mutant still exists: its text is found in its file and
    the site finder plants its operator on that line (a stale entry would silently stop
    applying, and its mutant would count as live or vanish unexplained)."""
    eq = mutate.load_equivalents()
    assert eq
    for file, line, op in eq:
        found = {(m.line, m.op) for m in mutate.sites(mutate.ROOT / file)}
        assert (line, op) in found, (file, line, op)


def test_an_equivalent_follows_its_text(tmp_path: Path) -> None:
    (tmp_path / "m.sv").write_text("a\nx <= 1'b0;\nb\nx <= 1'b0;\n")
    assert mutate.resolve_line("m.sv", 1, "x <= 1'b0;", tmp_path) == 2
    assert mutate.resolve_line("m.sv", 9, "  x <= 1'b0;  ", tmp_path) == 4
    try:
        mutate.resolve_line("m.sv", 2, "y <= 1'b0;", tmp_path)
    except ValueError as err:
        assert "no line reads" in str(err)
    else:
        raise AssertionError("a missing text must be an error")


def test_file_proofs_name_block_files_and_proofs() -> None:
    stems = {p.stem for p in formal.proofs()}
    for name, proofs in mutate.FILE_PROOFS.items():
        assert list(ROOT.glob(f"rtl/*/{name}")), name
        assert set(proofs) <= stems, (name, proofs)


@pytest.mark.parametrize(("detail", "killed"), [
    (["bmc_n2: FAIL 2 30 (log x)"], True),              # a counterexample kills
    (["prove: FAIL 2 9 (log x)"], True),
    (["prove_n2: UNKNOWN 4 5 (log x)"], False),         # a failed induction step alone does not
    (["cover_n2: FAIL 1 3 (log x)"], False),            # nor an unreached cover
    ([], False)])
def test_proof_kill_needs_a_counterexample(detail: list[str], killed: bool,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[Path] = []

    def fake(sby: Path, env: dict[str, str], workroot: Path) -> formal.ProofResult:
        seen.append(sby)
        return formal.ProofResult(sby.stem, sby, not detail, 0.0, detail)

    monkeypatch.setattr(formal, "run_proof", fake)
    kill = mutate.proof_kill(ROOT, "rtl/radix/radix_axi_arb.sv")
    assert seen == [ROOT / "rtl/radix/formal/radix_axi_arb.sby"]
    assert (kill is not None) == killed
    if killed:
        assert kill.startswith("formal/radix_axi_arb: ")
    assert mutate.proof_kill(ROOT, "rtl/radix/radix_core.sv") is None   # no proof of its own
    assert len(seen) == 1
