# SPDX-License-Identifier: Apache-2.0
"""CsrNoise: AXI-Lite traffic in the background of a stress test, that a reset may cut.

Random reads of every word of the window (mapped and unmapped) and writes to the RW
registers and to read-only ones, each checked for what holds whatever the core is
doing: the response code (OKAY / SLVERR), and the value of registers that never change
(ID, and those whose description says parameter or geometry). Writes to CTRL pick
random values, so a reset that leaves CTRL alone is seen by the reset-value check that
follows. stop() asks the loop to end; an access the reset flushed then ends it quietly,
while one cut before stop() is a failure.
"""

from __future__ import annotations

import random

import cocotb
from cocotb.task import Task
from cocotbext.axi import AxiLiteMaster, AxiResp

from uvm_env.common.regs import M32, RegBlock
from uvm_env.common.scoreboard_base import ScoreboardBase

OKAY, SLVERR = int(AxiResp.OKAY), int(AxiResp.SLVERR)


class CsrNoise:
    def __init__(self, block: RegBlock, master: AxiLiteMaster, params: dict[str, int],
                 sb: ScoreboardBase, rng: random.Random) -> None:
        self.block, self.master, self.sb, self.rng = block, master, sb, rng
        # Registers whose value never changes: the identity and the parameters (the
        # register descriptions call them so).
        self.fixed = {r.index: r.reset_value(params) for r in block.registers
                      if r.name == "ID" or "parameter" in r.desc or "geometry" in r.desc}
        self.task: Task | None = None
        self.stopping = False
        self.accesses = 0

    def start(self) -> None:
        self.stopping = False
        self.task = cocotb.start_soon(self._run())

    def stop(self) -> None:
        self.stopping = True

    async def join(self) -> None:
        if self.task is not None:
            await self.task
            self.task = None

    async def _run(self) -> None:
        words = list(range(self.block.addr_words))
        by_index = self.block.by_index()
        while not self.stopping:
            word = self.rng.choice(words)
            reg = by_index.get(word)
            try:
                # No W1C writes: clearing an interrupt would move the models' mirror.
                if reg is not None and reg.access == "RW" and self.rng.random() < 0.3:
                    resp = await self._write(word, self.rng.getrandbits(32) & reg.mask_of("RW"))
                    self.sb.compare(f"background write to {reg.name}", OKAY, resp)
                elif reg is not None and not reg.writable and self.rng.random() < 0.1:
                    resp = await self._write(word, self.rng.getrandbits(32) & M32)
                    self.sb.compare(f"background write to {reg.name}", SLVERR, resp)
                else:
                    rsp = await self.master.read(4 * word, 4)
                    value = int.from_bytes(rsp.data, "little")
                    want = SLVERR if reg is None else OKAY
                    self.sb.compare(f"background read of word {word}", want, int(rsp.resp))
                    if word in self.fixed:
                        self.sb.compare(f"background read of {reg.name}", self.fixed[word],
                                        value)
            except Exception:  # noqa: BLE001 - a reset flushes the access: None comes back
                if self.stopping:
                    return
                raise
            self.accesses += 1

    async def _write(self, word: int, data: int) -> int:
        rsp = await self.master.write(4 * word, data.to_bytes(4, "little"))
        return int(rsp.resp)
