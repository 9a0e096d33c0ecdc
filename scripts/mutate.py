# SPDX-License-Identifier: Apache-2.0
"""`make mutate [BLOCK=common|fsm|radix] [MUTANTS=n] [TESTS=a,b] [SEED=s]`: mutation score.

Operator and constant mutants (MUTATORS) are planted one at a time in a scratch copy of
the repository (build/mutate/<block>/work/, the tracked files of HEAD's working tree), never
in rtl/. A mutant that fails Verilator -Wall lint on any of the tests' tops is discarded
(it would not survive review, so it says nothing about the tests). The rest run the
block's test subset (DEFAULT_TESTS, CI sizes, Verilator, one seed): a failing or hanging
test kills the mutant. A mutant of a file with a formal proof (FILE_PROOFS) that passes
the tests then runs that proof on the scratch copy: a counterexample (a prove or bmc task
that FAILs) kills it; an induction step that fails without one does not, since it may
start from an unreachable state. One that passes them all is live. Sites are drawn at random (SEED)
from every mutable token of the block's RTL outside assertion and formal code.

build/mutate/<block>/report.json holds killed / live / discarded, the score
(killed / (killed + live)) and each survivor's diff; `make dashboard` shows the scores.
`--patch file.diff` runs the same tests on the scratch copy with one patch applied
instead (a planted bug, checked without touching rtl/). `--recheck` runs the survivors of
the last report again (after new checks were added) and updates it. A survivor listed
in docs/mutation_equivalents.yml (file, line, op, reason) is counted as equivalent, not
live, and left out of the score.
"""

from __future__ import annotations

import argparse
import difflib
import json
import os
import random
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "build" / "mutate"

# The block's small, fast tests: every one must pass on the unmutated RTL.
DEFAULT_TESTS = {
    "common": ("fifo_random", "skid_random", "ram_random", "ram_random_lat3",
               "seg_counter_random"),
    "fsm": ("fsm_errors", "fsm_csr_suite", "fsm_random_regex", "fsm_rand_reset"),
    "radix": ("radix_errors", "radix_csr_suite", "radix_random", "radix_rand_reset"),
}
# Tests per file: one module with one test of its own, or one whose code depends on a
# parameter the block's main build fixes (the mask engine's pieces need MaskW < LoadW:
# fsm_random_regex_pieces), or on a grammar size (fsm_core reads the info bitmaps past
# their first word only for states >= 512: fsm_jump_forward's deep grammar forces tokens
# there, and fsm_json, run last as it is the slowest, accepts there), or on a parameter
# the default tests leave off: the walk/commit overlap (Overlap = 1) is the only user of
# the read signature and of the conflict logic in radix_core, which
# radix_concurrent_overlap drives (the signature's own tests first: they compare it bit
# for bit with the model's hashes, which the core's answers do not depend on), or the
# RAM read latency (the board's RamLat 3 times the line streamer's link bypass
# differently: radix_long_edges_lat3); radix_core's room check for the child index's
# stash is reached only by radix_capacity, which fills buckets on purpose, and its L2 glue
# only by an L2 build (radix_l2_random). The L1 cache is in no on-chip build: its own
# tests (each geometry: sets and ways, token lines, the prefetch buffer, the stress
# build's 1-150-cycle DDR, the AXI faults), then the core on L2. The AXI arbiter is in
# every build but carries traffic only on L2: the core on L2 with random traffic, with
# write-backs of a flush, and with faults routed back to the table that asked. The free
# lists are emptied on purpose by radix_capacity, and keep their stacks in DDR on L2;
# radix_capacity also fills the child index's buckets and stash, and the index's wait
# for its bucket row lasts more than one cycle only on a RamLat 3 build
# (radix_long_edges_lat3). A table's port is on chip in the default builds and an L1
# cache's only on L2, and its read pipeline is deeper than 2 only at RamLat 3.
FILE_TESTS = {"common_seg_counter.sv": ("seg_counter_random", "seg_counter_random_sub"),
              "fsm_mask_engine.sv": ("fsm_random_regex_pieces", "fsm_errors", "fsm_random_regex"),
              "fsm_core.sv": DEFAULT_TESTS["fsm"] + ("fsm_jump_forward", "fsm_json"),
              "radix_core.sv": DEFAULT_TESTS["radix"] + ("radix_capacity",
                                                         "radix_long_edges_lat3",
                                                         "radix_l2_random",
                                                         "radix_concurrent_overlap"),
              "radix_l1_cache.sv": ("l1_cache_random", "l1_cache_random_lines",
                                    "l1_cache_random_prefetch",
                                    "l1_cache_random_prefetch_deep", "l1_cache_random_stress",
                                    "l1_cache_faults", "radix_l2_random"),
              "radix_axi_arb.sv": ("radix_l2_random", "radix_l2_flush", "radix_l2_faults"),
              "radix_table.sv": DEFAULT_TESTS["radix"] + ("radix_l2_random",
                                                          "radix_long_edges_lat3"),
              "radix_child_index.sv": DEFAULT_TESTS["radix"] + ("radix_capacity",
                                                                "radix_long_edges_lat3"),
              "radix_free_stack.sv": DEFAULT_TESTS["radix"] + ("radix_capacity",
                                                               "radix_l2_random"),
              "radix_read_sig.sv": ("read_sig_random", "read_sig_random_small",
                                    "radix_concurrent_overlap")}
