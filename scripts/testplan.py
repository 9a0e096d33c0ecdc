# SPDX-License-Identifier: Apache-2.0
"""The testplan (docs/testplan.yml): loader and its consistency check against the registry.

`python -m scripts.testplan` prints the plan by stage and exits 1 when the plan and the
registry disagree. Planned tests may be missing from the registry; nothing else may.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from scripts import registry
from scripts.registry import ROOT

PLAN_PATH = ROOT / "docs" / "testplan.yml"
STAGES = ("V1", "V2", "V3")


@dataclass(frozen=True)
class Testpoint:
    name: str
    stage: str
    desc: str
    feature: str
    block: str
    tests: tuple[str, ...] = ()
    planned: tuple[str, ...] = ()


@dataclass(frozen=True)
class Testplan:
    name: str
    stages: Mapping[str, str]
    testpoints: tuple[Testpoint, ...]
    covergroups: Mapping[str, str] = field(default_factory=dict)
    features: Mapping[str, str] = field(default_factory=dict)

    def sim_tests(self) -> set[str]:
        return {t for tp in self.testpoints for t in tp.tests
                if not is_pytest(t) and not is_proof(t)}

    def planned_tests(self) -> set[str]:
        return {t for tp in self.testpoints for t in tp.planned}


@dataclass
class CheckReport:
    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.errors


def is_proof(test: str) -> bool:
    """Formal entries name a SymbiYosys file (rtl/<blk>/formal/<name>.sby)."""
    return test.endswith(".sby")


def is_pytest(test: str) -> bool:
    """Pytest entries are paths or node ids; simulation tests are bare registry names."""
    return not is_proof(test) and ("/" in test or test.endswith(".py"))


def load(path: Path = PLAN_PATH) -> Testplan:
    raw = yaml.safe_load(path.read_text())
    points: list[Testpoint] = []
    features: dict[str, str] = {}
    for feat in raw.get("features", []):
        features[feat["name"]] = feat.get("desc", "")
        for tp in feat.get("testpoints", []):
            points.append(Testpoint(
                name=tp["name"], stage=str(tp.get("stage", "")), desc=tp.get("desc", ""),
                feature=feat["name"], block=feat.get("block", ""),
                tests=tuple(tp.get("tests") or ()), planned=tuple(tp.get("planned") or ()),
            ))
    return Testplan(
        name=raw.get("name", ""),
        stages=dict(raw.get("stages", {})),
        testpoints=tuple(points),
        covergroups={cg["name"]: cg.get("desc", "") for cg in raw.get("covergroups", [])},
        features=features,
    )


def check(plan: Testplan, sim_tests: Mapping[str, object] | None = None,
          root: Path = ROOT) -> CheckReport:
    """Every referenced test exists, every registered test is referenced."""
    registered = set(registry.TESTS if sim_tests is None else sim_tests)
    rep = CheckReport()
    seen: set[str] = set()
    for tp in plan.testpoints:
        where = f"testpoint {tp.feature}/{tp.name}"
        if tp.name in seen:
            rep.errors.append(f"{where}: duplicate testpoint name")
        seen.add(tp.name)
        if tp.stage not in STAGES:
            rep.errors.append(f"{where}: stage '{tp.stage}' is not one of {', '.join(STAGES)}")
        if not tp.tests and not tp.planned:
            rep.errors.append(f"{where}: no tests and nothing planned")
        for test in tp.tests:
            if is_proof(test):
                if not (root / test).is_file():
                    rep.errors.append(f"{where}: proof '{test}' does not exist")
            elif is_pytest(test):
                problem = _pytest_problem(test, root)
                if problem:
                    rep.errors.append(f"{where}: {problem}")
            elif test not in registered:
                rep.errors.append(f"{where}: test '{test}' is not in scripts/registry.py "
                                  "(register it, or list it under planned:)")
        for test in tp.planned:
            if test in registered:
                rep.warnings.append(f"{where}: planned test '{test}' is now registered; "
                                    "move it from planned: to tests:")
    referenced = plan.sim_tests() | plan.planned_tests()
    for name in sorted(registered - referenced):
        rep.errors.append(f"registered test '{name}' is in no testpoint of {PLAN_PATH.name}")
    covered = {t.split("::")[0] for tp in plan.testpoints for t in tp.tests if is_pytest(t)}
    for path in sorted((root / "tests" / "models").glob("test_*.py")):
        rel = path.relative_to(root).as_posix()
        if rel not in covered:
            rep.warnings.append(f"{rel} is in no testpoint")
    return rep


def _pytest_problem(test: str, root: Path) -> str | None:
    path, _, func = test.partition("::")
    file = root / path
    if not file.is_file():
        return f"pytest file '{path}' does not exist"
    if func:
        tree = ast.parse(file.read_text())
        names = {n.name for n in ast.walk(tree)
                 if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)}
        if func.split("::")[0].split("[")[0] not in names:
            return f"'{func}' is not defined in {path}"
    return None


def main(argv: list[str] | None = None) -> int:
    plan = load()
    for stage in STAGES:
        points = [tp for tp in plan.testpoints if tp.stage == stage]
        print(f"{stage}: {len(points)} testpoints ({plan.stages.get(stage, '')})")
        for tp in points:
            tests = ", ".join(tp.tests) + (f" [planned: {', '.join(tp.planned)}]"
                                           if tp.planned else "")
            print(f"  {tp.feature}/{tp.name}: {tests}")
    rep = check(plan)
    for w in rep.warnings:
        print(f"warning: {w}")
    for e in rep.errors:
        print(f"error: {e}")
    print("testplan consistent with the registry" if rep.ok
          else f"{len(rep.errors)} testplan errors")
    return 0 if rep.ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
