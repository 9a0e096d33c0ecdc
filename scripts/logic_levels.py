# SPDX-License-Identifier: Apache-2.0
"""Longest combinational path, in logic levels, of a mapped Xilinx netlist.

Input is Yosys `write_json` output after `synth_xilinx -flatten`. Every
combinational cell on a path counts one level, the way Vivado's
`LOGIC_LEVELS` counts cells between two timing endpoints. Unit delay, no
wires: it ranks paths, it does not time them.

Why not `ltp -noff`: it only recognises Yosys' internal flip-flops, so after
mapping it runs straight through FDRE/RAMB cells and reports loops; and it
treats a LUTRAM's write port as combinational. Here the arcs are per port:

* LUT*, INV, MUXF*, CARRY*: every input to every output.
* LUTRAMs: only a read address reaches its own read port: ADDRx -> DOx
  (RAM32M/RAM64M families), A -> O/SPO and DPRA -> DPO (RAMnX1S/D). Data in,
  write enable and the write side of a shared address are clocked.
* SRL16E/SRLC16E/SRLC32E: address A* to Q; the cascade output Q15/Q31 is clocked.
* DSP48E*: combinational from every input to every output, and counted as
  one level, unless its output register is on (PREG = 1), when it starts and
  ends paths like a flip-flop. Paths are never hidden behind a DSP: one
  without PREG is walked through, however its input registers are set.
* Anything else (FD*, RAMB*, URAM288, ...) starts and ends paths.

Carry chains. Yosys (0.70) maps every adder and comparator to CARRY4, 4 bits
per cell, even for UltraScale+; the target's carry cell covers 8 bits (CARRY8
on UltraScale+, LOOKAHEAD8 on Versal) and Vivado counts it as one level. By
default (`carry8=True`) the second CARRY4 of each aligned pair along a chain
is therefore free when entered through its carry input (CI) from the first:
the pair is one CARRY8. Entering it through S or DI still costs a level, as
entering a CARRY8 half-way does. `carry8=False` counts every CARRY4 (the raw
Yosys netlist); the estimate reports both.

Endpoint groups. `analyse` gives the one worst path; `endpoint_levels` gives
the worst path into every group of endpoints, so work on the second-worst
register shows even while the worst is unchanged. A group is the endpoint
cell's type plus the register's net name without indices ("FDRE
u_core.state_q"); where Yosys named that net itself ($...), the net on the
input pin names it, and failing that `UNNAMED` does, so hundreds of URAM288
whose outputs only carry Yosys names end up on a few lines, not hundreds.
`group_paths` gives, for every group over a budget, the register its worst path
starts from and the cells on it; `python -m scripts.logic_levels NETLIST TOP`
prints that list.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

_ALL_ARCS = ("LUT", "INV", "MUXF", "CARRY")
_LUTRAM_MULTI = ("RAM32M", "RAM64M")
_LUTRAM = ("RAM32X", "RAM64X", "RAM128X", "RAM256X", "RAM512X")
_SRL = ("SRL16E", "SRLC16E", "SRLC32E")
_DSP = ("DSP48E",)
# DSP ports that are clocks, clock enables or resets, never data.
_DSP_CLOCKED = {"CLK"} | {f"CE{x}" for x in ("A1", "A2", "B1", "B2", "C", "D", "M", "P", "AD",
                                            "ALUMODE", "CARRYIN", "CTRL", "INMODE")} \
    | {f"RST{x}" for x in ("A", "B", "C", "D", "M", "P", "ALLCARRYIN", "ALUMODE", "CTRL",
                           "INMODE")}
# Endpoint group of sinks with no readable net name on either side.
UNNAMED = "(unnamed)"
# Bit and unpacked-array indices at the end of a net name: Yosys splits an array
# register into one net per element (`u_core.bp_q[0]`), which is still one register.
_INDICES = re.compile(r"(\[\d+\])+$")


@dataclass
class LevelReport:
    levels: int                          # combinational cells on the longest path
    path: list[str] = field(default_factory=list)   # cell types, start to end
    start: str = ""                      # net the path starts from
    end: str = ""                        # net it ends on
    loops: list[str] = field(default_factory=list)  # nets on combinational loops
    end_bit: int | None = None
    carry8: bool = True                  # CARRY4 pairs counted as one CARRY8


@dataclass
class BudgetSummary:
    budget: int                          # logic levels an endpoint may have
    over: int                            # endpoint groups with more
    worst: list[tuple[str, int]] = field(default_factory=list)  # (group, levels), worst first


@dataclass
class _Graph:
    """The combinational graph of one module, shared by every question asked of it."""

    driver: dict[int, tuple[str, list[int]]]   # bit -> (cell type, comb input bits)
    free: set[tuple[int, int]]           # (output bit, input bit) arcs that cost no level
    names: dict[int, str]                # bit -> "net[i]", readable names preferred
    nets: dict[int, str]                 # bit -> "net", same preference
    # Cells paths end on: (type, first output bit, input bits in port order).
    sinks: list[tuple[str, int | None, list[int]]]


def _param(params: dict, name: str) -> int:
    v = params.get(name, 0)
    return int(v, 2) if isinstance(v, str) and v and set(v) <= {"0", "1"} else int(v or 0)


def _arcs(cell_type: str, directions: dict[str, str],
          params: dict | None = None) -> list[tuple[list[str], list[str]]]:
    """Combinational arcs of one cell as (inputs, outputs) groups; [] if sequential."""
    ins = [p for p, d in directions.items() if d == "input"]
    outs = [p for p, d in directions.items() if d == "output"]
    if cell_type.startswith(_ALL_ARCS):
        return [(ins, outs)]
    if cell_type.startswith(_DSP):
        if _param(params or {}, "PREG"):
            return []
        data_in = [p for p in ins if p not in _DSP_CLOCKED]
        return [(data_in, outs)]
    if cell_type.startswith(_LUTRAM_MULTI):
        # RAM32M/RAM64M...: read port X is addressed by ADDRX alone.
        return [([p], [o for o in outs if o == "DO" + p[4:]]) for p in ins
                if p.startswith("ADDR")]
    if cell_type.startswith(_LUTRAM):
        spo = [o for o in outs if o in ("O", "SPO")]
        dpo = [o for o in outs if o == "DPO"]
        return [([p for p in ins if p.startswith("A")], spo),
                ([p for p in ins if p.startswith("DPRA")], dpo)]
    if cell_type.startswith(_SRL):
        return [([p for p in ins if p.startswith("A")], [o for o in outs if o == "Q"])]
    return []


def _carry_pairs(cells: dict) -> set[str]:
    """CARRY4 cells at odd positions of their chain (the upper half of a CARRY8)."""
    by_co3 = {c["connections"]["CO"][3]: n for n, c in cells.items()
              if c["type"] == "CARRY4" and len(c["connections"].get("CO", [])) == 4}
    pos: dict[str, int] = {}
    for name, cell in cells.items():
        if cell["type"] != "CARRY4" or name in pos:
            continue
        chain = [name]   # walk down to the chain's first cell, then number upwards
        while True:
            ci = cell["connections"].get("CI", [None])[0]
            prev = by_co3.get(ci)
            if prev is None or prev in pos or prev in chain:
                break
            chain.append(prev)
            cell = cells[prev]
        base = pos.get(prev, -1) + 1 if prev is not None and prev in pos else 0
        for i, n in enumerate(reversed(chain)):
            pos[n] = base + i
    return {n for n, p in pos.items() if p % 2 == 1}


def _graph(module: dict, carry8: bool) -> _Graph:
    upper = _carry_pairs(module.get("cells", {})) if carry8 else set()
    names: dict[int, str] = {}
    nets: dict[int, str] = {}
    for name, net in module.get("netnames", {}).items():
        for i, bit in enumerate(net["bits"]):
            if isinstance(bit, int) and (bit not in names or not name.startswith("$")):
                names[bit] = f"{name}[{i}]" if len(net["bits"]) > 1 else name
                nets[bit] = name
    driver: dict[int, tuple[str, list[int]]] = {}
    free: set[tuple[int, int]] = set()
    sinks: list[tuple[str, int | None, list[int]]] = []
    for cname, cell in module.get("cells", {}).items():
        conns, dirs = cell["connections"], cell.get("port_directions", {})
        arcs = _arcs(cell["type"], dirs, cell.get("parameters", {}))
        if cname in upper:
            ci = conns["CI"][0]
            free.update((b, ci) for p in ("O", "CO") for b in conns.get(p, [])
                        if isinstance(b, int))
        for ins, outs in arcs:
            in_bits = [b for p in ins for b in conns.get(p, []) if isinstance(b, int)]
            for p in outs:
                for b in conns.get(p, []):
                    if isinstance(b, int):
                        driver[b] = (cell["type"], in_bits)
        # LUTRAMs and SRLs are both: their read side is an arc, their write side a sink.
        if not arcs or cell["type"].startswith(_LUTRAM_MULTI + _LUTRAM + _SRL):
            out = next((b for p, d in dirs.items() if d == "output"
                        for b in conns.get(p, []) if isinstance(b, int)), None)
            sinks.append((cell["type"], out,
                          [b for p, d in dirs.items() if d == "input"
                           for b in conns.get(p, []) if isinstance(b, int)]))
    return _Graph(driver, free, names, nets, sinks)


def analyse(netlist: dict, top: str, carry8: bool = True) -> LevelReport:
    g = _graph(netlist["modules"][top], carry8)
    # Where a path may end, named after what it loads: "FDRE u_core.state_q[3]".
    sink: dict[int, str] = {}
    for kind, out, in_bits in g.sinks:
        label = f"{kind} {g.names.get(out, '?')}" if out is not None else kind
        for b in in_bits:
            sink.setdefault(b, label)
    report = _longest(g.driver, g.names, g.free)
    report.carry8 = carry8
    if report.end_bit is not None and report.end_bit in sink:
        report.end = f"{report.end} -> {sink[report.end_bit]}"
    return report


def endpoint_levels(netlist: dict, top: str, carry8: bool = True) -> dict[str, int]:
    """Worst logic levels into each endpoint group (see the module doc), e.g.
    {"FDRE u_core.state_q": 7, "URAM288 (unnamed)": 12}; 0 for groups reached
    straight from a register or port."""
    g = _graph(netlist["modules"][top], carry8)
    level, _, _ = _levels(g.driver, g.names, g.free)
    groups: dict[str, int] = {}
    for key, b in _sink_inputs(g):
        groups[key] = max(groups.get(key, 0), level.get(b, 0))
    return groups


def over_budget(levels: Mapping[str, int], budget: int, worst: int = 10) -> BudgetSummary:
    """How many endpoint groups exceed `budget` levels, and the `worst` deepest
    groups (over budget or not), deepest first, ties by name for stable output."""
    ranked = sorted(levels.items(), key=lambda kv: (-kv[1], kv[0]))
    return BudgetSummary(budget, sum(1 for v in levels.values() if v > budget), ranked[:worst])


@dataclass
class GroupPath:
    group: str                           # endpoint group, as endpoint_levels names it
    levels: int
    start: str                           # the net its worst path starts from
    cells: list[str] = field(default_factory=list)   # cell types on it, start to end


def group_paths(netlist: dict, top: str, budget: int, carry8: bool = True) -> list[GroupPath]:
    """The worst path into every endpoint group deeper than `budget`, deepest first:
    where it starts and which cells it crosses. Where the worst depth is reached on
    several inputs of a group, the first one found is shown."""
    g = _graph(netlist["modules"][top], carry8)
    level, via, _ = _levels(g.driver, g.names, g.free)
    best: dict[str, tuple[int, int]] = {}
    for key, b in _sink_inputs(g):
        lv = level.get(b, 0)
        if lv > budget and lv > best.get(key, (0, 0))[0]:
            best[key] = (lv, b)
    out: list[GroupPath] = []
    for key, (lv, end) in sorted(best.items(), key=lambda kv: (-kv[1][0], kv[0])):
        cells, start = _trace(end, g.driver, level, via, g.free)
        out.append(GroupPath(key, lv, g.names.get(start, str(start)), cells))
    return out


def _sink_inputs(g: _Graph) -> Iterable[tuple[str, int]]:
    """(endpoint group, input bit) for every input of every cell a path may end on."""
    for kind, out, in_bits in g.sinks:
        own = _group_name(g.nets.get(out)) if out is not None else None
        for b in in_bits:
            yield f"{kind} {own or _group_name(g.nets.get(b)) or UNNAMED}", b


def _trace(end: int, driver: dict[int, tuple[str, list[int]]], level: dict[int, int],
           via: dict[int, int | None], free: set[tuple[int, int]]) -> tuple[list[str], int]:
    """The cell types on the longest path into `end`, start to end, and its start bit."""
    cells: list[str] = []
    bit: int | None = end
    start = end
    seen: set[int] = set()   # a cut loop can make `via` circular
    while bit is not None and bit in driver and level.get(bit, 0) > 0 and bit not in seen:
        seen.add(bit)
        if via[bit] is None or (bit, via[bit]) not in free:
            cells.append(driver[bit][0])
        start = via[bit] if via[bit] is not None else bit
        bit = via[bit]
    cells.reverse()
    return cells, start


def main(argv: list[str] | None = None) -> int:
    """List the endpoint groups over a budget in a `write_json` netlist, with the
    register each worst path starts from: the view depth work starts from, e.g.
    `python -m scripts.logic_levels build/synth-estimate/vck5000/radix_top/netlist.json
    radix_top --match u_l1`."""
    import argparse
    ap = argparse.ArgumentParser(prog="python -m scripts.logic_levels", description=main.__doc__)
    ap.add_argument("netlist", type=Path)
    ap.add_argument("top")
    ap.add_argument("--budget", type=int, default=8, help="list groups deeper than this")
    ap.add_argument("--raw", action="store_true", help="count every CARRY4 (no CARRY8 pairs)")
    ap.add_argument("--match", default="", help="only groups whose name contains this")
    args = ap.parse_args(argv)
    found = [p for p in group_paths(json.loads(args.netlist.read_text()), args.top, args.budget,
                                    carry8=not args.raw) if args.match in p.group]
    for p in found:
        print(f"{p.levels} {p.group} <- {p.start}: {' '.join(p.cells)}")
    print(f"{len(found)} endpoint group(s) over {args.budget}"
          + (f" matching {args.match!r}" if args.match else ""))
    return 0


def _group_name(net: str | None) -> str | None:
    """The net's register name, or None when Yosys made the name up."""
    return None if net is None or net.startswith("$") else _INDICES.sub("", net)