# Formal proofs (rtl/<blk>/formal/<stem>.sby) that check a file's own behaviour, run on
# the mutants of that file that pass the tests: what no simulation reaches (a full W
# queue, a refill's duration) they see. Only proofs of a few minutes at most: the mask
# engine's bounded check takes about 11.
FILE_PROOFS = {"common_fifo_sync.sv": ("common_fifo_sync",),
               "common_skid_buffer.sv": ("common_skid_buffer",),
               "fsm_csr.sv": ("fsm_csr",),
               "radix_axi_arb.sv": ("radix_axi_arb",),
               "radix_csr.sv": ("radix_csr",),
               "radix_free_stack.sv": ("radix_free_stack",),
               "radix_read_sig.sv": ("radix_read_sig",)}
# Survivors judged equivalent (no test can tell them apart), each with its reason.
EQUIVALENTS = ROOT / "docs" / "mutation_equivalents.yml"
# Checkers and packages are not the design under test.
SKIP_FILES = ("common_axis_checker.sv", "common_macros.svh", "radix_pkg.sv", "fsm_pkg.sv")

# (name, pattern, replacement): operator swaps and constant flips on one token.
MUTATORS: tuple[tuple[str, str, str], ...] = (
    ("eq->ne", r"==", "!="),
    ("ne->eq", r"!=", "=="),
    ("lt->le", r"(?<![<=!>])<(?![<=])", "<="),
    ("gt->ge", r"(?<![->=])>(?![>=])", ">="),
    ("ge->gt", r">=", ">"),
    ("and->or", r"&&", "||"),
    ("or->and", r"\|\|", "&&"),
    ("add->sub", r"(?<=\w|\)) \+ (?=\w|\()", " - "),
    ("sub->add", r"(?<=\w|\)) - (?=\w|\()", " + "),
    ("1'b1->1'b0", r"1'b1", "1'b0"),
    ("1'b0->1'b1", r"1'b0", "1'b1"),
    ("not-dropped", r"!(?=[a-z_(])", ""),
)
# Lines that are declarations, not logic: a mutant there is a width or lint change.
_DECL = re.compile(r"^\s*(//|\*|/\*|`|localparam|parameter|input|output|import|module|"
                   r"function|typedef|logic\s*(\[[^\]]*\])?\s*\w+\s*(\[[^\]]*\])?\s*;)")
_ASSERT_BLOCK = re.compile(r"`ifn?def\s+\w*(ASSERT|FORMAL|SIM)\w*")


@dataclass(frozen=True)
class Mutant:
    file: str          # path relative to the repository
    line: int          # 1-based
    col: int           # 0-based offset of the token in the line
    op: str
    before: str
    after: str

    def apply(self, text: str) -> str:
        lines = text.split("\n")
        src = lines[self.line - 1]
        lines[self.line - 1] = src[:self.col] + self.after + src[self.col + len(self.before):]
        return "\n".join(lines)

    def diff(self, text: str) -> str:
        return "".join(difflib.unified_diff(
            text.splitlines(keepends=True), self.apply(text).splitlines(keepends=True),
            f"a/{self.file}", f"b/{self.file}", n=1))


def rtl_files(block: str, root: Path = ROOT) -> list[Path]:
    return sorted(p for p in (root / "rtl" / block).glob("*.sv") if p.name not in SKIP_FILES)


