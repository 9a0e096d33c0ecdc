# SPDX-License-Identifier: Apache-2.0
"""`make bench`: every benchmark in one run, peers side by side; writes build/bench/."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from models import fsm_sizes
from scripts import (
    bench_fsm_model,
    bench_fsm_peers,
    bench_fsm_rtl,
    bench_radix_l2,
    bench_radix_model,
    bench_radix_overlap,
    bench_radix_rtl,
    boards,
)
from scripts.registry import ROOT

OUT = Path("build/bench")


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    results: dict = {}
    print("== radix controller RTL (simulated cycles) ==")
    results["radix_rtl"] = bench_radix_rtl.run()
    print(bench_radix_rtl.table(results["radix_rtl"]))
    print("\n== radix controller, L2 build (tables in DDR, simulated cycles) ==")
    results["radix_l2"] = bench_radix_l2.run()
    print(bench_radix_l2.table(results["radix_l2"]))
    print("\n== radix controller, walks in flight (ecommerce_qa streams, simulated cycles) ==")
    results["radix_overlap"] = bench_radix_overlap.run()
    print(bench_radix_overlap.table(results["radix_overlap"]))
    print("\n== token-FSM validator RTL (simulated cycles) ==")
    results["fsm_rtl"] = bench_fsm_rtl.run()
    venv_python = bench_fsm_peers.sglang_venv()   # xgrammar and SGLang run in it
    results["fsm_peers"] = bench_fsm_peers.run(python=venv_python)
    print(bench_fsm_rtl.table(results["fsm_rtl"], results["fsm_peers"]))
    print("\n== token-FSM table sizes and VCK5000 fit ==")
    results["fsm_sizes"], text = fsm_sizes.size_table(
        config=boards.load("vck5000").configs["fsm"])
    print(text)
    print("\n== radix golden model (Python, wall clock) vs SGLang ==")
    results["radix_model"] = bench_radix_model.run()
    print(json.dumps(results["radix_model"], indent=1)[:3000])
    print("\n== token-FSM golden model vs outlines-core (same run) ==")
    results["fsm_model"] = bench_fsm_model.run()
    print(json.dumps({k: v for k, v in results["fsm_model"].items() if k != "tekken"},
                     indent=1)[:3000])
    print("\n== prefix cache per request: SGLang (Python, Rust), model back end, card "
          "estimate ==")
    results["host"] = run_host_bench(venv_python)
    (OUT / "summary.json").write_text(json.dumps(results, indent=1))
    print(f"\nwrote {OUT / 'summary.json'}")
    return 0


def run_host_bench(python: Path | str) -> dict:
    """scripts/bench_host.py in the `make sglang-check` venv (it needs SGLang)."""
    if isinstance(python, str):
        return {"failed": python}
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env.update(PYTHONPATH=str(ROOT), SGLANG_FPGA_ROOT=str(ROOT), BENCH_OUT=str(OUT.resolve()))
    proc = subprocess.run([str(python), "-W", "ignore", "-m", "scripts.bench_host"], cwd=ROOT,
                          env=env)
    host = OUT / "host.json"
    return json.loads(host.read_text()) if proc.returncode == 0 and host.exists() else {
        "failed": proc.returncode}


if __name__ == "__main__":
    sys.exit(main())
