# SPDX-License-Identifier: Apache-2.0
"""kernel_ctrl_csr_suite: the OpenTitan-style CSR suite (uvm_env/common/csr_suite.py) on
top_ctrl_hs, the Vitis kernels' ap_ctrl_hs control block, driven from
rtl/top/top_ctrl_regs.yml in the configuration the DUT was built with (krnl_radix's or
krnl_fsm's).

Standalone, not through krnl_radix: the bench plays the kernel on start_o / done_i /
outs_i (uvm_env/top/ctrl_hs.py), so done_i can be put on the very edge of a racing access,
start_o and args_o are seen directly, and the results take any value; the build is small
enough for Icarus too. kernel_radix and kernel_fsm drive the same block through the real
kernels.

Steps: hw_reset (the arguments, which have no reset, are written first), every WSTRB on
every writable register (arguments take the whole word), bit-bash (every 1 reaching
AP_START runs the kernel once), aliasing, unmapped words (OKAY with data 0: the block never
answers SLVERR), reads under R back-pressure (AP_DONE / AP_READY clear on read, in order),
the ap_start / ap_done / ap_idle / ap_ready handshakes under every GIE x IER, the suite's
W1C steps on ISR (W1T: a 1 written to the set bit clears it) incl. the clear racing a
new done on the same edge, AP_CTRL reads racing done_i and a start, and ap_rst_n in the
middle of a run. interrupt_o is compared with GIE & ISR[0] after every read.
"""

from __future__ import annotations

import logging

import pyuvm
from cocotbext.axi import AxiLiteMaster
from pyuvm import uvm_env

from uvm_env.common.axil_ports import slave_bus
from uvm_env.common.base_test import BaseTest
from uvm_env.common.config import env_int
from uvm_env.common.csr_suite import CsrSuite
from uvm_env.common.regs import for_dut
from uvm_env.common.scoreboard_base import ScoreboardBase
from uvm_env.top.csr_regs import BLOCKS
from uvm_env.top.ctrl_hs import CtrlHsCoverage, CtrlHsKernel

STEPS = ("hw_reset", "unmapped", "rw", "bit_bash", "aliasing", "r_backpressure",
         "handshakes", "w1c strobes", "w1c race same cycle", "read races", "reset mid-run",
         "interrupt")


class _Env(uvm_env):
    def build_phase(self) -> None:
        self.scoreboard = ScoreboardBase("scoreboard", self)


@pyuvm.test()
class KernelCtrlCsrSuiteTest(BaseTest):
    coverage_prefix = "kernel_ctrl"
    require_full_coverage = True

    def make_env(self) -> _Env:
        env = _Env("env", self)
        dut = self.dut
        self.block = for_dut(BLOCKS, dut)
        # Built before reset, so done_i and outs_i are driven (not X) when it lifts.
        self.kernel = CtrlHsKernel(dut, self.clock, self.block, self.cfg.child_rng("kernel"),
                                   CtrlHsCoverage(self.coverage_prefix))
        self.master = AxiLiteMaster(slave_bus(dut, "s"), self.clock, self.reset,
                                    reset_active_level=False)
        for log in (self.master.write_if.log, self.master.read_if.log):
            log.setLevel(logging.WARNING)    # one line per access otherwise
        return env

    async def body(self) -> None:
        sb, kernel, block = self.env.scoreboard, self.kernel, self.block
        suite = CsrSuite.on_dut(block, self.master, self.clock, self.dut, sb,
                                self.cfg.child_rng("csr"), effects=kernel)
        kernel.attach(suite)
        kernel.start_monitor()
        rounds = env_int("N_ROUNDS", 4)

        await suite.register_steps()
        await kernel.handshakes(max(rounds, 4))    # 4 rounds: every GIE x IER
        for reg in (kernel.gie, kernel.ier):
            await suite.write_reg(reg, 1, 0xF, "enable the done interrupt")
        await suite.w1c_strobes(kernel.isr, kernel)
        await suite.w1c_race(kernel.isr, self.dut.done_i, kernel, rounds)
        await kernel.read_races(rounds)
        await kernel.reset_mid_run(self.apply_reset)

        suite.require(STEPS)
        self.figures["csr_suite"] = suite.counts
        self.logger.info(f"{block.config} map: CSR suite checks {suite.counts}")