def sites(path: Path, root: Path = ROOT) -> list[Mutant]:
    """Every mutable token of one file, outside comments, declarations and assertion or
    formal `ifdef` blocks."""
    out: list[Mutant] = []
    depth_skip = 0
    depth = 0
    rel = path.relative_to(root).as_posix()
    for n, raw in enumerate(path.read_text().split("\n"), start=1):
        code = raw.split("//")[0]
        stripped = code.strip()
        if stripped.startswith(("`ifdef", "`ifndef")):
            depth += 1
            if _ASSERT_BLOCK.match(stripped) and not depth_skip:
                depth_skip = depth
            continue
        if stripped.startswith("`endif"):
            if depth_skip == depth:
                depth_skip = 0
            depth -= 1
            continue
        # A string literal marks a parameter check or a RamStyle branch: elaboration-time
        # choices the build's parameters fix, not logic.
        if depth_skip or not stripped or _DECL.match(code) or "$" in code or \
                "assert" in code or '"' in code or "PARAM_CHECK" in code:
            continue
        # The NBA arrow is not a comparison: mask it out before matching operators.
        masked = re.sub(r"<=", "\0\0", code, count=1) if re.search(r"\w\s*(\[[^\]]*\])?\s*<=",
                                                                    code) else code
        for name, pat, rep in MUTATORS:
            for m in re.finditer(pat, masked):
                if name in ("lt->le", "gt->ge", "ge->gt") and "#(" in code:
                    continue
                out.append(Mutant(rel, n, m.start(), name, m.group(0), rep))
    return out


def choose(block: str, count: int, seed: int, files: Sequence[str] = ()) -> list[Mutant]:
    """`count` sites drawn at random from the block's RTL, or from the named files of
    it (`files`, e.g. ("radix_read_sig.sv",)) when given."""
    chosen = [f for f in rtl_files(block) if not files or f.name in files]
    missing = set(files) - {f.name for f in chosen}
    if missing:
        raise SystemExit(f"not RTL of block {block}: {sorted(missing)}")
    everything = [m for f in chosen for m in sites(f)]
    rng = random.Random(seed)
    return sorted(rng.sample(everything, min(count, len(everything))),
                  key=lambda m: (m.file, m.line, m.col))


# ---------------------------------------------------------------- scratch copy
def make_scratch(block: str, name: str = "work") -> Path:
    """A copy of the repository's tracked files as they are in the working tree."""
    work = OUT / block / name
    files = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"],
                           cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    for rel in files:
        src, dst = ROOT / rel, work / rel
        if not src.is_file():
            continue
        dst.parent.mkdir(parents=True, exist_ok=True)
        if not dst.exists() or dst.read_bytes() != src.read_bytes():
            shutil.copyfile(src, dst)
    return work


def run_worker(work: Path, tests: list[str], seed: int, timeout_s: float,
               lint: bool = True) -> dict:
    """Lint and run the tests inside the scratch copy (its own ROOT and build/)."""
    cmd = [sys.executable, "-m", "scripts.mutate", "--worker", "--tests", ",".join(tests),
           "--seed", str(seed), *([] if lint else ["--no-lint"])]
    env = {**os.environ, "PYTHONPATH": str(work)}
    try:
        proc = subprocess.run(cmd, cwd=work, env=env, capture_output=True, text=True,
                              timeout=timeout_s)
    except subprocess.TimeoutExpired:
        return {"lint_ok": True, "failed": ["(timeout: the simulation hung)"]}
    for line in reversed(proc.stdout.splitlines()):
        if line.startswith("{"):
            return json.loads(line)
    return {"lint_ok": True, "failed": [f"(worker crashed: {proc.stderr[-300:]})"]}


def proof_kill(work: Path, file: str) -> str | None:
    """Run the file's proofs (FILE_PROOFS) on the scratch copy; "formal/<stem>: ..." for
    the first that finds a counterexample, else None."""
    from scripts import formal

    for stem in FILE_PROOFS.get(Path(file).name, ()):
        sby = next((work / "rtl").glob(f"*/formal/{stem}.sby"))
        res = formal.run_proof(sby, formal.tool_env(), workroot=work / "build" / "formal")
        cex = [d for d in res.detail if d.startswith(("prove", "bmc")) and "FAIL" in d]
        if cex:
            return f"formal/{stem}: {cex[0][:160]}"
    return None


def judge(work: Path, m: Mutant, tests: list[str], seed: int, timeout_s: float) -> dict:
    """Plant `m` in the scratch copy, run the tests and then the file's proofs, restore."""
    pristine = (ROOT / m.file).read_text()
    target = work / m.file
    target.write_text(m.apply(pristine))
    try:
        res = run_worker(work, tests, seed, timeout_s)
        if res["lint_ok"] and not res["failed"]:
            kill = proof_kill(work, m.file)
            res["failed"] = [kill] if kill else []
    finally:
        target.write_text(pristine)
    return res


