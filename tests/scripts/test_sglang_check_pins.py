# SPDX-License-Identifier: Apache-2.0
"""scripts/sglang_check.txt holds exact pins only: a local path (a `pip freeze` of a
checkout) once slipped in and broke `make sglang-check` on every other machine."""

from __future__ import annotations

import re

from scripts.registry import ROOT

PIN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*==[A-Za-z0-9.+!_-]+$")


def test_every_line_is_an_exact_pin():
    lines = [ln.strip() for ln in (ROOT / "scripts" / "sglang_check.txt").read_text().splitlines()]
    bad = [ln for ln in lines if ln and not ln.startswith("#") and not PIN.match(ln)]
    assert not bad, f"not name==version: {bad}"
