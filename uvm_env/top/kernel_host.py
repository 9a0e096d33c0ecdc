# SPDX-License-Identifier: Apache-2.0
"""KernelHost: what XRT does for a kernel, done with cocotbext-axi.

An AxiLiteMaster plays the host on s_axi_control (ap_ctrl_hs) and an AxiRam
plays the card's DDR on m_axi_gmem; the host writes buffers into the RAM,
sets the arguments, starts the kernel and waits for the interrupt.
"""

from __future__ import annotations

import logging

from cocotb.triggers import RisingEdge
from cocotbext.axi import AxiBus, AxiLiteBus, AxiLiteMaster, AxiRam

from sglang_fpga.wire import (
    AP_DONE,
    AP_IDLE,
    AP_START,
    REG_CTRL,
    REG_GIE,
    REG_IER,
    REG_ISR,
    arg_writes,
    result_offsets,
)


class KernelHost:
    def __init__(self, dut: object, clock: object, reset: object, ram_bytes: int,
                 num_args: int, num_outs: int = 2, masters: tuple[str, ...] = ("m_axi_gmem",)
                 ) -> None:
        self.dut, self.clock, self.num_args, self.num_outs = dut, clock, num_args, num_outs
        self.ctrl = AxiLiteMaster(AxiLiteBus.from_prefix(dut, "s_axi_control"), clock, reset,
                                  reset_active_level=False)
        # Every master sees the same DDR: one AxiRam per port, sharing one memory.
        self.rams = []
        for name in masters:
            mem = self.rams[0].mem if self.rams else None
            self.rams.append(AxiRam(AxiBus.from_prefix(dut, name), clock, reset,
                                    reset_active_level=False, size=ram_bytes, mem=mem))
        self.ram = self.rams[0]
        logs = [self.ctrl.write_if.log, self.ctrl.read_if.log]
        logs += [log for r in self.rams for log in (r.write_if.log, r.read_if.log)]
        for log in logs:
            log.setLevel(logging.WARNING)

    async def run(self, args: list[int]) -> list[int]:
        """Set 64-bit arguments, start, wait for the done interrupt; return the results."""
        for offset, value in arg_writes(args):
            await self.ctrl.write_dword(offset, value)
        await self.ctrl.write_dword(REG_GIE, 1)
        await self.ctrl.write_dword(REG_IER, 1)
        await self.ctrl.write_dword(REG_CTRL, AP_START)
        while not int(self.dut.interrupt.value):
            await RisingEdge(self.clock)
        status = await self.ctrl.read_dword(REG_CTRL)
        assert status & AP_DONE and status & AP_IDLE, f"interrupt without ap_done ({status:#x})"
        await self.ctrl.write_dword(REG_ISR, 1)   # toggle-on-write clears it
        return [await self.ctrl.read_dword(off)
                for off in result_offsets(self.num_args, self.num_outs)]

    async def read_ctrl(self) -> int:
        return await self.ctrl.read_dword(REG_CTRL)
