# SPDX-License-Identifier: Apache-2.0
"""Open a page in headless Chromium (Debian's `chromium`): tables, images, console, screenshot.

No DevTools client is needed: a copy of the page gets a checker script at the top of
<head> that hooks errors and console.error before anything else runs and, on `load`,
writes its findings as JSON into the DOM, which `--dump-dom` returns. Chromium also
echoes every console message to stderr as `CONSOLE` lines; the dashboard has no script
of its own, so any such line is an error.
"""

from __future__ import annotations

import html
import json
import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

CHECK_ID = "__browser_check"
_CHECK_JS = """<script>
(() => {
  const errs = [];
  window.addEventListener('error', e => errs.push(e.message ? String(e.message)
      : 'failed to load ' + (e.target && (e.target.src || e.target.href))), true);
  window.addEventListener('unhandledrejection', e => errs.push('rejection: ' + e.reason));
  for (const lvl of ['error', 'warn']) {
    const orig = console[lvl];
    console[lvl] = (...a) => { errs.push('console.' + lvl + ': ' + a.join(' ')); orig(...a); };
  }
  window.addEventListener('load', () => {
    const tables = {};
    for (const t of document.querySelectorAll('table[id]'))
      tables[t.id] = t.tBodies.length ? t.tBodies[0].rows.length : 0;
    const images = [...document.images].map(i => ({alt: i.alt, complete: i.complete,
                                                    width: i.naturalWidth}));
    const out = document.createElement('pre');
    out.id = '@ID@';
    out.textContent = JSON.stringify({title: document.title, tables, images, errors: errs,
                                      height: document.documentElement.scrollHeight});
    document.body.appendChild(out);
  });
})();
</script>""".replace("@ID@", CHECK_ID)
_CONSOLE = re.compile(r":CONSOLE[(:]")
BROWSERS = ("chromium", "chromium-browser", "google-chrome")


@dataclass
class BrowserReport:
    title: str = ""
    tables: dict[str, int] = field(default_factory=dict)
    images: list[dict] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)      # in-page errors and failed loads
    console: list[str] = field(default_factory=list)     # CONSOLE lines Chromium logged
    height: int = 0
    screenshot: Path | None = None

    def problems(self, required_tables: tuple[str, ...] = ()) -> list[str]:
        out = [f"table #{t} missing or empty" for t in required_tables
               if self.tables.get(t, 0) == 0]
        if not self.images:
            out.append("no images on the page")
        out += [f"image '{i['alt']}' did not load" for i in self.images if not i["width"]]
        out += [f"page error: {e}" for e in self.errors]
        out += [f"console: {c}" for c in self.console]
        return out


def find_browser() -> str | None:
    return next((p for p in map(shutil.which, BROWSERS) if p), None)


NO_BROWSER = ("no Chromium on PATH, so the page was NOT checked in a browser. `make test` "
              "and `make dashboard` install it when run as root (make setup-browser), or: "
              "apt-get install chromium")


def browser_required() -> bool:
    """On CI (CI=true) the browser check is required; elsewhere a missing browser is
    reported, not failed."""
    return os.environ.get("CI", "").lower() in ("1", "true", "yes")


def _run(browser: str, args: list[str], timeout: float) -> subprocess.CompletedProcess:
    with tempfile.TemporaryDirectory(prefix="chromium-") as profile:
        # --no-sandbox: CI runs as root, where Chromium's sandbox refuses to start.
        cmd = [browser, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
               "--disable-extensions", "--hide-scrollbars", f"--user-data-dir={profile}",
               "--enable-logging=stderr", "--v=0", "--virtual-time-budget=5000", *args]
        return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)


def check_page(page: Path, screenshot: Path | None = None, width: int = 1400,
               timeout: float = 120.0) -> BrowserReport:
    """Load `page`, report what the checker saw, and optionally save a full-page PNG."""
    browser = find_browser()
    if browser is None:
        raise FileNotFoundError("no chromium on PATH: run `make setup-browser` as root, "
                                "or apt-get install chromium")
    page = page.resolve()
    text = page.read_text()
    probe = page.with_name(f".{page.stem}.check.html")   # same folder: same relative links
    head = re.search(r"<head[^>]*>", text, re.IGNORECASE)
    at = head.end() if head else 0
    probe.write_text(text[:at] + _CHECK_JS + text[at:])
    try:
        proc = _run(browser, ["--dump-dom", probe.as_uri()], timeout)
    finally:
        probe.unlink(missing_ok=True)
    m = re.search(rf'<pre id="{CHECK_ID}">(.*?)</pre>', proc.stdout, re.DOTALL)
    if not m:
        raise RuntimeError(f"the page checker did not run (chromium exit {proc.returncode}):\n"
                           f"{proc.stderr[-2000:]}")
    data = json.loads(html.unescape(m[1]))
    rep = BrowserReport(title=data["title"], tables=data["tables"], images=data["images"],
                        errors=data["errors"], height=int(data["height"]),
                        console=[ln for ln in proc.stderr.splitlines() if _CONSOLE.search(ln)])
    if screenshot is not None:
        screenshot.parent.mkdir(parents=True, exist_ok=True)
        screenshot.unlink(missing_ok=True)
        height = min(max(rep.height, 600), 16_000)
        _run(browser, [f"--screenshot={screenshot.resolve()}", f"--window-size={width},{height}",
                       page.as_uri()], timeout)
        rep.screenshot = screenshot if screenshot.exists() else None
    return rep
