# SPDX-License-Identifier: Apache-2.0
"""The dashboard in a real browser: Debian's headless Chromium (installed by `make test`).

A missing Chromium fails these tests rather than skipping them: a skipped browser test
would let a page nobody can open pass CI.
"""

from scripts import browser_check, dashboard
from scripts.registry import ROOT
from tests.scripts.test_dashboard import make_fixture

SHOT = ROOT / "build" / "dashboard-test" / "screenshot.png"


def _browser():
    assert browser_check.find_browser(), \
        "no chromium on PATH: run `make setup-browser` as root, or apt-get install chromium"


def test_dashboard_renders_in_headless_chromium(tmp_path):
    _browser()
    page = dashboard.build(tmp_path / "out", make_fixture(tmp_path))
    rep = browser_check.check_page(page, screenshot=SHOT)
    required = dashboard.REQUIRED_TABLES + ("tbl-failures-1", "tbl-resources",
                                             "tbl-bench-radix-rtl", "tbl-history", "tbl-pytest")
    assert rep.problems(required) == []
    assert rep.title == "sglang-fpga regression dashboard"
    assert len(rep.images) >= 8 and all(i["width"] > 100 for i in rep.images)
    assert rep.tables["tbl-failures-1"] == 2        # seeds 2 and 3 of the same bug
    assert rep.screenshot == SHOT
    data = SHOT.read_bytes()
    assert data.startswith(b"\x89PNG") and len(data) > 50_000


def test_checker_catches_broken_images_empty_tables_and_console_errors(tmp_path):
    _browser()
    page = tmp_path / "bad.html"
    page.write_text('<!DOCTYPE html><html><head><title>bad</title></head><body>'
                    '<table id="t"><thead><tr><th>x</th></tr></thead><tbody></tbody></table>'
                    '<img alt="gone" src="missing.png">'
                    '<script>console.error("boom"); notDefined();</script></body></html>')
    problems = browser_check.check_page(page).problems(("t",))
    assert "table #t missing or empty" in problems
    assert "image 'gone' did not load" in problems
    assert any("console.error: boom" in p for p in problems)
    assert any("notDefined" in p for p in problems)
    assert not list(tmp_path.glob(".*check.html")), "the probe copy is cleaned up"
