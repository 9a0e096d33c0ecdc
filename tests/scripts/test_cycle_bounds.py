# SPDX-License-Identifier: Apache-2.0
"""The benches' cycle bounds: a count past the documented model fails the bench."""

from __future__ import annotations

import pytest

from uvm_env.common.cycle_bounds import CycleBounds
from uvm_env.radix import cycle_model


def _rec(op: str, cycles: int, result: int, walk: int = 0, nodes: int = 0,
         workload: str = "anchor") -> dict:
    return {"workload": workload, "op": op, "tokens": 576, "result": result,
            "cycles": cycles, "walk_cycles": walk, "walk_nodes": nodes}


def test_bounds_collect_every_violation_and_refuse_an_empty_check():
    b = CycleBounds()
    with pytest.raises(AssertionError, match="no cycle bound"):
        b.verdict()
    b.at_most("a", 5, 4)
    b.at_least("b", 15.9, 16.0)
    b.exactly("c", 3, 3)
    with pytest.raises(AssertionError) as err:
        b.verdict()
    assert "a: 5 <= 4" in str(err.value) and "b: 15.9 >= 16.0" in str(err.value)
    assert "c:" not in str(err.value)


def test_radix_model_holds_the_headline_and_walk_bounds():
    walk = cycle_model.walk_bound(2, 576)
    good = [_rec("MATCH", 137, 576, walk, 2), _rec("INSERT", 160, 0)]
    assert not cycle_model.check(good, 2).failed
    slow = [_rec("MATCH", 161, 576, walk + 1, 2), _rec("INSERT", 201, 0)]
    names = {c.name.split(",")[0] for c in cycle_model.check(slow, 2).failed}
    assert names == {"MATCH 576 tokens", "INSERT new 576 tokens", "MATCH walk cycles"}
    with pytest.raises(ValueError, match="RamLat = 2"):
        cycle_model.check(good, 3)


def test_fsm_model_catches_a_bubble_in_a_batch():
    from uvm_env.fsm import cycle_model as fsm_model
    res = {"advance_latency_cycles": 6,
           "advance_distinct_slots": {"commands_per_cycle": 1.0},
           "advance_same_slot": {"cycles_per_command": 1.0},
           "validate": {"cycles_per_token": 1.0, "latency_after_last_token": 6},
           "mask": {"beats_per_mask": 99, "latency_to_first_beat": 4,
                    "cycles_per_mask_idle_core": 103, "back_to_back_beats_per_cycle": 1.0},
           "mask_batch": {"8": {"beats": 792, "cycles": 796, "beat_span_cycles": 792}},
           "load": {"cycles_per_beat": 1.0}}
    assert not fsm_model.check(res).failed
    res["mask_batch"]["8"].update(cycles=797, beat_span_cycles=793)
    res["advance_same_slot"]["cycles_per_command"] = 2.0
    failed = {c.name for c in fsm_model.check(res).failed}
    assert failed == {"MASK_BATCH of 8, command to last beat",
                      "MASK_BATCH of 8, first to last beat (no bubble)",
                      "ADVANCE on one slot, cycles per command"}
