# SPDX-License-Identifier: Apache-2.0
"""scoreboard_base.accounting: the end-of-test books every radix and fsm scoreboard keeps."""

from __future__ import annotations

from uvm_env.common.scoreboard_base import accounting


def test_clean_books() -> None:
    assert accounting([], 0, sent=10, answered=8, dropped=2, checked=8) == []


def test_each_hole_is_reported() -> None:
    out = accounting(["MATCH(...)"], 2, sent=10, answered=7, dropped=1, checked=6)
    assert len(out) == 4
    assert "1 command(s) never answered, first MATCH(...)" in out
    assert "2 response frame(s) left over at the end" in out
    assert "10 commands sent, 7 answered, 1 dropped by resets" in out
    assert "7 commands answered, 6 checked" in out
