# SPDX-License-Identifier: Apache-2.0
"""Token-FSM validator cycle counts from simulation (fsm_bench), against the peers.

Cycles are exact simulation counts; microseconds assume the 300 MHz kernel
clock and timing closure there, which nothing here has shown (no Vivado).
"""

from __future__ import annotations

import json

from scripts import bench_fsm_peers, registry
from scripts.sim import BUILD_ROOT, run_one

CLOCK_MHZ = 300


def _bench(test: str, out: str, seed: int) -> dict:
    res = run_one(registry.TESTS[test], "verilator", seed, out_dir=BUILD_ROOT / "bench" / out)
    if not res.passed:
        raise RuntimeError(f"{test} failed; replay: {res.replay()}")
    return json.loads((res.out_dir / "bench.json").read_text())


def run(seed: int = 1) -> dict:
    """fsm_bench on GPT-2, with fsm_bench_tekken's results under "tekken"."""
    out = _bench("fsm_bench", "fsm", seed)
    out["tekken"] = _bench("fsm_bench_tekken", "fsm_tekken", seed)
    return out


def _batch_rows(b: dict, vocab: str) -> list[str]:
    return [f"| MASK_BATCH of {k} slot{'s' if k != '1' else ''}, {vocab} "
            f"(command to last beat) | "
            f"{v['cycles']} ({v['cycles_per_slot']} per slot) | {v['beats']} beats in "
            f"{v['beat_span_cycles']} cycles; "
            f"{round(v['cycles'] / CLOCK_MHZ, 3)} µs at 300 MHz (assumes timing closure) |"
            for k, v in b.get("mask_batch", {}).items()]


def table(b: dict, peers: dict | None = None) -> str:
    """The cycle table; `peers` (scripts.bench_fsm_peers.run) adds their rows beside it."""
    m = b["mask"]
    batch = _batch_rows(b, "GPT-2")
    tek = b.get("tekken")
    if tek:
        tm = tek["mask"]
        batch += [f"| MASK, tekken ({tm['beats_per_mask']} beats of {tm['mask_w']} bits) | "
                  f"{tm['cycles_per_mask_idle_core']} | {tm['us_per_mask_at_300mhz']} µs at "
                  f"300 MHz (assumes timing closure) |", *_batch_rows(tek, "tekken")]
    return "\n".join([
        f"grammar: {b['grammar']}",
        "| measurement | cycles | note |", "|---|---|---|",
        f"| ADVANCE latency | {b['advance_latency_cycles']} | |",
        f"| ADVANCE, distinct slots | {b['advance_distinct_slots']['commands_per_cycle']} "
        "per cycle | |",
        f"| ADVANCE, same slot back to back | "
        f"{b['advance_same_slot']['cycles_per_command']} per command | |",
        f"| VALIDATE | {b['validate']['cycles_per_token']} per token | |",
        f"| MASK, GPT-2 ({m['beats_per_mask']} beats of {m['mask_w']} bits) | "
        f"{m['cycles_per_mask_idle_core']} | {m['us_per_mask_at_300mhz']} µs at 300 MHz "
        f"(assumes timing closure) |",
        *batch,
        f"| table load | {b['load']['cycles_per_beat']} per beat | "
        f"{b['load']['bytes']} bytes in {b['load']['cycles']} cycles |",
        *(bench_fsm_peers.rows(peers) if peers else []),
    ])


if __name__ == "__main__":
    print(table(run(), bench_fsm_peers.run()))
