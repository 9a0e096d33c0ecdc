# SPDX-License-Identifier: Apache-2.0
"""Speed of the RadixCache golden model, next to SGLang 0.5.23's measured RadixCache.

Run as ``python -m scripts.bench_radix_model``. Prints a table and writes
build/bench/radix_model.json. The anchor scenario: 16 shared 512-token
system prompts, 64 unique tokens per request. Wall-clock numbers; they belong here, never in a
test.
"""

from __future__ import annotations

import json
import statistics
import time
from pathlib import Path

import numpy as np

from models.radix_cache import RadixCache
from models.workloads import WORKLOADS, replay, working_set_tokens

# SGLang 0.5.23 mem_cache/radix_cache.py RadixCache on a 2-core CPU, in microseconds.
SGLANG_US = {"match_prefix_576": 23.0, "insert": 74.0, "evict_32000": 25_000.0}
OUT = Path("build/bench/radix_model.json")
_PROMPTS, _PROMPT_LEN, _UNIQUE = 16, 512, 64


class TimedRadixCache(RadixCache):
    """Accumulates wall time and call counts per operation during a workload replay."""

    def __init__(self, page_size: int = 1) -> None:
        super().__init__(page_size)
        self.seconds = {"match_prefix": 0.0, "insert": 0.0, "evict": 0.0}
        self.calls = {"match_prefix": 0, "insert": 0, "evict": 0}

    def match_prefix(self, tokens: object, namespace: int = 0):  # noqa: ANN201
        t = time.perf_counter()
        r = super().match_prefix(tokens, namespace)
        self._add("match_prefix", t)
        return r

    def insert(self, tokens: object, kv_indices: object, namespace: int = 0) -> int:
        t = time.perf_counter()
        r = super().insert(tokens, kv_indices, namespace)
        self._add("insert", t)
        return r

    def evict(self, num_tokens: int) -> np.ndarray:
        t = time.perf_counter()
        r = super().evict(num_tokens)
        self._add("evict", t)
        return r

    def _add(self, op: str, start: float) -> None:
        self.seconds[op] += time.perf_counter() - start
        self.calls[op] += 1


def run(reps: int = 5) -> dict:
    """Returns {"anchor": {op: µs}, "anchor_vs_sglang": {op: model/SGLang}, "workloads":
    {name: {op: ops/s}}}."""
    anchor = _anchor(reps)
    return {
        "anchor_us": anchor,
        "sglang_us": SGLANG_US,
        "anchor_vs_sglang": {k: anchor[k] / SGLANG_US[k] for k in SGLANG_US},
        "workloads": _workloads(),
    }


def main() -> int:
    res = run()
    print("anchor: 16 shared 512-token prompts + 64 unique tokens per request")
    print(
        f"{'operation':<22} {'model µs':>10} {'SGLang µs':>10} {'model/SGLang':>13} {'speed-up':>9}"
    )
    for op, ref in SGLANG_US.items():
        us = res["anchor_us"][op]
        print(f"{op:<22} {us:>10.1f} {ref:>10.1f} {us / ref:>13.3f} {ref / us:>8.1f}x")
    for op in ("match_prefix_576_list", "insert_list"):
        print(f"{op:<22} {res['anchor_us'][op]:>10.1f}   (tokens passed as a Python list)")
    print()
    print("workload replays at 25% of the working set (ops/s)")
    print(
        f"{'workload':<18} {'match/s':>9} {'insert/s':>9} {'evict/s':>9} {'evict calls':>11} "
        f"{'hit rate':>8}"
    )
    for name, w in res["workloads"].items():
        print(
            f"{name:<18} {w['match_prefix']:>9.0f} {w['insert']:>9.0f} {w['evict']:>9.0f} "
            f"{w['evict_calls']:>11} {w['cache_hit_rate']:>8.1%}"
        )
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(res, indent=2) + "\n")
    print(f"\nwrote {OUT}")
    return 0


def _anchor(reps: int) -> dict[str, float]:
    rng = np.random.default_rng(0)
    prompts = [rng.integers(0, 32_000, _PROMPT_LEN) for _ in range(_PROMPTS)]

    serial = iter(range(1 << 30))

    def request(i: int) -> np.ndarray:
        # Unique tokens outside the prompt vocabulary and never reused, so two requests never
        # share a first unique token (which would add a split and change the leaf count).
        base = 100_000 + next(serial) * _UNIQUE
        return np.concatenate([prompts[i % _PROMPTS], np.arange(base, base + _UNIQUE)])

    def filled(n_req: int) -> tuple[RadixCache, list[np.ndarray]]:
        cache = RadixCache()
        reqs = [request(i) for i in range(n_req)]
        for i, r in enumerate(reqs):
            cache.insert(r, np.arange(i * len(r), (i + 1) * len(r)))
        return cache, reqs

    n = 2000
    cache, reqs = filled(n)
    kv = np.arange(len(reqs[0]))
    fresh = [request(i) for i in range(n)]
    lists = [r.tolist() for r in reqs]

    def per_op(fn: object, items: list) -> float:
        best = []
        for _ in range(reps):
            t = time.perf_counter()
            for x in items:
                fn(x)  # type: ignore[operator]
            best.append((time.perf_counter() - t) / len(items) * 1e6)
        return statistics.median(best)

    out = {
        "match_prefix_576": per_op(cache.match_prefix, reqs),
        "match_prefix_576_list": per_op(cache.match_prefix, lists),
    }
    # Inserts of new requests: each adds one 64-token leaf under a shared prompt. Only the
    # first rep creates leaves; later reps would measure a full hit, so use a new cache each.
    ins, ins_list = [], []
    for _ in range(reps):
        c, _ = filled(0)
        for p in prompts:
            c.insert(p, np.arange(len(p)))
        t = time.perf_counter()
        for r in fresh:
            c.insert(r, kv)
        ins.append((time.perf_counter() - t) / n * 1e6)
        c, _ = filled(0)
        flist = [r.tolist() for r in fresh]
        klist = kv.tolist()
        t = time.perf_counter()
        for r in flist:
            c.insert(r, klist)
        ins_list.append((time.perf_counter() - t) / n * 1e6)
    out["insert"] = statistics.median(ins)
    out["insert_list"] = statistics.median(ins_list)
    # A tree of 1,000 request leaves; evict(32000) pops the 500 oldest 64-token leaves. (With
    # only 500 leaves a prompt would lose its last leaf and cascade, freeing a 512-token node.)
    ev = []
    for _ in range(reps):
        c, _ = filled(1000)
        t = time.perf_counter()
        freed = c.evict(500 * _UNIQUE)
        ev.append((time.perf_counter() - t) * 1e6)
        assert len(freed) == 500 * _UNIQUE and len(c.last_evicted) == 500
    out["evict_32000"] = statistics.median(ev)
    return out


def _workloads() -> dict[str, dict[str, float]]:
    out = {}
    for name, gen in WORKLOADS.items():
        trace = gen(seed=0)
        cap = working_set_tokens(trace) // 4
        cache = TimedRadixCache()
        m = replay(trace, cap, cache=cache)
        row: dict[str, float] = {
            op: cache.calls[op] / cache.seconds[op] if cache.seconds[op] else 0.0
            for op in cache.calls
        }
        row["evict_calls"] = cache.calls["evict"]
        row["capacity_tokens"] = cap
        row["cache_hit_rate"] = m.cache_hit_rate
        out[name] = row
    return out


if __name__ == "__main__":
    raise SystemExit(main())
