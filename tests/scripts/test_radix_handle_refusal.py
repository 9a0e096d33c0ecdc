# SPDX-License-Identifier: Apache-2.0
"""The coverage classifier of HANDLE refusals names the RTL's first failing check."""

from __future__ import annotations

from uvm_env.radix.radix_coverage import HANDLE_REFUSALS, handle_refusal

NODE_CAP = 64


def test_reserved_bits_come_first() -> None:
    assert handle_refusal(0x1000_0003, NODE_CAP) == "reserved bits"
    assert handle_refusal(0xFF00_0000 | 200, NODE_CAP) == "reserved bits"   # slot bad too


def test_slot_range_then_generation() -> None:
    assert handle_refusal(0x0030_0000 | NODE_CAP, NODE_CAP) == "slot out of range"
    assert handle_refusal(0x0030_0000 | (NODE_CAP - 1), NODE_CAP) == "stale generation"
    assert {handle_refusal(h, NODE_CAP) for h in (1 << 28, NODE_CAP, 0)} == set(HANDLE_REFUSALS)
