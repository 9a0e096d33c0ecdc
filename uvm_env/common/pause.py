# SPDX-License-Identifier: Apache-2.0
"""Idle and back-pressure patterns for cocotbext-axi's set_pause_generator."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator


def random_pause(rng: random.Random, p_pause: float, max_burst: int = 8,
                 p_long: float = 0.0, long_burst: int = 64) -> Iterator[bool]:
    """Yield one bool per cycle (True = pause): random bursts of pauses and of go.

    Bursts rather than independent coin flips, so FIFOs really fill and drain.
    With ``p_long`` > 0, a pause burst is now and then a long one (``long_burst/2`` to
    ``long_burst`` cycles): short bursts never fill a FIFO deeper than ``max_burst``
    beats, so a sink that must see its source hit full needs these. ``p_long`` = 0 draws
    exactly the numbers it always did, so existing seeds replay unchanged.
    """
    if not 0.0 <= p_pause < 1.0:
        raise ValueError(f"p_pause must be in [0, 1), got {p_pause}")
    if not 0.0 <= p_long <= 1.0 or long_burst < 2:
        raise ValueError(f"p_long must be in [0, 1] and long_burst >= 2, got "
                         f"{p_long}, {long_burst}")
    while True:
        pause = rng.random() < p_pause
        if pause and p_long and rng.random() < p_long:
            n = rng.randint(long_burst // 2, long_burst)
        else:
            n = rng.randint(1, max_burst)
        for _ in range(n):
            yield pause


def set_pattern(model: object, pattern: Iterator[bool] | None) -> None:
    """Swap the pause pattern of a cocotbext-axi source or sink.

    cocotbext-axi's clear_pause_generator() leaves the model frozen in
    whatever state the old pattern was in, possibly paused forever; so
    release the pause explicitly before starting the new pattern.
    """
    model.clear_pause_generator()
    model.pause = False
    if pattern is not None:
        model.set_pause_generator(pattern)


def stall_axil(master: object, rng: Callable[[str], random.Random], p_idle: float,
               p_stall: float, tag: str = "") -> None:
    """Random idles on an AXI-Lite master's AW, W and AR channels and back-pressure on
    B and R (0 turns a side off). rng(tag) gives each channel its own stream."""
    wr, rd = master.write_if, master.read_if
    for i, (chan, p) in enumerate(((wr.aw_channel, p_idle), (wr.w_channel, p_idle),
                                   (rd.ar_channel, p_idle), (wr.b_channel, p_stall),
                                   (rd.r_channel, p_stall))):
        set_pattern(chan, random_pause(rng(f"axil{i}{tag}"), p) if p else None)