def worker(tests: list[str], seed: int, check_lint: bool) -> int:
    """In the scratch copy: lint each distinct top, then run the tests until one fails."""
    from scripts import lint, registry
    from scripts.sim import run_one

    chosen = [registry.TESTS[t] for t in tests]
    for key in {t.config_key(): t for t in chosen}.values() if check_lint else ():
        ok, _ = lint.verilator_lint(key)
        if not ok:
            print(json.dumps({"lint_ok": False, "failed": []}))
            return 0
    failed = []
    for t in chosen:
        res = run_one(t, "verilator", seed, out_dir=registry.ROOT / "build" / "mutate_run" / t.name,
                     ci=True)
        if not res.passed:
            failed.append(f"{t.name}: {(res.errors or ['failed'])[0][:200]}")
            break
    print(json.dumps({"lint_ok": True, "failed": failed}))
    return 0


def resolve_line(file: str, line: int, text: str, root: Path = ROOT) -> int:
    """The line of `file` that reads `text` (stripped), nearest to `line` when several
    do: an entry follows its source line as edits above it move it."""
    lines = (root / file).read_text().split("\n")
    hits = [n for n, raw in enumerate(lines, start=1) if raw.strip() == text.strip()]
    if not hits:
        raise ValueError(f"{file}: no line reads {text.strip()!r} (was line {line})")
    return min(hits, key=lambda n: abs(n - line))


def load_equivalents(path: Path = EQUIVALENTS,
                     root: Path = ROOT) -> dict[tuple[str, int, str], str]:
    """(file, line, op) -> reason, with each line found again from its text."""
    import yaml

    doc = yaml.safe_load(path.read_text()) if path.exists() else None
    out = {}
    for e in (doc or {}).get("equivalent") or []:
        where = f"{path.name}: {e.get('file')}:{e.get('line')}"
        if not str(e.get("reason", "")).strip():
            raise ValueError(f"{where} has no reason")
        if not str(e.get("text", "")).strip():
            raise ValueError(f"{where} has no text (the source line it names)")
        line = resolve_line(e["file"], int(e["line"]), str(e["text"]), root)
        out[(e["file"], line, e["op"])] = str(e["reason"]).strip()
    return out


def score(report: dict) -> dict:
    """Split survivors into live and equivalent, and score killed / (killed + live)."""
    eq = load_equivalents()
    survivors = report.pop("survivors", []) + report.pop("equivalent", [])
    report["survivors"] = [s for s in survivors if (s["file"], s["line"], s["op"]) not in eq]
    report["equivalent"] = [{**s, "reason": eq[(s["file"], s["line"], s["op"])]}
                            for s in survivors if (s["file"], s["line"], s["op"]) in eq]
    report["live"] = len(report["survivors"])
    judged = report["killed"] + report["live"]
    report["score"] = round(100.0 * report["killed"] / judged, 1) if judged else None
    return report


def _baseline(work: Path, tests: Sequence[str], files: Sequence[str], seed: int,
              timeout_s: float) -> None:
    """The unmutated copy must pass every test a mutant in `files` may run, the per-file
    ones too: a test that fails anyway would "kill" every mutant it runs on."""
    wanted = list(dict.fromkeys(
        [*tests, *(t for f in files for t in FILE_TESTS.get(Path(f).name, ()))]))
    base = run_worker(work, wanted, seed, timeout_s)
    if base["failed"] or not base["lint_ok"]:
        raise SystemExit(f"the unmutated RTL does not pass: {base}")
    for f in dict.fromkeys(files):
        kill = proof_kill(work, f)
        if kill:
            raise SystemExit(f"the unmutated RTL fails a proof: {kill}")


def recheck(block: str, seed: int, timeout_s: float) -> dict:
    """The last report's survivors against the block's current tests (tests only gain
    checks, so the mutants they killed before stay killed), and any it counted equivalent
    that docs/mutation_equivalents.yml no longer lists."""
    path = OUT / block / "report.json"
    report = json.loads(path.read_text())
    eq = load_equivalents()
    dropped = [e for e in report.get("equivalent", []) if (e["file"], e["line"], e["op"]) not in eq]
    report["equivalent"] = [e for e in report.get("equivalent", []) if e not in dropped]
    report["survivors"] += [{k: v for k, v in e.items() if k != "reason"} for e in dropped]
    work = make_scratch(block)
    _baseline(work, DEFAULT_TESTS[block], [s["file"] for s in report["survivors"]],
              report["seed"], timeout_s)
    still = []
    for s in report["survivors"]:
        m = Mutant(s["file"], s["line"], s["col"], s["op"], s["before"], s["after"])
        res = judge(work, m, list(FILE_TESTS.get(Path(m.file).name, DEFAULT_TESTS[block])),
                    report["seed"], timeout_s)
        if not res["lint_ok"]:    # a new test's configuration elaborates it: lint sees it
            report["discarded_lint"] += 1
            print(f"{m.file}:{m.line} {m.op}: now discarded (lint)")
        elif res["failed"]:
            report["killed"] += 1
            test = res["failed"][0].split(":")[0]
            report["killed_by"][test] = report["killed_by"].get(test, 0) + 1
            print(f"{m.file}:{m.line} {m.op}: now killed by {res['failed'][0][:100]}")
        else:
            still.append(s)
            print(f"{m.file}:{m.line} {m.op}: still live")
    report["survivors"] = still
    report["rechecked_at"] = commit()
    report["tests"] = list(DEFAULT_TESTS[block])
    return score(report)


