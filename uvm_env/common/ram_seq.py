# SPDX-License-Identifier: Apache-2.0
"""RamRandomSeq: random reads and writes, biased towards same-address collisions."""

from __future__ import annotations

import random

from pyuvm import uvm_sequence

from uvm_env.common.ram_item import RamOp


class RamRandomSeq(uvm_sequence):
    def __init__(self, name: str, n: int, depth: int, width: int, rng: random.Random) -> None:
        super().__init__(name)
        self.n, self.depth, self.width, self.rng = n, depth, width, rng

    async def body(self) -> None:
        rng = self.rng
        # A sweep first so every word has been written before random reads start.
        for addr in range(self.depth):
            await self._send(RamOp("fill", we=True, waddr=addr, wdata=rng.getrandbits(self.width)))
        for _ in range(self.n):
            waddr = rng.randrange(self.depth)
            # One in four reads targets the address written in the same cycle.
            raddr = waddr if rng.random() < 0.25 else rng.randrange(self.depth)
            await self._send(RamOp("op", we=rng.random() < 0.5, waddr=waddr,
                                   wdata=rng.getrandbits(self.width),
                                   re=rng.random() < 0.7, raddr=raddr))

    async def _send(self, op: RamOp) -> None:
        await self.start_item(op)
        await self.finish_item(op)
