# SPDX-License-Identifier: Apache-2.0
"""make dashboard: what the page shows from fixture results, and what it says when they are absent.

make_fixture() is shared with test_dashboard_browser.py.
"""

import base64
import json
import re

from scripts import dashboard, regress, testplan

ERR = ("  {t}.00ns ERROR    ..nv/common/scoreboard_base.py(32) "
       "[uvm_test_top.env.scoreboard]: output #{n}: mismatch")
SV = "rtl/common/common_fifo_sync.sv"


def _dat(path, hit):
    def pt(line, col, kind, comment, count, lines=""):
        f = {"f": SV, "l": line, "n": col, "t": kind, "page": f"v_{kind}/m", "o": comment,
             **({"S": lines} if lines else {}), "h": "top"}
        return f"C '{''.join(chr(1) + k + chr(2) + str(v) for k, v in f.items())}' {count}\n"
    path.write_text("# SystemC::Coverage-3\n" + pt(10, 3, "line", "block", 5, "10-12")
                    + pt(20, 5, "branch", "if", hit, "20") + pt(20, 6, "branch", "else", 1, "21")
                    + pt(5, 9, "toggle", "d[0]:0->1", hit) + pt(5, 9, "toggle", "d[0]:1->0", 1))


def _xml(path, hits):
    bins = "".join(f'<bin{i} bin="{b}" hits="{h}" abs_name="top.common.fifo.level.bin{i}"/>'
                   for i, (b, h) in enumerate(hits.items()))
    path.write_text(f'<top abs_name="top"><common abs_name="top.common">'
                    f'<fifo abs_name="top.common.fifo"><level abs_name="top.common.fifo.level" '
                    f'weight="1" at_least="1">{bins}</level></fifo></common></top>')


def _record(root, test, sim, seed, passed, errors=()):
    job = root / test / sim / f"seed{seed}"
    job.mkdir(parents=True)
    if passed:
        _xml(job / "coverage.xml", {"empty": seed, "partial": 1, "full": 0})
        if sim == "verilator":
            _dat(job / "coverage.dat", seed - 1)
    return {"test": test, "block": "common", "sim": sim, "seed": seed, "passed": passed,
            "sim_time_ns": 52000.0 + seed, "wall_s": 3.0 + seed, "errors": list(errors),
            "first_error": regress.first_error_line(list(errors)),
            "replay": f"make sim TEST={test} SIM={sim} SEED={seed}", "dir": str(job)}