# ---------------------------------------------------------------- driver
def commit() -> str:
    proc = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT,
                          capture_output=True, text=True)
    dirty = subprocess.run(["git", "status", "--porcelain", "rtl"], cwd=ROOT,
                           capture_output=True, text=True).stdout.strip()
    return proc.stdout.strip() + ("+dirty-rtl" if dirty else "")


def run_mutants(block: str, count: int, tests: list[str], seed: int,
                timeout_s: float, files: Sequence[str] = ()) -> dict:
    work = make_scratch(block)
    started = time.monotonic()
    mutants = choose(block, count, seed, files)
    _baseline(work, tests, [m.file for m in mutants], seed, timeout_s)
    report: dict = {"block": block, "commit": commit(), "tests": tests, "seed": seed,
                    "files": list(files), "planted": 0, "discarded_lint": 0, "killed": 0,
                    "live": 0, "survivors": [], "killed_by": {}}
    for k, m in enumerate(mutants):
        pristine = (ROOT / m.file).read_text()
        res = judge(work, m, list(FILE_TESTS.get(Path(m.file).name, tests)), seed, timeout_s)
        report["planted"] += 1
        where = f"{m.file}:{m.line} {m.op}"
        if not res["lint_ok"]:
            report["discarded_lint"] += 1
            verdict = "discarded (lint)"
        elif res["failed"]:
            report["killed"] += 1
            test = res["failed"][0].split(":")[0]
            report["killed_by"][test] = report["killed_by"].get(test, 0) + 1
            verdict = f"killed by {res['failed'][0][:120]}"
        else:
            report["live"] += 1
            report["survivors"].append({**asdict(m), "diff": m.diff(pristine)})
            verdict = "LIVE"
        print(f"[{k + 1}/{count}] {where}: {verdict}", flush=True)
    report["wall_s"] = round(time.monotonic() - started)
    return score(report)


def run_patch(block: str, patch: Path, tests: list[str], seed: int, timeout_s: float) -> int:
    work = make_scratch(block, "patched")
    subprocess.run(["git", "apply", str(patch.resolve())], cwd=work,
                   check=True)
    try:
        # A planted bug is judged by the tests alone: lint may well flag it too.
        res = run_worker(work, tests, seed, timeout_s, lint=False)
    finally:
        subprocess.run(["git", "apply", "-R", str(patch.resolve())], cwd=work, check=True)
    print(json.dumps(res))
    print("caught" if res["failed"] else "NOT caught")
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--block", default="fsm", choices=sorted(DEFAULT_TESTS))
    ap.add_argument("--mutants", type=int, default=20)
    ap.add_argument("--tests", default="")
    ap.add_argument("--files", default="",
                    help="draw sites only from these RTL files of the block (comma-separated)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=600.0, help="seconds per mutant")
    ap.add_argument("--patch", type=Path, default=None)
    ap.add_argument("--recheck", action="store_true",
                    help="run the last report's survivors again and update it")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--no-lint", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    tests = [t for t in args.tests.split(",") if t] or list(DEFAULT_TESTS[args.block])
    if args.worker:
        return worker(tests, args.seed, not args.no_lint)
    if args.patch is not None:
        return run_patch(args.block, args.patch, tests, args.seed, args.timeout)
    if args.recheck:
        report = recheck(args.block, args.seed, args.timeout)
    else:
        report = run_mutants(args.block, args.mutants, tests, args.seed, args.timeout,
                             [f for f in args.files.split(",") if f])
    out = OUT / args.block / "report.json"
    out.write_text(json.dumps(report, indent=1))
    print(f"{args.block}: {report['killed']} killed, {report['live']} live, "
          f"{len(report['equivalent'])} equivalent, {report['discarded_lint']} discarded by "
          f"lint; score {report['score']}% ({out.relative_to(ROOT)})")
    for s in report["survivors"]:
        print(s["diff"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
