# SPDX-License-Identifier: Apache-2.0
"""Radix controller cycle counts from simulation (radix_bench), against SGLang.

Cycles are exact simulation counts. Microseconds assume the VCK5000 kernel clock
of 300 MHz and timing closure there, which nothing here has shown (no Vivado).
"""

from __future__ import annotations

import dataclasses
import json

from scripts import bench_common, registry
from scripts.sim import BUILD_ROOT, run_one
from uvm_env.radix.cycle_model import CLOCK_MHZ, SGLANG_US, summarise

__all__ = ["CLOCK_MHZ", "SGLANG_US", "summarise"]   # regress.py and the tests use them here

# The v1 core (one token per cycle, table scans), as measured by this bench before v2
# replaced it; kept for the record, not re-run.
V1_CYCLES = {"match_576": 1470, "insert_anchor": 1176, "evict_per_token": 2.35}


BIG_NODE_CAP = 65536   # EVICT cost must not depend on NodeCap: measured at both sizes


def _bench_json(test: registry.SimTest, seed: int, out: str, ci: bool) -> dict:
    res = run_one(test, "verilator", seed, out_dir=BUILD_ROOT / "bench" / out, ci=ci)
    if not res.passed:
        raise RuntimeError(f"{test.name} ({out}) failed; replay: {res.replay()}")
    return json.loads((res.out_dir / "bench.json").read_text())


def run(seed: int = 1, ci: bool = False) -> dict:
    test = registry.TESTS["radix_bench"]
    data = _bench_json(test, seed, "radix", ci)
    out = summarise(data["records"], data["params"])
    out["stream"] = data.get("stream") or None
    big = dataclasses.replace(test, parameters={**test.parameters, "NodeCap": BIG_NODE_CAP})
    big_data = _bench_json(big, seed, "radix_64k", ci)
    out["evict_big"] = summarise(big_data["records"], big_data["params"]).get("evict")
    fan = _bench_json(registry.TESTS["radix_fanout"], seed, "radix_fanout", ci)
    out["fanout"] = fan
    return out


def walk_per_node(fan: dict, below: str) -> dict | None:
    """Cycles per extra node visited (the slope between the two chain depths) and the
    fixed cost of a walk, from radix_fanout's chains below `below`."""
    cyc, nodes = fan["walk_cycles"], fan["walk_nodes"]
    deep, shallow = f"chain {fan.get('chain')} below {below}", \
        f"chain {fan.get('shallow')} below {below}"
    if deep not in cyc or shallow not in cyc:
        return None
    slope = (cyc[deep] - cyc[shallow]) / (nodes[deep] - nodes[shallow])
    return {"slope": round(slope, 2), "fixed": round(cyc[deep] - slope * nodes[deep], 1)}


def in_flight_note(stream: dict) -> str:
    """'; commands in flight (IN_FLIGHT_HIST): share of the stream's busy cycles per bin'."""
    hist = stream.get("in_flight_hist")
    if not hist or not sum(hist):
        return ""
    names = ["1", "2", "3-4", "5-8", "9-16", "17-32", "33-64", ">64"]
    shares = [f"{names[b]}: {100 * v / sum(hist):.0f} %" for b, v in enumerate(hist) if v]
    return "; commands in flight at the ports (IN_FLIGHT_HIST), share of cycles: " + ", ".join(
        shares)


def table(s: dict) -> str:
    rows = ["| measurement | v2 cycles | µs @300 MHz (assumes timing closure) "
            "| SGLang 0.5.23 RadixCache (CPU) | v1 cycles (recorded) |", "|---|---|---|---|---|"]
    if "match_576" in s:
        m = s["match_576"]
        rows.append(f"| MATCH, 576 tokens matched | {m['cycles']} | {m['us']} | "
                    f"{m['sglang_us']} µs ({m['speedup']}x) | {V1_CYCLES['match_576']} |")
    if s.get("stream") and "match_576" in s:
        st = s["stream"]
        per = round(st["cycles"] / st["commands"], 1)
        rows.append(f"| MATCH stream: {st['commands']} x {st['tokens']} tokens back to back, "
                    f"cycles per command (one at a time: {s['match_576']['cycles']})"
                    f"{in_flight_note(st)} | {per} | {round(per / CLOCK_MHZ, 3)} | | |")
    if "insert_anchor" in s:
        i = s["insert_anchor"]
        rows.append(f"| INSERT, 576 tokens (mean over new and shared prompts) | "
                    f"{i['cycles']} | {i['us']} | {i['sglang_us']} µs ({i['speedup']}x) | "
                    f"{V1_CYCLES['insert_anchor']} |")
    if "evict" in s:
        e = s["evict"]
        rows.append(f"| EVICT, per freed token | {e['cycles_per_token']} | "
                    f"{e['us_for_32000_tokens']} for 32,000 tokens | "
                    f"{e['sglang_us_for_32000_tokens']} µs for 32,000 tokens | "
                    f"{V1_CYCLES['evict_per_token']} |")
        rows.append(f"| EVICT, per evicted node net of 1 cycle per 16 tokens "
                    f"({e['nodes']} nodes) | {e['cycles_per_node_net']} | | | NodeCap per node |")
    if "insert_new_576" in s:
        i = s["insert_new_576"]
        rows.append(f"| INSERT, new 576-token sequence (bound 200) | {i['cycles']} | {i['us']} | "
                    f"| |")
    if s.get("evict_big"):
        e = s["evict_big"]
        rows.append(f"| EVICT, per evicted node net, NodeCap {BIG_NODE_CAP} "
                    f"({e['nodes']} nodes) | {e['cycles_per_node_net']} | | | |")
    if s.get("edge_rate"):
        r = s["edge_rate"]
        rows.append(f"| compare rate on one long edge (1024 vs 512 tokens) | "
                    f"{r['tokens_per_cycle']} tokens/cycle | | | 1 token/cycle |")
    if s.get("fanout"):
        f = s["fanout"]
        for what, cyc in f["walk_cycles"].items():
            if what.startswith("chain"):
                continue
            nodes = f["walk_nodes"][what]
            kids = "1 child" if what == "one child" else f"{f['children']} children"
            rows.append(f"| walk to the {what} of a node with {kids} "
                        f"({nodes} nodes, whole walk) | {cyc} | | | sibling scan |")
        for below, kids in (("one child", "1 child"),
                            ("last child", f"{f['children']} children")):
            per = walk_per_node(f, below)
            if per is not None:
                rows.append(f"| walk, cost per node visited (bound 8): chains "
                            f"{f['shallow']} and {f['chain']} nodes deep below a node with "
                            f"{kids} | {per['slope']} | | | |")
        per = walk_per_node(f, "one child")
        if per is not None:
            rows.append(f"| walk, fixed cost (first lookup, last compare, drain) | "
                        f"{per['fixed']} | | | |")
    if "match_576" in s:
        m = s["match_576"]
        rows.append(f"\nWalk of a 576-token match: {m['walk_cycles']} cycles over "
                    f"{m['walk_nodes']} nodes = {m['tokens_per_walk_cycle']} tokens/cycle, "
                    f"{m['overhead_per_node']} cycles per node visited beyond 16 tokens per "
                    f"cycle.")
    rows.append("\n| matched length | MATCH commands | mean cycles |\n|---|---|---|")
    rows += [f"| {k} | {v['n']} | {v['cycles_mean']} |" for k, v in s["match_by_length"].items()]
    return "\n".join(rows)


if __name__ == "__main__":
    raise SystemExit(bench_common.main("radix_rtl", run, table))
