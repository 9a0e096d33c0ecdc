# SPDX-License-Identifier: Apache-2.0
"""RandomWordsSeq: n single-beat frames of random words, corner values included."""

from __future__ import annotations

import random

from pyuvm import uvm_sequence

from uvm_env.common.axis_item import AxisItem


class RandomWordsSeq(uvm_sequence):
    def __init__(self, name: str, n: int, width: int, rng: random.Random) -> None:
        super().__init__(name)
        self.n, self.width, self.rng = n, width, rng

    async def body(self) -> None:
        top = (1 << self.width) - 1
        corners = [0, top, 0x5555 & top, 0xAAAA & top, 1 << (self.width - 1)]
        for i in range(self.n):
            word = corners[i] if i < len(corners) else self.rng.getrandbits(self.width)
            item = AxisItem("word", [word])
            await self.start_item(item)
            await self.finish_item(item)
