# SPDX-License-Identifier: Apache-2.0
"""make regress: job lists, shards, verdicts, coverage merging, summary and history."""

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from cocotb_coverage.coverage import merge_coverage

from scripts import coverage_merge, registry, regress
from scripts.registry import SIMULATORS

# ---------------------------------------------------------------- job list and shards


def test_jobs_cover_tests_x_supported_sims_x_seeds():
    tests = regress.select_tests("")
    jobs = regress.plan_jobs(tests, list(SIMULATORS), [1, 2, 3])
    want = sum(len(t.sims) for t in registry.TESTS.values()) * 3
    assert len(jobs) == want == len(set(jobs))
    for j in jobs:
        assert j.sim in registry.TESTS[j.test].sims
    icarus_only = regress.plan_jobs(tests, ["icarus"], [1])
    assert {j.test for j in icarus_only} == {t.name for t in tests if "icarus" in t.sims}


def test_ci_jobs_use_ci_sims():
    jobs = regress.plan_jobs(regress.select_tests(""), list(SIMULATORS), [1], ci=True)
    assert all(j.sim in registry.TESTS[j.test].ci_sims for j in jobs)


def test_test_patterns():
    names = lambda p: [t.name for t in regress.select_tests(p)]  # noqa: E731
    assert names("") == list(registry.TESTS)
    assert names("fifo") == ["fifo_random"]
    assert names("fifo_random,ram_*") == ["fifo_random", "ram_random", "ram_random_lat3"]
    assert set(names("radix_*")) == {n for n in registry.TESTS if n.startswith("radix_")}
    assert names("nothing_like_this") == []


@pytest.mark.parametrize("count", [1, 2, 3, 7])
def test_shards_partition_the_job_list(count):
    jobs = regress.plan_jobs(regress.select_tests(""), list(SIMULATORS), [1, 2, 3])
    parts = [regress.shard(jobs, i, count) for i in range(1, count + 1)]
    assert sorted(j for p in parts for j in p) == sorted(jobs)
    assert sum(len(p) for p in parts) == len(jobs)
    assert max(map(len, parts)) - min(map(len, parts)) <= 1
    assert parts == [regress.shard(jobs, i, count) for i in range(1, count + 1)]


@pytest.mark.parametrize("text", ["0/2", "3/2", "1", "a/b", "1/0"])
def test_bad_shard_specs_are_refused(text):
    with pytest.raises(ValueError):
        regress.parse_shard(text)


def test_bad_arguments_exit_2(capsys):
    assert regress.main(["--sims", "xsim"]) == 2
    assert regress.main(["--tests", "no_such_test"]) == 2
    assert regress.main(["--seeds", "0"]) == 2
    assert regress.main(["--shard", "5/4"]) == 2
    assert "SHARD" in capsys.readouterr().err


def test_first_job_of_each_configuration_starts_first():
    jobs = regress.plan_jobs(regress.select_tests("radix_"), ["verilator"], [1, 2])
    ordered = regress.build_first(jobs)
    assert sorted(ordered) == sorted(jobs)
    keys = [registry.TESTS[j.test].config_key() for j in ordered]
    n_configs = len(set(keys))
    assert len(set(keys[:n_configs])) == n_configs


def test_first_error_line_drops_columns_that_differ_between_seeds():
    errors = ["                                      Traceback (most recent call last):",
              '                                        File "x.py", line 3, in f',
              "  1240.00ns ERROR    ..nv/common/scoreboard_base.py(32) "
              "[uvm_test_top.env.scoreboard]: output #84: mismatch"]
    assert regress.first_error_line(errors) == "[uvm_test_top.env.scoreboard]: output #84: mismatch"
    assert regress.first_error_line(["", "  no columns here"]) == "no columns here"
    assert regress.first_error_line([]) == "no error line found"


# ---------------------------------------------------------------- functional coverage

def _cov_xml(path, bins, at_least=1):
    bins_xml = "".join(f'<bin{i} bin="{b}" hits="{h}" abs_name="top.g.cp.bin{i}"/>'
                       for i, (b, h) in enumerate(bins.items()))
    hit = sum(h >= at_least for h in bins.values())
    path.write_text(
        f'<top abs_name="top" size="{len(bins)}" coverage="{hit}" cover_percentage="0">'
        f'<g abs_name="top.g" size="{len(bins)}" coverage="{hit}" cover_percentage="0">'
        f'<cp abs_name="top.g.cp" size="{len(bins)}" coverage="{hit}" cover_percentage="0" '
        f'weight="1" at_least="{at_least}">{bins_xml}</cp></g></top>')
    return path


