# SPDX-License-Identifier: Apache-2.0
"""FsmBaseTest: runs the test's scenario, drains, then checks every CSR against the model."""

from __future__ import annotations

import random
from collections.abc import Callable

import cocotb
from cocotb.triggers import ClockCycles

from uvm_env.common.base_test import BaseTest
from uvm_env.common.config import BenchConfig, env_int
from uvm_env.fsm.fsm_env import FsmEnv
from uvm_env.fsm.fsm_predictor import CSR_COUNTERS, hw_verdict
from uvm_env.fsm.fsm_seqs import FsmBaseSeq, LoadSeq
from uvm_env.fsm.grammars import Grammar
from uvm_env.fsm.handshake_probe import HandshakeProbe
from uvm_env.fsm.protocol import CSR, CSR_ERR_BASE, FSM_ID, NUM_STATUS, ST_NAMES, ST_OK


class FsmBaseTest(BaseTest):
    coverage_prefix = "fsm"
    # Cycles of work per unit of N_OPS, for the timeout; tests with big images add theirs.
    cycles_per_op = 60
    # The test's grammars come with a pattern: the regex oracle must have checked something.
    require_oracle = False

    def make_env(self) -> FsmEnv:
        env = FsmEnv("env", self)
        env.dut, env.clock, env.reset = self.dut, self.clock, self.reset
        return env

    def make_config(self) -> BenchConfig:
        cfg = super().make_config()
        cfg.timeout_us = 2_000 + self.cycles_per_op * env_int("N_OPS", 500) \
            * cfg.clk_period_ns // 1000 + self.extra_timeout_us()
        return cfg

    def extra_timeout_us(self) -> int:
        return 0

    def rng(self, tag: str) -> random.Random:
        return self.cfg.child_rng(tag)

    async def scenario(self) -> None:
        raise NotImplementedError

    async def body(self) -> None:
        assert await self.env.read_csr("ID") == FSM_ID, "CSR ID"
        await self.scenario()
        await self.drain()
        await self.check_csrs()
        orc = self.env.scoreboard.oracle
        self.logger.info(f"regex oracle: {orc.checks} checks (verdicts and mask bits) against "
                         f"regex.fullmatch, {orc.skipped} skipped (text ending inside a "
                         "UTF-8 character)")
        if self.require_oracle:
            assert orc.checks > 0, "the regex oracle ran no check"
        for line in self.env.scoreboard.cov.report():
            self.logger.info(line)

    def direct(self, name: str) -> FsmBaseSeq:
        """A sequence the test body drives command by command (bind(), advance(), ...)."""
        seq = FsmBaseSeq(name, self.env, self.rng(name))
        seq.sequencer = self.env.seqr
        return seq

    def fitting(self, make: Callable[[], Grammar], tries: int = 16) -> Grammar:
        """A grammar from ``make`` whose tables this configuration accepts: random
        grammars sometimes outgrow a small build (LD_CAPACITY, predicted by the
        model), and a test that needs its tables loaded draws again."""
        for _ in range(tries):
            g = make()
            if hw_verdict(g.image, False, self.env.params) == ST_OK:
                return g
            self.logger.info(f"grammar {g.name} does not fit this build; drawing another")
        raise AssertionError(f"no grammar that fits this build in {tries} draws")

    async def load(self, grammars: dict[int, Grammar]) -> None:
        """Load tables that must be accepted; the test stops if one is refused."""
        seq = LoadSeq("load", self.env, self.rng("load"), grammars)
        await seq.start(self.env.seqr)
        for cmd in seq.cmds:
            await cmd.done.wait()
            assert cmd.rsp.status == ST_OK, \
                f"{cmd} refused: {ST_NAMES.get(cmd.rsp.status)}; the test needs these tables"

    async def load_and_probe(self, grammars: dict[int, Grammar]) -> HandshakeProbe:
        """Log and load ``grammars``, then start a cycle-counting probe on the streams."""
        for gid, g in grammars.items():
            self.logger.info(f"grammar {gid}: {g.summary()}")
        await self.load(grammars)
        probe = HandshakeProbe(self.dut, self.clock)
        cocotb.start_soon(probe.run())
        return probe

    async def drain(self) -> None:
        await self.env.driver.wait_drained()
        await self.env.loader.wait_idle()
        await ClockCycles(self.clock, 8)

    async def snapshot(self, when: str) -> None:
        """Nothing in flight, then every CSR against the model (Checkpoints)."""
        await self.drain()
        await self.check_csrs(when)

    async def check_csrs(self, when: str = "at the end") -> None:
        """The core's counters, interrupt registers and grammar map must equal the model's."""
        pred = self.env.scoreboard.pred
        sb = self.env.scoreboard
        expected = pred.csr_expected()
        actual = {name: await self.env.read_csr(name) for name in CSR_COUNTERS}
        sb.compare(f"CSR counters and violation registers {when}", expected, actual)
        exp_codes = {code: pred.csr_error_counts().get(code, 0) for code in range(1, NUM_STATUS)}
        act_codes = {code: await self.env.read_csr(CSR_ERR_BASE + code)
                     for code in range(1, NUM_STATUS)}
        sb.compare(f"CSR error counters by status {when}", exp_codes, act_codes)
        status = await self.env.read_csr("STATUS")
        sb.check(f"core idle after the last result {when}", status & 1 == 0,
                 f"STATUS={status:#x}")
        # The interrupt line is IRQ_EN and a pending violation, whatever the test set
        # IRQ_EN to: with it clear (most tests) a pending violation must not show.
        irq_en = await self.env.read_csr("CTRL") & 1
        sb.compare(f"irq_o = IRQ_EN && pending {when}", int(irq_en and pred.irq_pending),
                   int(self.dut.irq_o.value))
        cycles = await self.env.read_csr("CYCLES")
        self.logger.info(f"CSRs: {actual}; errors by code {act_codes}; {cycles} cycles")
        self.figures["csrs"] = {**actual, "CYCLES": cycles}
        assert CSR["CYCLES"] == 25