def analyse_file(path: Path, top: str, carry8: bool = True) -> LevelReport:
    return analyse(json.loads(path.read_text()), top, carry8)


def _longest(driver: dict[int, tuple[str, list[int]]], names: dict[int, str],
             free: set[tuple[int, int]] = frozenset()) -> LevelReport:
    level, via, loops = _levels(driver, names, free)
    if not level:
        return LevelReport(levels=0, loops=loops)
    end = max(level, key=lambda b: level[b])
    path, start = _trace(end, driver, level, via, free)
    return LevelReport(levels=level[end], path=path, start=names.get(start, str(start)),
                       end=names.get(end, str(end)), loops=sorted(set(loops)), end_bit=end)


def _levels(driver: dict[int, tuple[str, list[int]]], names: dict[int, str],
            free: set[tuple[int, int]] = frozenset(),
            ) -> tuple[dict[int, int], dict[int, int | None], list[str]]:
    """Levels of every bit in one pass: (level, the input bit the longest path
    arrives on, nets cut to break combinational loops)."""
    level: dict[int, int] = {}
    via: dict[int, int | None] = {}      # the input bit the longest path arrives on
    loops: list[str] = []
    on_stack: set[int] = set()
    for root in driver:
        if root in level:
            continue
        # Iterative DFS: large netlists overflow Python's recursion limit.
        stack: list[tuple[int, Iterable[int]]] = [(root, iter(driver[root][1]))]
        on_stack.add(root)
        while stack:
            bit, pending = stack[-1]
            nxt = next((b for b in pending if b not in level), None)
            if nxt is not None:
                if nxt in on_stack:
                    loops.append(names.get(nxt, str(nxt)))
                    level[nxt] = 0       # cut the loop so the walk terminates
                    via[nxt] = None
                elif nxt in driver:
                    on_stack.add(nxt)
                    stack.append((nxt, iter(driver[nxt][1])))
                else:
                    level[nxt], via[nxt] = 0, None   # FF output, port or RAM output
                continue
            stack.pop()
            on_stack.discard(bit)
            best, best_in = 0, None
            for b in driver[bit][1]:
                cost = level.get(b, 0) + (0 if (bit, b) in free else 1)
                if cost >= best:
                    best, best_in = cost, b
            level[bit], via[bit] = max(best, 1), best_in
    return level, via, loops


if __name__ == "__main__":
    raise SystemExit(main())
