# SPDX-License-Identifier: Apache-2.0
"""Scheduler-side prefix-cache time per request on the ecommerce_qa workload, side by side
in one run (part of `make bench`; runs in the `make sglang-check` venv, which has SGLang):

* SGLang 0.5.23's Python ``RadixCache`` and its ``UnifiedRadixCache`` (the Rust TreeCore),
  measured live; each request is one call per step, so the batch size does not change them;
* this package's ``FpgaRadixCache`` through SGLang's API on the ``model`` back end (one call
  per step), and the driver's batched path on the ``model`` back end (one call per batch);
* the card estimate: the RTL kernel's clock cycles for the same batches (``sim`` back end,
  krnl_radix in Verilator) at 300 MHz, plus one PCIe/XRT round trip per call. The round
  trip is a parameter (ROUND_TRIP_US), not a measurement: no card was available.

Per request: MATCH the prompt, INSERT prompt + output, EVICT back under the budget.
"""

from __future__ import annotations

import json
import os
import sys
import time
from array import array
from pathlib import Path

import torch
from sglang.srt.mem_cache.base_prefix_cache import EvictParams, InsertParams, MatchPrefixParams
from sglang.srt.mem_cache.cache_init_params import CacheInitParams
from sglang.srt.mem_cache.radix_cache import RadixCache, RadixKey

from sglang_fpga import RadixDevice, RadixGeometry
from sglang_fpga.models.workloads import ecommerce_qa
from sglang_fpga.sglang.radix_cache import FpgaRadixCache
from sglang_fpga.wire import RadixCommand, RadixOp

BATCHES = (1, 8, 128)
CARD_MHZ = 300.0
ROUND_TRIP_US = 20.0     # assumed: XRT run submit, two buffer syncs, interrupt wait
GEOMETRY = RadixGeometry(node_cap=4096, token_cap=32768, max_len=1024, hash_buckets=1024,
                         hash_ways=4, stash_depth=4)
BUDGET = GEOMETRY.token_cap * 3 // 4


class NullAllocator:
    device = "cpu"

    def free_segment(self, free_index: torch.Tensor, *, start_pos: int) -> None:
        pass

    def free(self, free_index: torch.Tensor) -> None:
        pass


def _params(**extra: object) -> CacheInitParams:
    return CacheInitParams(disable=False, req_to_token_pool=None,
                           token_to_kv_pool_allocator=NullAllocator(), page_size=1, **extra)


def workload(n: int) -> list[tuple[list[int], list[int], int]]:
    out = []
    for r in ecommerce_qa(seed=1, requests=n):
        full = [int(t) for t in r.tokens[:GEOMETRY.max_len]]
        out.append((full[:len(r.prompt)], full, r.namespace))
    return out


def per_call(cache: object, reqs: list[tuple[list[int], list[int], int]]) -> float:
    """Microseconds per request through SGLang's prefix-cache API, one call per step."""
    kv = 0
    start = time.perf_counter()
    for prompt, full, ns in reqs:
        extra = str(ns) if ns else None
        cache.match_prefix(MatchPrefixParams(key=RadixKey(array("q", prompt), extra)))
        vals = torch.arange(kv, kv + len(full), dtype=torch.int64)
        kv += len(full)
        cache.insert(InsertParams(key=RadixKey(array("q", full), extra), value=vals))
        size = cache.total_size()      # UnifiedRadixCache: (full, swa)
        over = (size[0] if isinstance(size, tuple) else size) - BUDGET
        if over > 0:
            cache.evict(EvictParams(num_tokens=over))
    return (time.perf_counter() - start) * 1e6 / len(reqs)


def batched(dev: RadixDevice, reqs: list[tuple[list[int], list[int], int]],
            batch: int) -> tuple[float, int, int]:
    """(wall microseconds per request, calls, device cycles) with one call per step of a
    batch: its MATCHes, then its INSERTs, then one EVICT and SIZES."""
    dev.reset()
    kv, calls, total = 0, 0, 0
    card = getattr(dev._be, "card", None)
    cycles0 = getattr(card, "cycles", 0)
    start = time.perf_counter()
    for i in range(0, len(reqs), batch):
        group = reqs[i:i + batch]
        dev.execute([RadixCommand(RadixOp.MATCH, ns, p) for p, _, ns in group], check=False)
        inserts = []
        for _, full, ns in group:
            inserts.append(RadixCommand(RadixOp.INSERT, ns, full, list(range(kv, kv + len(full)))))
            kv += len(full)
            total += len(full)
        dev.execute(inserts, check=False)
        dev.execute([RadixCommand(RadixOp.EVICT, arg=max(1, total - BUDGET)),
                     RadixCommand(RadixOp.SIZES)], check=False)
        total = min(total, BUDGET)
        calls += 3
    wall = (time.perf_counter() - start) * 1e6 / len(reqs)
    return wall, calls, getattr(card, "cycles", 0) - cycles0


def unified() -> object:
    from sglang.srt.mem_cache.unified_cache.components import ComponentType
    from sglang.srt.mem_cache.unified_radix_cache import UnifiedRadixCache
    return UnifiedRadixCache(_params(tree_components=(ComponentType.FULL,)))


def main() -> int:
    n = int(os.environ.get("BENCH_REQUESTS", "128"))
    reqs = workload(n)
    rows: dict[str, dict[str, object]] = {}
    rows["sglang RadixCache (Python)"] = {"us_per_request": per_call(RadixCache(_params()), reqs)}
    try:
        rows["sglang UnifiedRadixCache (Rust TreeCore)"] = {
            "us_per_request": per_call(unified(), reqs)}
    except Exception as exc:  # noqa: BLE001 - report why it could not be measured
        rows["sglang UnifiedRadixCache (Rust TreeCore)"] = {"not measured": repr(exc)[:300]}
    fp = FpgaRadixCache(_params(), device=RadixDevice("model", geometry=GEOMETRY))
    rows["FpgaRadixCache, model back end (per call)"] = {"us_per_request": per_call(fp, reqs)}
    model = RadixDevice("model", geometry=GEOMETRY)
    sim = RadixDevice("sim", geometry=GEOMETRY)
    try:
        for b in BATCHES:
            wall, calls, _ = batched(model, reqs, b)
            rows[f"model back end, batch {b}"] = {"us_per_request": wall, "calls": calls}
            _, calls, cycles = batched(sim, reqs, b)
            card_us = (cycles / CARD_MHZ + calls * ROUND_TRIP_US) / len(reqs)
            rows[f"card estimate, batch {b}"] = {
                "us_per_request": card_us, "rtl_cycles": cycles, "calls": calls,
                "of_which_round_trips_us": calls * ROUND_TRIP_US / len(reqs)}
    finally:
        sim.close()
    out = Path(os.environ.get("BENCH_OUT", "build/bench")) / "host.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"requests": n, "round_trip_us": ROUND_TRIP_US,
                               "card_mhz": CARD_MHZ, "rows": rows}, indent=1))
    print(f"ecommerce_qa, {n} requests (prompt + output cut to {GEOMETRY.max_len} tokens); "
          f"scheduler-side prefix-cache time per request")
    for name, row in rows.items():
        value = row.get("us_per_request")
        print(f"  {name:<44} " + (f"{value:9.1f} us" if value is not None
                                   else str(row.get("not measured"))))
    print(f"The card rows are estimates: RTL cycles at {CARD_MHZ:.0f} MHz plus an assumed "
          f"{ROUND_TRIP_US:.0f} us per call for PCIe and XRT; batching spreads that round "
          f"trip over the batch. No card was measured.\nwrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
