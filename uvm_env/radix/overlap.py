# SPDX-License-Identifier: Apache-2.0
"""The walk/commit overlap's counters in radix_core (Overlap = 1), read by hierarchy
and through their CSRs: the tests that run the overlapped core fail unless the overlap
(and, where the stimulus is built to collide, a replay) actually happened."""

from __future__ import annotations

from typing import Any

# counter name -> radix_core register
COUNTERS = {
    "walks overlapped": "ovl_walks_q",
    "replays": "replays_q",
    "hits by a split": "hits_split_q",
    "hits by a new leaf": "hits_leaf_q",
    "walk waited for the commit (cycles)": "wk_wait_q",
    "lookup waited for the commit (cycles)": "ix_wait_q",
    "walks stopped by a fault": "ovl_killed_q",
}
# counter name -> its CSR (the fault count has none)
CSRS = {
    "walks overlapped": "OVL_WALKS",
    "replays": "REPLAYS",
    "hits by a split": "CONFLICTS_SPLIT",
    "hits by a new leaf": "CONFLICTS_LEAF",
    "walk waited for the commit (cycles)": "WALK_WAIT_CYCLES",
    "lookup waited for the commit (cycles)": "LOOKUP_WAIT_CYCLES",
}


def overlap_counters(dut: Any) -> dict[str, int]:
    """Every overlap counter of the core under ``dut`` (a radix_top)."""
    core = dut.u_core
    if int(dut.Overlap.value) != 1:
        raise AssertionError("this test needs a radix_top build with Overlap = 1")
    return {name: int(getattr(core, sig).value) for name, sig in COUNTERS.items()}


async def check_overlap(test: Any, need_replay: bool) -> dict[str, int]:
    """Log the counters and fail unless walks overlapped commits (and, with
    ``need_replay``, a broadcast hit a walk and it ran again); the CSRs must read the
    core's counters (called with nothing in flight, so neither moves)."""
    counts = overlap_counters(test.dut)
    test.logger.info("overlap: %s", counts)
    sb = test.env.scoreboard
    csrs = {name: await test.env.read_csr(reg) for name, reg in CSRS.items()}
    sb.compare("overlap CSRs", {name: counts[name] for name in CSRS}, csrs)
    sb.check("CSR OVERLAP reads 1", await test.env.read_csr("OVERLAP") == 1)
    sb.check("a walk ran beside a commit", counts["walks overlapped"] > 0,
             "no MATCH or INSERT was dispatched while another committed")
    if need_replay:
        hits = counts["hits by a split"] + counts["hits by a new leaf"]
        sb.check("a commit's broadcast hit a walk, which ran again",
                 counts["replays"] > 0 and hits > 0, f"counters {counts}")
    test.figures["overlap"] = counts
    return counts
