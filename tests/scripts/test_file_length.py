# SPDX-License-Identifier: Apache-2.0
"""No source file over ~600 lines without a stated reason.

A tracked .py, .sv or .svh file longer than MAX_LINES must say why in its
header: a line (comment or docstring) starting with "Length:" in its first
HEADER_LINES lines, RTL included. RTL_REASONS is for a file whose header cannot
carry the line; an entry there must still be needed (the file must exist and be
over the limit), so the list cannot go stale. It is empty.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MAX_LINES = 600
HEADER_LINES = 40
SUFFIXES = (".py", ".sv", ".svh")
_REASON = re.compile(r"^\s*(?:#|//|\*)?\s*Length:\s*\S")

# RTL files state their reason in their own header, like every other file.
RTL_REASONS: dict[str, str] = {}


def tracked_sources() -> list[Path]:
    out = subprocess.run(
        ["git", "ls-files", *(f"*{s}" for s in SUFFIXES)],
        cwd=ROOT, capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    return [ROOT / line for line in out.splitlines() if (ROOT / line).is_file()]


def line_count(path: Path) -> int:
    return len(path.read_text(encoding="utf-8", errors="replace").splitlines())


def has_length_reason(path: Path) -> bool:
    head = path.read_text(encoding="utf-8", errors="replace").splitlines()[:HEADER_LINES]
    return any(_REASON.match(line) for line in head)


def test_long_files_state_a_reason():
    missing = []
    for path in tracked_sources():
        rel = path.relative_to(ROOT).as_posix()
        n = line_count(path)
        if n > MAX_LINES and rel not in RTL_REASONS and not has_length_reason(path):
            missing.append(f"{rel} ({n} lines)")
    assert not missing, (
        f"over {MAX_LINES} lines with no 'Length: <reason>' line in the first "
        f"{HEADER_LINES} lines (split the file, or say why not): {missing}"
    )


def test_rtl_allow_list_is_current():
    for rel, reason in RTL_REASONS.items():
        path = ROOT / rel
        assert rel.startswith("rtl/") and reason, rel
        assert path.is_file(), f"{rel} is gone: drop it from RTL_REASONS"
        assert line_count(path) > MAX_LINES, f"{rel} is short now: drop it from RTL_REASONS"


def test_reason_line_is_recognised(tmp_path):
    for header in ("# Length: tables", "// Length: one FSM", "Length: docstring line"):
        f = tmp_path / "x.py"
        f.write_text(f'"""Doc.\n\n{header}\n"""\n')
        assert has_length_reason(f), header
    f.write_text('"""Doc. Length of a token."""\n')
    assert not has_length_reason(f)
