# SPDX-License-Identifier: Apache-2.0
"""Idle and back-pressure patterns for cocotbext-axi's set_pause_generator."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator


def random_pause(rng: random.Random, p_pause: float, max_burst: int = 8) -> Iterator[bool]:
    """Yield one bool per cycle (True = pause): random bursts of pauses and of go.

    Bursts rather than independent coin flips, so FIFOs really fill and drain.
    """
    if not 0.0 <= p_pause < 1.0:
        raise ValueError(f"p_pause must be in [0, 1), got {p_pause}")
    while True:
        pause = rng.random() < p_pause
        for _ in range(rng.randint(1, max_burst)):
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
