# SPDX-License-Identifier: Apache-2.0
"""radix_csr_suite: the OpenTitan-style CSR suite (uvm_env/common/csr_suite.py) on radix_top,
driven from rtl/radix/radix_regs.yml: hw_reset, rw with every WSTRB, bit-bash, aliasing,
unmapped SLVERR, R-channel back-pressure, W1C strobes, W1C racing a refusal in the same
cycle, then random commands with the counters read in the background (monotonic) and every
counter compared with the model at the end."""

from __future__ import annotations

import cocotb
import pyuvm

from uvm_env.common.csr_suite import CsrSuite, W1cHooks
from uvm_env.radix.csr_regs import BLOCK, CSR
from uvm_env.radix.radix_item import RadixCmd
from uvm_env.radix.radix_seqs import OneCmdSeq
from uvm_env.radix.random_test import DEFAULT_MIX, RadixRandomBase


class _Refusals(W1cHooks):
    """An unknown opcode is refused (error_i pulses once) and counted by the model."""

    def __init__(self, test: RadixCsrSuiteTest) -> None:
        self.test = test

    async def raise_event(self) -> None:
        cmd = RadixCmd(op=0x0F)
        await OneCmdSeq(cmd).start(self.test.env.seqr)
        await cmd.done.wait()


@pyuvm.test()
class RadixCsrSuiteTest(RadixRandomBase):
    # No RESET command: it clears the counters the background reads expect to only grow.
    mix = {**DEFAULT_MIX, "reset": 0}

    async def body(self) -> None:
        env, dut = self.env, self.dut
        await env.wait_init_done()
        suite = CsrSuite.on_dut(BLOCK, env.csr, self.clock, dut, env.scoreboard,
                                self.cfg.child_rng("csr"))
        await suite.register_steps()
        irq, hooks = BLOCK.by_name()["IRQ_STATUS"], _Refusals(self)
        await suite.w1c_strobes(irq, hooks)
        await suite.w1c_race(irq, dut.u_csr.error_i, hooks)
        env.scoreboard.compare("LAST_ERROR after the refusals", 1,
                               await env.read_csr("LAST_ERROR"))

        traffic_done = False
        reader = cocotb.start_soon(suite.background_counters(lambda: traffic_done))
        await self.make_sequence().start(env.seqr)
        await env.drain()
        traffic_done = True
        last = await reader
        await self.check_csrs("after the traffic")
        final = self.figures["csrs"]
        for name, value in last.items():
            if name in final:
                env.scoreboard.check(f"{name} read mid-traffic <= final", value <= final[name],
                                     f"{value} > {final[name]}")
        suite.require()
        self.figures["csr_suite"] = suite.counts
        self.logger.info(f"CSR suite checks: {suite.counts}; {len(CSR)} registers")
