# SPDX-License-Identifier: Apache-2.0
"""The benchmark harnesses: peers driven along the model's own token path, and the
walk-cost arithmetic of the radix table."""

from __future__ import annotations

import pytest

from models.token_fsm import TokenFSM
from models.vocab import Vocabulary
from scripts import bench_fsm_peers, bench_fsm_rtl, bench_radix_overlap, bench_radix_rtl

REGEX = "ab+c"


@pytest.fixture(scope="module")
def tiny() -> tuple[Vocabulary, TokenFSM]:
    vocab = Vocabulary.from_list(["a", "b", "c", "ab", "bb", "bc", "x"], eos="</s>")
    return vocab, TokenFSM.from_regex(REGEX, vocab)


def test_token_path_is_accepted_by_the_model(tiny):
    vocab, fsm = tiny
    path = bench_fsm_peers.token_path(fsm, 6, seed=3)
    assert path and fsm.walk(path) is not None
    assert all(not vocab.is_special(t) for t in path)


@pytest.mark.parametrize("peer", ["_llguidance", "_outlines"])
def test_peers_follow_the_same_path(tiny, peer):
    """A peer fed wrong token ids refuses the path (or raises), so the harness would
    not report a time for masks it never computed."""
    vocab, fsm = tiny
    path = bench_fsm_peers.token_path(fsm, 6, seed=3)
    r = getattr(bench_fsm_peers, peer)(vocab, path, regex=REGEX)
    assert r["available"], r
    assert r["masks"] == len(path) and r["us_per_mask_median"] > 0


def test_peer_rows_say_what_was_not_measured():
    rows = bench_fsm_peers.rows({"peers": {
        "llguidance": {"available": True, "version": "1", "masks": 3,
                       "us_per_mask_median": 2.0, "us_per_mask_mean": 3.0},
        "xgrammar": {"available": False, "note": "not measured: why"}}})
    assert "2.0 µs median over 3 masks" in rows[0]
    assert "not measured: why" in rows[1]


def test_batch_rows_in_fsm_table():
    b = {"grammar": "g", "advance_latency_cycles": 4,
         "advance_distinct_slots": {"commands_per_cycle": 1.0},
         "advance_same_slot": {"cycles_per_command": 1.0},
         "validate": {"cycles_per_token": 1.0},
         "mask": {"beats_per_mask": 99, "mask_w": 512, "cycles_per_mask_idle_core": 101,
                  "us_per_mask_at_300mhz": 0.34},
         "mask_batch": {"8": {"slots": 8, "beats": 792, "cycles": 795,
                              "cycles_per_slot": 99.38, "beat_span_cycles": 792}},
         "load": {"cycles_per_beat": 1.0, "bytes": 10, "cycles": 2}}
    text = bench_fsm_rtl.table(b)
    assert "| MASK_BATCH of 8 slots, GPT-2 (command to last beat) | 795 (99.38 per slot) |" in text
    tek = {**b, "mask": {**b["mask"], "beats_per_mask": 256, "cycles_per_mask_idle_core": 258},
           "mask_batch": {"1": {"slots": 1, "beats": 256, "cycles": 258, "cycles_per_slot": 258,
                                "beat_span_cycles": 256}}}
    text = bench_fsm_rtl.table({**b, "tekken": tek})
    assert "| MASK, tekken (256 beats of 512 bits) | 258 |" in text
    assert "| MASK_BATCH of 1 slot, tekken (command to last beat) | 258 (258 per slot) |" in text


def test_walk_slope_and_fixed_cost():
    fan = {"chain": 40, "shallow": 8,
           "walk_cycles": {"chain 8 below one child": 94, "chain 40 below one child": 350},
           "walk_nodes": {"chain 8 below one child": 10, "chain 40 below one child": 42}}
    assert bench_radix_rtl.walk_per_node(fan, "one child") == {"slope": 8.0, "fixed": 14.0}
    assert bench_radix_rtl.walk_per_node(fan, "last child") is None


def test_in_flight_note_names_each_occupied_bin_with_its_share():
    note = bench_radix_rtl.in_flight_note({"in_flight_hist": [1, 3, 0, 4, 0, 0, 0, 0]})
    assert note.endswith("share of cycles: 1: 12 %, 2: 38 %, 5-8: 50 %")
    assert bench_radix_rtl.in_flight_note({"in_flight_hist": [0] * 8}) == ""
    assert bench_radix_rtl.in_flight_note({}) == ""


def test_overlap_table_speed_ups_and_unbuilt_rows():
    def stream(commands: int, per: float, walks: int = 0) -> dict:
        counters = ({"walks overlapped": walks, "replays": 1, "hits by a split": 1,
                     "hits by a new leaf": 0} if walks else {})
        return {"commands": commands, "cycles_per_command": per, "counters": counters}

    def result(per: tuple[float, float, float], walks: int = 0) -> dict:
        return {"workload": "ecommerce_qa", "window": 8,
                "match_stream": stream(32, per[0], walks),
                "mixed_stream": stream(32, per[1], walks),
                "lock_stream": stream(32, per[2], walks)}

    text = bench_radix_overlap.table({
        "on_chip_k1": result((100.0, 120.0, 80.0)), "on_chip_k2": result((80.0, 100.0, 40.0), 5),
        "l2_k1": result((800.0, 600.0, 400.0)), "l2_k2": result((800.0, 600.0, 400.0), 2)})
    assert "| on chip | 2 | 80.0 (1.25x) | 100.0 (1.20x) | 40.0 (2.00x) | 15 | 3 (3, 0) |" in text
    assert ("| L2, DDR 60 cycles | 1 | 800.0 (1.00x) | 600.0 (1.00x) | 400.0 (1.00x) | - | - |"
            in text)
    assert text.count("not built (several walk contexts)") == 4


def test_frozen_table_shares_and_first_order_gain():
    frozen = {"cycles": 1000, "both": 500, "walk": 200, "commit": 50, "other": 0}
    stream = {"commands": 8, "cycles_per_command": 125.0, "counters": {}, "frozen": frozen}
    res = {"workload": "ecommerce_qa", "window": 8, "match_stream": stream,
           "mixed_stream": stream, "lock_stream": {**stream, "frozen": None}}
    rows = bench_radix_overlap.frozen_table({"on_chip_k1": res, "l2_k2": res})
    # the on-chip build is never frozen and has no rows; a stream without figures neither
    assert rows[-2:] == [
        "| 2 | match stream | 1000 | 75.0 % | 50.0 % | 20.0 % | 5.0 % | 0.0 % | 2.00x |",
        "| 2 | mixed stream | 1000 | 75.0 % | 50.0 % | 20.0 % | 5.0 % | 0.0 % | 2.00x |"]
    assert not any(r.startswith("| 1 |") for r in rows)
