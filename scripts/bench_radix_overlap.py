# SPDX-License-Identifier: Apache-2.0
"""Walks in flight (issue 15's sweep as far as it is built): radix_stream_bench's
ecommerce_qa streams on the on-chip and L2 builds, one command at a time through the
tables (Overlap = 0) and one walk beside one commit (Overlap = 1).

K counts MATCH/INSERT walks in the pipeline at once. K = 1 and K = 2 are built; K = 4
and K = 8 (several walk contexts) are not, and the table says so instead of a number.
Cycles are exact simulation counts; the L2 build reads DDR at 60 cycles (pipelined).
"""

from __future__ import annotations

import json

from scripts import bench_common, registry
from scripts.sim import BUILD_ROOT, run_one
from uvm_env.radix.freeze_monitor import KINDS

KS = (1, 2, 4, 8)
BUILT_K = {1: "", 2: "_overlap"}   # K -> the registered test's suffix (Overlap 0, 1)
BUILDS = {"on_chip": "radix_stream_bench", "l2": "radix_stream_bench_l2"}
STREAMS = ("match_stream", "mixed_stream", "lock_stream")


def run(seed: int = 1, ci: bool = False) -> dict:
    out: dict = {}
    for build, base in BUILDS.items():
        for k, suffix in BUILT_K.items():
            variant = registry.TESTS[base + suffix]
            res = run_one(variant, "verilator", seed,
                          out_dir=BUILD_ROOT / "bench" / f"radix_stream_{build}_k{k}", ci=ci)
            if not res.passed:
                raise RuntimeError(f"radix_stream_bench ({build}, K={k}) failed; replay: "
                                   f"{res.replay()}")
            out[f"{build}_k{k}"] = json.loads((res.out_dir / "bench.json").read_text())
    return out


def table(s: dict) -> str:
    first = next(iter(s.values()))
    rows = [f"{first['workload']}: {first['match_stream']['commands']} MATCHes back to back, "
            f"then {first['mixed_stream']['commands']} commands (MATCH the prompt, INSERT the "
            f"sequence) back to back, then {first['lock_stream']['commands']} (LOCK an "
            "earlier answer's handle, MATCH the next prompt); driver window "
            f"{first['window']}; cycles per command (speed-up against K = 1 of the same "
            "build).", "",
            "| build | K (walks in flight) | MATCH stream | MATCH + INSERT stream | "
            "LOCK + MATCH stream | walks beside a commit | replays (hits: split, new leaf) |",
            "|---|---|---|---|---|---|---|"]
    for build, name in (("on_chip", "on chip"), ("l2", "L2, DDR 60 cycles")):
        base = s.get(f"{build}_k1")
        for k in KS:
            r = s.get(f"{build}_k{k}")
            if r is None:
                rows.append(f"| {name} | {k} | not built (several walk contexts) | | | | |")
                continue
            cells = []
            for stream in STREAMS:
                per = r[stream]["cycles_per_command"]
                gain = base[stream]["cycles_per_command"] / per if base else 1.0
                cells.append(f"{per} ({gain:.2f}x)")
            c = {key: sum(r[stream]["counters"].get(key, 0) for stream in STREAMS)
                 for key in r["mixed_stream"]["counters"]}
            ovl = (f"{c['walks overlapped']}" if c else "-")
            rep = (f"{c['replays']} ({c['hits by a split']}, {c['hits by a new leaf']})"
                   if c else "-")
            rows.append(f"| {name} | {k} | {' | '.join(cells)} | {ovl} | {rep} |")
    return "\n".join(rows + ["", *frozen_table(s)])


def frozen_table(s: dict) -> list[str]:
    """Where the L2 builds' cycles go: an L1 miss freezes both stages (one adv)."""
    rows = ["Frozen cycles on the L2 builds (uvm_env/radix/freeze_monitor.py), share of the "
            "stream's cycles, by what the two stages were doing. A miss freezes the whole "
            "core; only in the frozen cycles with a walk beside a commit could a per-stage "
            "freeze let one stage go on, so 'if those were free' is the stream's cycles "
            "over its cycles without them (first order, not a bound: it ignores the one "
            "read port per table the stages share, and work a stage could move into the "
            "other's misses).", "",
            "| K | stream | cycles | frozen | walk beside commit | walk alone | commit alone "
            "| neither | if those were free |", "|---|---|---|---|---|---|---|---|---|"]
    for k in KS:
        r = s.get(f"l2_k{k}")
        if r is None:
            continue
        for stream in STREAMS:
            f = r[stream].get("frozen")
            if not f:
                continue
            n = f["cycles"]
            share = [f"{100 * f[kind] / n:.1f} %" for kind in KINDS]
            total = sum(f[kind] for kind in KINDS)
            rows.append(f"| {k} | {stream.replace('_', ' ')} | {n} | {100 * total / n:.1f} % | "
                        f"{' | '.join(share)} | {n / (n - f['both']):.2f}x |")
    return rows


if __name__ == "__main__":
    raise SystemExit(bench_common.main("radix_overlap", run, table))