def test_functional_merge_sums_hits_per_bin_label(tmp_path):
    a = _cov_xml(tmp_path / "a.xml", {"x": 1, "y": 0, "z": 0})
    b = _cov_xml(tmp_path / "b.xml", {"x": 0, "y": 2, "z": 0})
    merged = coverage_merge.merge_functional([a, b])
    assert merged["top.g.cp"].bins == {"x": 1, "y": 2, "z": 0}
    groups = coverage_merge.functional_groups(merged)
    assert groups["top.g"]["hit"] == 2 and groups["top.g"]["size"] == 3
    assert groups["top.g"]["points"][0]["holes"] == ["z"]
    # Same answer as cocotb-coverage's own merge when the bin lists agree.
    out = tmp_path / "cocotb.xml"
    merge_coverage(lambda *_: None, str(out), str(a), str(b))
    cp = ET.parse(out).getroot().find("g/cp")
    assert int(cp.get("coverage")) == groups["top.g"]["hit"]


def test_functional_merge_never_mixes_bins_by_position(tmp_path):
    # Two configurations listing different bins: cocotb-coverage would add by index.
    a = _cov_xml(tmp_path / "a.xml", {"small": 5})
    b = _cov_xml(tmp_path / "b.xml", {"large": 0})
    merged = coverage_merge.merge_functional([a, b])
    assert merged["top.g.cp"].bins == {"small": 5, "large": 0}
    assert coverage_merge.functional_total(coverage_merge.functional_groups(merged)) == 50.0


def test_at_least_is_respected(tmp_path):
    a = _cov_xml(tmp_path / "a.xml", {"x": 1, "y": 3}, at_least=2)
    b = _cov_xml(tmp_path / "b.xml", {"x": 1, "y": 0}, at_least=2)
    assert coverage_merge.merge_functional([a]).get("top.g.cp").hit == 1
    assert coverage_merge.merge_functional([a, b]).get("top.g.cp").hit == 2


# ---------------------------------------------------------------- code coverage

def _dat_line(file, line, col, kind, comment, count, lines="", hier="top"):
    fields = {"f": file, "l": line, "n": col, "t": kind, "page": f"v_{kind}/m",
              "o": comment, **({"S": lines} if lines else {}), "h": hier}
    key = "".join(f"\x01{k}\x02{v}" for k, v in fields.items())
    return f"C '{key}' {count}\n"


def _dat(path, *lines):
    path.write_text("# SystemC::Coverage-3\n" + "".join(lines))
    return path


def test_code_coverage_merges_runs_and_instances(tmp_path):
    sv = "/elsewhere/checkout/rtl/common/common_fifo_sync.sv"
    a = _dat(tmp_path / "a.dat",
             _dat_line(sv, 10, 3, "line", "block", 5, "10-12"),
             _dat_line(sv, 20, 5, "branch", "if", 0, "20-21"),
             _dat_line(sv, 20, 6, "branch", "else", 4, "22"),
             _dat_line(sv, 5, 9, "toggle", "d[0]:0->1", 0, hier="top.u_a"),
             _dat_line(sv, 5, 9, "toggle", "d[0]:1->0", 1))
    b = _dat(tmp_path / "b.dat",
             _dat_line(sv, 20, 5, "branch", "if", 2, "20-21"),
             _dat_line(sv, 5, 9, "toggle", "d[0]:0->1", 3, hier="top.u_b"))
    points = coverage_merge.merge_dat([a, b])
    mods = coverage_merge.code_modules(points)
    assert list(mods) == ["common_fifo_sync"]
    m = mods["common_fifo_sync"]
    assert m["branch"] == [2, 2] and m["toggle"] == [2, 2] and m["line"] == [6, 6]
    only_a = coverage_merge.code_modules(coverage_merge.merge_dat([a]))["common_fifo_sync"]
    assert only_a["branch"] == [1, 2] and only_a["toggle"] == [1, 2] and only_a["line"] == [4, 6]
    assert coverage_merge.code_totals(mods)["branch"] == 100.0
    assert coverage_merge.code_totals(mods)["expr"] is None


def test_lcov_file_is_well_formed(tmp_path):
    sv = "rtl/common/common_ram_sdp.sv"
    dat = _dat(tmp_path / "a.dat", _dat_line(sv, 7, 1, "line", "block", 3, "7-8"),
               _dat_line(sv, 9, 5, "branch", "if", 0, "9"),
               _dat_line(sv, 9, 6, "branch", "else", 2, "10"))
    text = coverage_merge.write_lcov(coverage_merge.merge_dat([dat]), tmp_path / "c.info") \
        .read_text().splitlines()
    assert text[0] == "TN:regress" and text[1] == "SF:rtl/common/common_ram_sdp.sv"
    assert "BRDA:9,0,0,-" in text and "BRDA:9,0,1,2" in text
    assert "DA:7,3" in text and "DA:9,0" in text and "DA:10,2" in text
    assert "LF:4" in text and "LH:3" in text and "BRF:2" in text and "BRH:1" in text
    assert text[-1] == "end_of_record"


