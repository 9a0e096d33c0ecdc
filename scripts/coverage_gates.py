# SPDX-License-Identifier: Apache-2.0
"""Coverage gates per core (issue 13, item 6), with the waiver file applied.

A core passes when, over the merged coverage of a regression (`make regress SEEDS=10` is
the sign-off run; any build/regress/ is evaluated): functional coverage of its
covergroups is 100 %, and line and branch coverage of its RTL (rtl/<block>/*.sv) are each
at least 95 %. A hole that docs/coverage_waivers.yml waives, with a reason, counts as
covered; a waiver that matches nothing is reported, so stale waivers do not pile up.

    python -m scripts.coverage_gates [--regress build/regress]

prints each gate and exits 1 if one is red; `make regress` and the dashboard show them.
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path

from scripts.registry import ROOT

WAIVERS = ROOT / "docs" / "coverage_waivers.yml"
BLOCKS = ("common", "radix", "fsm")
TARGETS = {"functional": 100.0, "line": 95.0, "branch": 95.0}


@dataclass(frozen=True)
class Waiver:
    kind: str      # functional | line | branch
    match: str     # functional: "<covergroup>.<point>: <bin>" glob; code: "<file>:<line>"
    reason: str
    reviewed: str = ""


@dataclass
class Gate:
    block: str
    kind: str
    hit: int
    size: int
    waived: int
    target: float
    holes: list[str] = field(default_factory=list)

    @property
    def pct(self) -> float | None:
        return round(100.0 * (self.hit + self.waived) / self.size, 1) if self.size else None

    @property
    def passed(self) -> bool:
        return self.pct is not None and self.pct >= self.target

    def row(self) -> dict:
        return {"block": self.block, "kind": self.kind, "pct": self.pct, "target": self.target,
                "hit": self.hit, "waived": self.waived, "size": self.size,
                "status": "pass" if self.passed else "fail", "holes": self.holes[:20],
                "n_holes": len(self.holes)}


def load_waivers(path: Path = WAIVERS) -> list[Waiver]:
    import yaml

    doc = yaml.safe_load(path.read_text()) if path.exists() else None
    out = []
    for w in (doc or {}).get("waivers") or []:
        if not str(w.get("reason", "")).strip():
            raise ValueError(f"{path.name}: waiver {w.get('match')} has no reason")
        if w.get("kind") not in TARGETS:
            raise ValueError(f"{path.name}: waiver {w.get('match')}: kind must be one of "
                             f"{', '.join(TARGETS)}")
        out.append(Waiver(w["kind"], str(w["match"]), str(w["reason"]).strip(),
                          str(w.get("reviewed", ""))))
    return out


def read_lcov(path: Path) -> dict[str, dict[str, dict[str, int]]]:
    """file -> {"line": {"<line>": hits}, "branch": {"<line>.<arm>": hits}}."""
    out: dict[str, dict[str, dict[str, int]]] = {}
    cur: dict[str, dict[str, int]] = {}
    for raw in path.read_text().splitlines() if path.exists() else []:
        if raw.startswith("SF:"):
            cur = out.setdefault(raw[3:], {"line": {}, "branch": {}})
        elif raw.startswith("DA:"):
            ln, hits = raw[3:].split(",")[:2]
            cur["line"][ln] = int(hits)
        elif raw.startswith("BRDA:"):
            ln, _blk, arm, taken = raw[5:].split(",")
            cur["branch"][f"{ln}.{arm}"] = 0 if taken == "-" else int(taken)
    return out


def evaluate(regress_root: Path, waivers: list[Waiver]) -> tuple[list[Gate], list[Waiver]]:
    """The gates of every block, and the waivers that matched nothing."""
    summary = regress_root / "summary.json"
    cov = json.loads(summary.read_text()).get("coverage", {}) if summary.exists() else {}
    lcov = read_lcov(regress_root / "coverage" / "coverage.info")
    used: set[int] = set()

    def waived(kind: str, name: str) -> bool:
        for i, w in enumerate(waivers):
            if w.kind == kind and fnmatch.fnmatchcase(name, w.match):
                used.add(i)
                return True
        return False

    gates = []
    for block in BLOCKS:
        g = Gate(block, "functional", 0, 0, 0, TARGETS["functional"])
        for gname, grp in (cov.get("functional") or {}).items():
            if gname.split(".")[1:2] != [block]:
                continue
            for pt in grp["points"]:
                g.size += pt["size"]
                g.hit += pt["hit"]
                for hole in pt["holes"]:
                    name = f"{gname}.{pt['name']}: {hole}"
                    if waived("functional", name):
                        g.waived += 1
                    else:
                        g.holes.append(name)
        gates.append(g)
        for kind in ("line", "branch"):
            g = Gate(block, kind, 0, 0, 0, TARGETS[kind])
            for file, kinds in sorted(lcov.items()):
                if not file.startswith(f"rtl/{block}/"):
                    continue
                for point, hits in kinds[kind].items():
                    g.size += 1
                    if hits:
                        g.hit += 1
                    elif waived(kind, f"{file}:{point.split('.')[0]}"):
                        g.waived += 1
                    else:
                        g.holes.append(f"{file}:{point}")
            gates.append(g)
    unused = [w for i, w in enumerate(waivers) if i not in used]
    return gates, unused


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--regress", type=Path, default=ROOT / "build" / "regress")
    args = ap.parse_args(argv)
    gates, unused = evaluate(args.regress, load_waivers())
    for g in gates:
        pct = "n/a" if g.pct is None else f"{g.pct:.1f}%"
        print(f"{'PASS' if g.passed else 'FAIL'} {g.block:<6} {g.kind:<10} {pct:>7} "
              f"(target {g.target:.0f}%; {g.hit} hit + {g.waived} waived of {g.size}; "
              f"{len(g.holes)} holes{', first: ' + g.holes[0] if g.holes else ''})")
    for w in unused:
        print(f"stale waiver ({w.kind}): {w.match}")
    return 0 if all(g.passed for g in gates) else 1


if __name__ == "__main__":
    sys.exit(main())
