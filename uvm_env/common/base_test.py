# SPDX-License-Identifier: Apache-2.0
"""BaseTest: clock, reset, seed, timeout, and the end-of-test verdict."""

from __future__ import annotations

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, RisingEdge, with_timeout
from cocotb.utils import get_sim_time
from pyuvm import ConfigDB, uvm_env, uvm_root, uvm_test

from uvm_env.common.config import BenchConfig, env_int
from uvm_env.common.coverage import coverage_holes, coverage_summary, export_coverage
from uvm_env.common.run_summary import RunSummary
from uvm_env.common.scoreboard_base import ScoreboardBase


def replay_seed() -> int:
    """The seed the user passes as SEED=; cocotb derives a per-test value from it."""
    return env_int("COCOTB_RANDOM_SEED", cocotb.RANDOM_SEED)


class BaseTest(uvm_test):
    """Subclasses provide make_env() and an async body(); the rest is shared.

    The verdict is given in check_phase, where an AssertionError fails the
    cocotb test: logger.error alone would not (pyuvm 5).
    """

    clock_port = "clk_i"
    reset_port: str | None = "rst_ni"   # active low, synchronous; None if the DUT has none
    coverage_prefix: str | None = None   # cover points that must have no holes
    require_full_coverage = False

    def make_config(self) -> BenchConfig:
        n_items = env_int("N_ITEMS", 1000)
        # Generous for the work asked (100 cycles per item), small enough that a
        # hang is reported in seconds rather than minutes.
        return BenchConfig(seed=replay_seed(), n_items=n_items,
                           timeout_us=max(1_000, n_items * 100 * 10 // 1_000))

    def make_env(self) -> uvm_env:
        raise NotImplementedError

    async def body(self) -> None:
        raise NotImplementedError

    # ---- phases --------------------------------------------------------
    def build_phase(self) -> None:
        self.dut = cocotb.top
        self.cfg = self.make_config()
        # A test's own key numbers for run_summary.json (e.g. the radix CSR read-back).
        self.figures: dict[str, object] = {}
        ConfigDB().set(None, "*", "cfg", self.cfg)
        self.clock = getattr(self.dut, self.clock_port)
        self.reset = getattr(self.dut, self.reset_port) if self.reset_port else None
        self.env = self.make_env()

    async def run_phase(self) -> None:
        self.raise_objection()
        self.logger.info(f"seed {self.cfg.seed}; replay with SEED={self.cfg.seed}")
        cocotb.start_soon(Clock(self.clock, self.cfg.clk_period_ns, unit="ns").start())
        await self.apply_reset()
        try:
            await with_timeout(self.body(), self.cfg.timeout_us, "us")
        except cocotb.triggers.SimTimeoutError:
            self.timed_out = True
            self.logger.error(f"timeout after {self.cfg.timeout_us} us: the DUT hung "
                              "or the test waited for something that never came")
        self.drop_objection()

    async def apply_reset(self) -> None:
        if self.reset is None:
            await ClockCycles(self.clock, self.cfg.reset_cycles)
            return
        self.reset.value = 0
        await ClockCycles(self.clock, self.cfg.reset_cycles)
        self.reset.value = 1
        await RisingEdge(self.clock)

    def check_phase(self) -> None:
        problems = []
        if getattr(self, "timed_out", False):
            problems.append(f"timed out after {self.cfg.timeout_us} us")
        boards = [c for c in uvm_root().find_all("*") if isinstance(c, ScoreboardBase)]
        if not boards:
            problems.append("no scoreboard in this bench")
        summary = RunSummary(self.cfg.seed, get_sim_time("ns"), self.cfg.clk_period_ns,
                             figures=getattr(self, "figures", {}))
        for sb in boards:
            self.logger.info(f"{sb.get_full_name()}: {sb.n_checked} checked, "
                             f"{len(sb.mismatches)} mismatches")
            summary.add_scoreboard(sb.get_full_name(), sb.n_checked, len(sb.mismatches))
            problems += sb.problems()
        if self.coverage_prefix:
            for name, pct in sorted(coverage_summary(self.coverage_prefix).items()):
                self.logger.info(f"coverage {name}: {pct:.1f}%")
            holes = coverage_holes(self.coverage_prefix)
            for hole in holes:
                self.logger.warning(f"coverage hole {hole}")
            if self.require_full_coverage and holes:
                problems.append(f"{len(holes)} coverage holes, first: {holes[0]}")
            summary.set_coverage(self.coverage_prefix, len(holes))
            self.logger.info(f"coverage {self.coverage_prefix} overall: "
                             f"{summary.coverage_pct}%, {len(holes)} holes, "
                             f"{summary.operations} operations sampled")
        export_coverage(self.cfg.out_dir)
        summary.write(self.cfg.out_dir)
        joined = "\n  ".join(problems)
        assert not problems, f"test failed (seed {self.cfg.seed}):\n  {joined}"