def make_fixture(tmp_path, failing=True):
    """A regression with two failing seeds of one bug, plus every other input the page reads."""
    root = tmp_path / "regress"
    recs = [_record(root, "fifo_random", sim, s, True)
            for sim in ("verilator", "icarus") for s in (1, 2)]
    recs.append(_record(root, "ram_random", "icarus", 1, True))
    if failing:
        tb = "   Traceback (most recent call last):"
        recs += [_record(root, "skid_random", "verilator", s, False,
                         [tb, ERR.format(t=1240 + s, n=80 + s)]) for s in (2, 3)]
        recs.append(_record(root, "skid_random", "icarus", 1, False, ["build failed: boom"]))
    summary = {"schema": 1, "started": "2026-01-01T00:00:00+00:00",
               "finished": "2026-01-01T00:05:00+00:00", "wall_s": 300.0,
               "git": {"commit": "abc123def456", "dirty": False},
               "host": {"cpus": 2, "load_end": "1.0 1.0 1.0"},
               "args": {"seeds": [1, 2, 3], "sims": ["verilator", "icarus"], "jobs": 2,
                        "shard": "1/1", "tests": "", "ci": False, "total_jobs": len(recs)},
               "records": recs, "passed": sum(r["passed"] for r in recs),
               "failed": sum(not r["passed"] for r in recs), "cycles": {}}
    summary["coverage"] = regress.coverage_summary(recs, root / "coverage")
    root.mkdir(exist_ok=True)
    (root / "summary.json").write_text(json.dumps(summary))

    pytest_xml = tmp_path / "pytest.xml"
    pytest_xml.write_text(
        '<testsuites><testsuite>'
        '<testcase classname="tests.models.test_radix_cache" name="test_evict_is_lru_over_leaves"/>'
        '<testcase classname="tests.models.test_radix_cache" name="test_empty_inputs"/>'
        '<testcase classname="tests.models.test_workloads" name="test_cli_prints_table">'
        '<failure message="x"/></testcase>'
        '<testcase classname="tests.models.test_regex_dfa" name="test_pattern_count[3]">'
        '<skipped/></testcase></testsuite></testsuites>')

    bench = tmp_path / "bench"
    bench.mkdir()
    (bench / "radix_rtl.json").write_text(json.dumps({
        "clock_mhz": 300, "note": "cycles from Verilator simulation",
        "match_576": {"n": 4, "cycles": 1470.1, "us": 4.9, "sglang_us": 23.0, "speedup": 4.69},
        "insert_anchor": {"n": 4, "cycles": 1175.5, "us": 3.9, "sglang_us": 74.0,
                          "speedup": 18.9},
        "evict": {"n": 5, "cycles_per_token": 2.35, "us_for_32000_tokens": 250.6,
                  "sglang_us_for_32000_tokens": 25000.0},
        "match_by_length": {"0-0": {"n": 2, "cycles_mean": 321.4},
                            "512-1023": {"n": 9, "cycles_mean": 1791.1}},
        "workloads": {"anchor": {"MATCH": {"n": 4, "cycles_mean": 1470.1, "tokens_mean": 576}}}}))
    (bench / "fsm_rtl.json").write_text(json.dumps({"advance": {"latency": 3}, "mask_beats": 99}))

    synth = tmp_path / "synth"
    (synth / "vck5000").mkdir(parents=True)
    (synth / "vck5000" / "estimate.json").write_text(json.dumps({
        "label": dashboard.SYNTH_LABEL, "board": "vck5000", "part": "xcvc1902",
        "tops": [{"name": "radix", "top": "krnl_radix", "status": "ok",
                  "resources": {"lut": 12000, "ff": 9000, "bram36": 20.5, "uram": 4, "dsp": 0},
                  "percent": {"lut": 1.3, "ff": 0.5, "bram36": 2.1, "uram": 1.0, "dsp": 0.0},
                  "logic_levels": 9},
                 {"name": "fsm", "top": "krnl_fsm", "status": "not yet available",
                  "error": "missing: rtl/fsm/fsm.f"}]}))

    history = tmp_path / "history.jsonl"
    lines = [{"time": f"2026-01-0{d}T00:00:00+00:00", "commit": f"c{d}", "dirty": False,
              "ci": d % 2 == 0, "shard": "1/1", "seeds": 3, "jobs": 8, "passed": 8 - d,
              "failed": d, "pass_rate": (8 - d) / 8, "wall_s": 100.0, "functional_pct": 60.0 + d,
              "code": {"line": 90.0, "branch": 80.0 + d, "toggle": 50.0},
              "cycles": {"radix MATCH 576 tok": 1500 - d}} for d in (1, 2, 3)]
    lines.append({**lines[-1], "shard": "1/2", "pass_rate": 0.0})  # shards stay out of trends
    history.write_text("".join(json.dumps(x) + "\n" for x in lines))
    soak_dir = tmp_path / "soak"
    soak_dir.mkdir()
    (soak_dir / "radix_random.json").write_text(json.dumps({
        "test": "radix_random", "sim": "verilator", "seed": 77, "ops": 1_000_000,
        "passed": True, "wall_s": 1500.0, "sim_time_ns": 4.5e8,
        "started": "2026-01-04T00:00:00+00:00", "commit": "c3", "errors": [],
        "replay": "make soak TEST=radix_random OPS=1000000 SEED=77 SIM=verilator"}))
    return dashboard.Sources(regress_root=root, pytest_xml=pytest_xml, bench_dir=bench,
                             synth_dir=synth, history=history, soak_dir=soak_dir)


def _text(html):
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_failures_are_grouped_with_seed_and_replay(tmp_path):
    page = dashboard.build(tmp_path / "out", make_fixture(tmp_path)).read_text()
    text = _text(page)
    assert "[uvm_test_top.env.scoreboard]: output #82: mismatch" in text
    for seed in (2, 3):
        assert f"make sim TEST=skid_random SIM=verilator SEED={seed}" in text
    assert "make sim TEST=skid_random SIM=icarus SEED=1" in text
    # Seeds 2 and 3 of one bug form one group; the build failure is its own group.
    assert len(re.findall(r'<table class="failures"', page)) == 2
    assert "3 failed jobs in 2 groups" in text


def test_page_sections_from_fixture(tmp_path):
    out = tmp_path / "out"
    text = _text(dashboard.build(out, make_fixture(tmp_path)).read_text())
    assert "4 passed" not in text and "5 passed, 3 failed" in text
    assert dashboard.SYNTH_LABEL in text and "krnl_radix" in text
    assert "12,000 (1.30 %)" in text
    assert "MATCH, 576 tokens matched" in text and "mask_beats" in text
    assert "top.common.fifo" in text and "holes: full" in text
    assert "common_fifo_sync" in text
    assert "1,000,000" in text and "make soak TEST=radix_random OPS=1000000 SEED=77" in text
    assert (out / "coverage.info").read_text().startswith("TN:")
    assert 'href="coverage.info"' in (out / "index.html").read_text()


def test_every_image_is_an_embedded_png(tmp_path):
    page = dashboard.build(tmp_path / "out", make_fixture(tmp_path)).read_text()
    images = re.findall(r'<img alt="([^"]+)" src="data:image/png;base64,([^"]+)"', page)
    assert len(images) >= 8
    for alt, data in images:
        assert base64.b64decode(data).startswith(b"\x89PNG\r\n\x1a\n"), alt
    assert "src=\"http" not in page and "<script" not in page


