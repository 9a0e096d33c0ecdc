# SPDX-License-Identifier: Apache-2.0
"""Radix controller cycle counts from simulation (radix_bench), against SGLang.

Cycles are exact simulation counts. Microseconds assume the VCK5000 kernel clock
of 300 MHz and timing closure there, which nothing here has shown (no Vivado).
"""

from __future__ import annotations

import dataclasses
import json
import statistics
from pathlib import Path

from scripts import registry
from scripts.sim import BUILD_ROOT, run_one

CLOCK_MHZ = 300
# SGLang 0.5.23 RadixCache on a 2-core CPU (docs/radix-protocol.md, "Performance").
SGLANG_US = {"match_576": 23.0, "insert": 74.0, "evict_32000_tokens": 25_000.0}
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
    big = dataclasses.replace(test, parameters={**test.parameters, "NodeCap": BIG_NODE_CAP})
    big_data = _bench_json(big, seed, "radix_64k", ci)
    out["evict_big"] = summarise(big_data["records"], big_data["params"]).get("evict")
    fan = _bench_json(registry.TESTS["radix_fanout"], seed, "radix_fanout", ci)
    out["fanout"] = fan
    return out


def summarise(records: list[dict], params: dict) -> dict:
    def us(cycles: float) -> float:
        return round(cycles / CLOCK_MHZ, 3)

    anchor = [r for r in records if r["workload"] == "anchor"]
    m576 = [r for r in anchor if r["op"] == "MATCH" and r["result"] == 576]
    ins = [r for r in anchor if r["op"] == "INSERT"]
    ins_new = [r for r in ins if r["result"] == 0]
    rate = {r["tokens"]: r for r in records if r["workload"] == "edge_rate"}
    out: dict = {"clock_mhz": CLOCK_MHZ, "params": params,
                 "note": "cycles from Verilator simulation; us assume 300 MHz timing closure"}
    if m576:
        c = statistics.mean(r["cycles"] for r in m576)
        walk = statistics.mean(r["walk_cycles"] for r in m576)
        nodes = statistics.mean(r["walk_nodes"] for r in m576)
        out["match_576"] = {"n": len(m576), "cycles": round(c, 1), "us": us(c),
                            "sglang_us": SGLANG_US["match_576"],
                            "speedup": round(SGLANG_US["match_576"] / us(c), 2),
                            "walk_cycles": round(walk, 1), "walk_nodes": nodes,
                            "tokens_per_walk_cycle": round(576 / walk, 3),
                            "overhead_per_node": round((walk - 576 / 16) / nodes, 2)}
    if ins:
        c = statistics.mean(r["cycles"] for r in ins)
        out["insert_anchor"] = {"n": len(ins), "tokens": 576, "cycles": round(c, 1),
                                "us": us(c), "sglang_us": SGLANG_US["insert"],
                                "speedup": round(SGLANG_US["insert"] / us(c), 2)}
    if ins_new:
        c = statistics.mean(r["cycles"] for r in ins_new)
        out["insert_new_576"] = {"n": len(ins_new), "cycles": round(c, 1), "us": us(c)}
    if 1024 in rate and 512 in rate:
        dw = rate[1024]["walk_cycles"] - rate[512]["walk_cycles"]
        out["edge_rate"] = {"tokens_per_cycle": round(512 / dw, 2) if dw else None,
                            "walk_1024": rate[1024]["walk_cycles"],
                            "walk_512": rate[512]["walk_cycles"]}
    ev = [r for r in records if r["op"] == "EVICT" and r["result"] > 0]
    if ev:
        per_tok = sum(r["cycles"] for r in ev) / sum(r["result"] for r in ev)
        nodes = sum(r.get("nodes", 0) for r in ev)
        toks = sum(r["result"] for r in ev)
        cyc = sum(r["cycles"] for r in ev)
        out["evict"] = {"n": len(ev), "cycles_per_token": round(per_tok, 2),
                        "nodes": nodes, "tokens": toks,
                        "cycles_per_node_net":
                            round((cyc - toks / 16) / nodes, 2) if nodes else None,
                        "us_for_32000_tokens": us(per_tok * 32_000),
                        "sglang_us_for_32000_tokens": SGLANG_US["evict_32000_tokens"]}
    # MATCH cycles against matched length, on every workload.
    buckets: dict[str, list[int]] = {}
    for r in records:
        if r["op"] == "MATCH":
            lo = 0 if r["result"] == 0 else 1 << (r["result"].bit_length() - 1)
            buckets.setdefault(f"{lo}-{max(lo * 2 - 1, 0)}", []).append(r["cycles"])
    out["match_by_length"] = {k: {"n": len(v), "cycles_mean": round(statistics.mean(v), 1)}
                              for k, v in sorted(buckets.items(),
                                                 key=lambda kv: int(kv[0].split("-")[0]))}
    per_wl: dict[str, dict] = {}
    for wl in sorted({r["workload"] for r in records}):
        for op in ("MATCH", "INSERT"):
            rs = [r for r in records if r["workload"] == wl and r["op"] == op]
            if rs:
                per_wl.setdefault(wl, {})[op] = {
                    "n": len(rs), "cycles_mean": round(statistics.mean(r["cycles"] for r in rs), 1),
                    "tokens_mean": round(statistics.mean(r["tokens"] for r in rs), 1)}
    out["workloads"] = per_wl
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


def table(s: dict) -> str:
    rows = ["| measurement | v2 cycles | µs @300 MHz (assumes timing closure) "
            "| SGLang 0.5.23 RadixCache (CPU) | v1 cycles (recorded) |", "|---|---|---|---|---|"]
    if "match_576" in s:
        m = s["match_576"]
        rows.append(f"| MATCH, 576 tokens matched | {m['cycles']} | {m['us']} | "
                    f"{m['sglang_us']} µs ({m['speedup']}x) | {V1_CYCLES['match_576']} |")
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


def main() -> int:
    s = run()
    out = Path("build/bench/radix_rtl.json")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(s, indent=1))
    print(table(s))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
