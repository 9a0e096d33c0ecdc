# SPDX-License-Identifier: Apache-2.0
"""radix_backpressure: heavy idle and back-pressure on both streams; nothing hangs or reorders.

The traffic runs in phases with the driver's window at 2, 4 and then the full 8
commands: with only one or a few commands in flight, a long sink stall leaves the
response FIFO filled behind a single command when the next one is sent, a state the
full window never reaches (the in-flight x FIFO-level cross of RadixCoverage). The
window-2 phase draws keys from a 1-token alphabet, so every key is a prefix of the
longer ones and MATCH answers are long enough to fill the FIFO on their own."""

from __future__ import annotations

import pyuvm

from uvm_env.common.config import env_int
from uvm_env.common.pause import random_pause, set_pattern
from uvm_env.radix.radix_env import LONG_PAUSE_P
from uvm_env.radix.random_test import RadixRandomBase

#: (driver window, key alphabet, share of keys up to MaxLen) per phase
PHASES = ((2, 1, 0.5), (4, 4, 0.2), (8, 4, 0.2))
#: Share of the sink's stalls that are long in the phases below the full window: the FIFO
#: must fill behind one or a few commands in the few cycles before the next is sent.
P_LONG_STALL = 0.5


@pyuvm.test()
class RadixBackpressureTest(RadixRandomBase):
    def make_config(self):  # noqa: ANN201 - same type as the base
        cfg = super().make_config()
        cfg.p_idle, cfg.p_stall = 0.6, 0.7
        return cfg

    async def body(self) -> None:
        n_ops = env_int("N_OPS", 500)
        sink, long_burst = self.env.driver.sink, self.env.long_burst
        for i, (window, self.alphabet, self.p_long) in enumerate(PHASES):
            self.env.driver.window = window
            set_pattern(sink, random_pause(
                self.cfg.child_rng(f"stall{window}"), self.cfg.p_stall,
                p_long=P_LONG_STALL if window < PHASES[-1][0] else LONG_PAUSE_P,
                long_burst=long_burst))
            seq = self.make_sequence(f"seq{window}",
                                     n_ops // len(PHASES) + (i < n_ops % len(PHASES)))
            await seq.start(self.env.seqr)
            await self.env.drain()
        if self.env.driver.max_in_flight < PHASES[-1][0]:
            raise AssertionError(f"the window never filled: at most "
                                 f"{self.env.driver.max_in_flight} commands in flight")