# ---------------------------------------------------------------- summary and history

def test_other_shard_layouts_are_dropped_from_the_summary_dir(tmp_path):
    (tmp_path / "summary.json").write_text("{}")
    (tmp_path / "summary-1of3.json").write_text("{}")
    (tmp_path / "summary-2of2.json").write_text("{}")
    regress.write_summary({"x": 1}, 1, 2, tmp_path)
    assert sorted(p.name for p in tmp_path.glob("summary*.json")) == \
        ["summary-1of2.json", "summary-2of2.json"]
    regress.write_summary({"x": 1}, 1, 1, tmp_path)
    assert [p.name for p in tmp_path.glob("summary*.json")] == ["summary.json"]


@pytest.fixture
def broken_test(monkeypatch):
    """A registered test whose pyuvm class does not exist: the job must fail, not vanish."""
    good = registry.TESTS["fifo_random"]
    broken = registry.SimTest(**{**good.__dict__, "name": "fifo_broken",
                                 "testcase": "NoSuchTest", "sims": ("icarus",),
                                 "ci_sims": ("icarus",)})
    monkeypatch.setitem(registry.TESTS, "fifo_broken", broken)
    return broken


def test_regression_end_to_end_on_icarus(tmp_path, broken_test, capsys):
    history = tmp_path / "history.jsonl"
    summary = regress.regress([1, 2], ["icarus"], 2, "1/1", "fifo_random,fifo_broken",
                              ci=True, root=tmp_path, history=history)
    assert summary["passed"] == 2 and summary["failed"] == 2
    by = {(r["test"], r["seed"]): r for r in summary["records"]}
    for seed in (1, 2):
        ok = by[("fifo_random", seed)]
        assert ok["passed"] and ok["sim_time_ns"] > 0
        job = tmp_path / "fifo_random" / "icarus" / f"seed{seed}"
        for name in ("results.xml", "sim.log", "coverage.xml"):
            assert (job / name).exists(), name
        bad = by[("fifo_broken", seed)]
        assert not bad["passed"] and bad["first_error"]
        # a CI-sized job replays at CI sizes
        assert bad["replay"] == f"make sim TEST=fifo_broken SIM=icarus SEED={seed} CI=1"
    assert summary["coverage"]["functional"]["top.common.fifo"]["pct"] > 0
    saved = json.loads((tmp_path / "summary.json").read_text())
    assert saved["records"] == summary["records"]
    line = json.loads(history.read_text().splitlines()[-1])
    assert line["passed"] == 2 and line["failed"] == 2 and line["pass_rate"] == 0.5
    out = capsys.readouterr().out
    assert "FAIL fifo_broken sim=icarus seed=1" in out
    assert "replay: make sim TEST=fifo_broken SIM=icarus SEED=1 CI=1" in out


def test_main_prints_the_verdict_line_and_fails_on_failure(tmp_path, broken_test, monkeypatch,
                                                          capsys):
    monkeypatch.setattr(regress, "REGRESS_ROOT", tmp_path)
    monkeypatch.setattr(regress, "HISTORY", tmp_path / "h.jsonl")
    assert regress.main(["--tests", "fifo_broken", "--sims", "icarus", "--ci"]) == 1
    out = capsys.readouterr().out.strip().splitlines()
    assert out[-1] == "0 passed, 1 failed"
    assert any("make sim TEST=fifo_broken SIM=icarus SEED=1" in ln for ln in out)
    assert Path(tmp_path / "summary.json").exists()


def test_code_totals_leave_out_generated_modules():
    from collections import Counter

    from scripts import coverage_merge as cm

    pts = Counter({cm.CodePoint("rtl/a/a_top.sv", 1, 0, "line", "block", "1"): 3,
                   cm.CodePoint("build/gen/r2s_x.sv", 1, 0, "line", "block", "1-9"): 0})
    mods = cm.code_modules(pts)
    assert set(mods) == {"a_top", "r2s_x"}
    assert cm.generated_modules(pts) == {"r2s_x"}
    assert cm.code_totals(mods, exclude=cm.generated_modules(pts))["line"] == 100.0
    assert cm.code_totals(mods)["line"] < 100.0
