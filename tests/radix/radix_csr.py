# SPDX-License-Identifier: Apache-2.0
"""radix_csr: the register map, the W1C interrupt and the counters against the model."""

from __future__ import annotations

import pyuvm
from cocotb.triggers import ClockCycles
from cocotbext.axi import AxiResp

from uvm_env.radix.csr_regs import CSR_WORDS
from uvm_env.radix.protocol import CSR
from uvm_env.radix.radix_item import RadixCmd
from uvm_env.radix.radix_seqs import OneCmdSeq
from uvm_env.radix.random_test import RadixRandomBase

RADIX_ID = 0x5244_0002


@pyuvm.test()
class RadixCsrTest(RadixRandomBase):
    p_error = 0.1

    async def body(self) -> None:
        env, sb, p = self.env, self.env.scoreboard, self.env.scoreboard.params
        ident = {name: await env.read_csr(name) for name in
                 ("ID", "NODE_CAP", "TOKEN_CAP", "MAX_LEN", "PAGE_SIZE", "NUM_NS")}
        sb.compare("identity registers", {
            "ID": RADIX_ID, "NODE_CAP": p.node_cap, "TOKEN_CAP": p.token_cap,
            "MAX_LEN": p.max_len, "PAGE_SIZE": p.page_size, "NUM_NS": p.num_ns}, ident)

        # Read-only and unmapped addresses answer SLVERR and keep their value.
        wr = await env.csr.write(4 * CSR["EVICTABLE"], (123).to_bytes(4, "little"))
        sb.compare("write to a read-only register", AxiResp.SLVERR, wr.resp)
        rd = await env.csr.read(4 * CSR_WORDS, 4)   # the first word past the map
        sb.compare("read of an unmapped address", AxiResp.SLVERR, rd.resp)

        # Interrupt: pending on a refusal, visible only when enabled, W1C.
        await self.expect_irq("after reset", pending=0, line=0)
        await self.refuse_one()
        await self.expect_irq("refusal, irq disabled", pending=1, line=0)
        await env.csr.write_dword(4 * CSR["CTRL"], 1)
        await self.expect_irq("irq enabled", pending=1, line=1)
        await env.csr.write_dword(4 * CSR["IRQ_STATUS"], 1)
        await self.expect_irq("cleared", pending=0, line=0)
        await self.refuse_one()
        await self.expect_irq("second refusal", pending=1, line=1)
        sb.compare("LAST_ERROR", 1, await env.read_csr("LAST_ERROR"))

        await super().body()   # random traffic, then every counter vs the model

    async def refuse_one(self) -> None:
        """An unknown opcode: refused, counted, and it raises the interrupt."""
        cmd = RadixCmd(op=0x0F)
        seq = OneCmdSeq(cmd)
        await seq.start(self.env.seqr)
        await cmd.done.wait()

    async def expect_irq(self, what: str, pending: int, line: int) -> None:
        await ClockCycles(self.clock, 2)
        self.env.scoreboard.compare(f"interrupt {what}", {"pending": pending, "irq": line}, {
            "pending": await self.env.read_csr("IRQ_STATUS"), "irq": int(self.dut.irq.value)})