def test_missing_inputs_are_named_not_hidden(tmp_path):
    empty = dashboard.Sources(regress_root=tmp_path / "r", pytest_xml=tmp_path / "p.xml",
                              bench_dir=tmp_path / "b", synth_dir=tmp_path / "s",
                              history=tmp_path / "h.jsonl", soak_dir=tmp_path / "k")
    text = _text(dashboard.build(tmp_path / "out", empty).read_text())
    for hint in ("run make regress", "run make bench", "run make synth-estimate BOARD=vck5000",
                 "run make test", "every make regress appends a line",
                 "No soak result in build/soak/"):
        assert hint in text.replace("  ", " "), hint


def test_shard_summaries_merge_and_missing_shards_are_reported(tmp_path):
    src = make_fixture(tmp_path)
    whole = json.loads((src.regress_root / "summary.json").read_text())
    (src.regress_root / "summary.json").unlink()
    recs = whole["records"]
    for i, part in ((1, recs[::3]), (2, recs[1::3])):
        s = {**whole, "records": part, "args": {**whole["args"], "shard": f"{i}/3"}}
        (src.regress_root / f"summary-{i}of3.json").write_text(json.dumps(s))
    merged = dashboard.load_regression(src.regress_root)
    assert len(merged["records"]) == len(recs[::3]) + len(recs[1::3])
    assert merged["shards_seen"] == ["1/3", "2/3"] and merged["shards_missing"] == ["3/3"]
    text = _text(dashboard.build(tmp_path / "out", src).read_text())
    assert "missing shards 3/3" in text


def test_pytest_entries_map_to_junit_cases(tmp_path):
    cases = dashboard.read_pytest(make_fixture(tmp_path).pytest_xml)
    st = lambda e: dashboard.pytest_status(e, cases)[0]  # noqa: E731
    assert st("tests/models/test_radix_cache.py") == "passing"
    assert st("tests/models/test_radix_cache.py::test_evict_is_lru_over_leaves") == "passing"
    assert st("tests/models/test_radix_cache.py::test_namespaces_never_share_nodes") == "not run"
    assert st("tests/models/test_workloads.py") == "failing"
    assert st("tests/models/test_regex_dfa.py::test_pattern_count") == "failing"  # skipped
    assert dashboard.pytest_status("tests/models/x.py", None)[0] == "not run"


def test_testpoint_status_takes_the_worst_test(tmp_path):
    src = make_fixture(tmp_path)
    plan = testplan.load()
    rows = {r["name"]: r for r in dashboard.testplan_rows(
        plan, dashboard.load_regression(src.regress_root)["records"],
        dashboard.read_pytest(src.pytest_xml))}
    assert rows["fifo_order_backpressure"]["status"] == "passing"
    assert rows["skid_throughput"]["status"] == "failing"
    assert rows["radix_trace_lookup"]["status"] == "not run"
    assert rows["kernel_fsm_host_flow"]["status"] == "not run"   # registered, no result here
    counts = dashboard.stage_counts(list(rows.values()))
    assert sum(c["total"] for c in counts.values()) == len(plan.testpoints)


def test_coverage_tables_are_required_only_when_there_is_coverage(tmp_path):
    assert dashboard.required_tables(make_fixture(tmp_path)) == dashboard.REQUIRED_TABLES
    empty = dashboard.Sources(regress_root=tmp_path / "none")
    assert dashboard.required_tables(empty) == ("tbl-stages", "tbl-testplan", "tbl-tests")


def test_proof_entries_take_their_status_from_the_saved_formal_verdicts():
    plan = testplan.Testplan("t", {}, (testplan.Testpoint(
        "tp", "V2", "", "f", "common", tests=("rtl/a/formal/x.sby", "rtl/a/formal/y.sby")),))
    ok = {"passed": True, "seconds": 1.0, "detail": []}
    bad = {"passed": False, "seconds": 2.0, "detail": ["bmc: FAIL"]}
    assert dashboard.testplan_rows(plan, [], None, None)[0]["status"] == "not run"
    both = {"rtl/a/formal/x.sby": ok, "rtl/a/formal/y.sby": ok}
    assert dashboard.testplan_rows(plan, [], None, both)[0]["status"] == "passing"
    row = dashboard.testplan_rows(plan, [], None, {**both, "rtl/a/formal/y.sby": bad})[0]
    assert row["status"] == "failing"
    assert row["tests"][1]["detail"] == "bmc: FAIL"


def test_a_planned_test_with_results_counts_by_its_results(tmp_path):
    plan = testplan.Testplan("t", {}, (testplan.Testpoint("tp", "V1", "", "f", "fsm",
                                                          planned=("fsm_x",)),))
    rec = {"test": "fsm_x", "sim": "verilator", "seed": 1, "passed": False}
    assert dashboard.testplan_rows(plan, [rec], None)[0]["status"] == "failing"
    assert dashboard.testplan_rows(plan, [], None)[0]["status"] == "planned"
