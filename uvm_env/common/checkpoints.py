# SPDX-License-Identifier: Apache-2.0
"""Checkpoints: CSR snapshots during traffic, not only at the end.

A sequence that has a Checkpoints calls after_op() after each command it sends. Every
`every` commands, and after each command it sent to be refused, it waits until nothing
is in flight and the test compares every CSR with its model (the test's `snapshot`
coroutine). Waiting is what makes the comparison exact: with commands in flight the
DUT's counters run ahead of the responses checked so far.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from uvm_env.common.config import env_int


class Checkpoints:
    def __init__(self, snapshot: Callable[[str], Awaitable[None]],
                 every: int | None = None) -> None:
        self.snapshot = snapshot
        self.every = every if every is not None else env_int("CSR_EVERY", 64)
        self.ops = 0
        self.taken = 0

    async def after_op(self, refusal: bool = False) -> None:
        self.ops += 1
        if refusal:
            await self._take(f"after the refusal at command {self.ops}")
        elif self.every and self.ops % self.every == 0:
            await self._take(f"at command {self.ops}")

    async def _take(self, when: str) -> None:
        self.taken += 1
        await self.snapshot(when)
