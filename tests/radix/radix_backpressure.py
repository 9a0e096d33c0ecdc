# SPDX-License-Identifier: Apache-2.0
"""radix_backpressure: heavy idle and back-pressure on both streams; nothing hangs or reorders."""

from __future__ import annotations

import pyuvm

from uvm_env.radix.random_test import RadixRandomBase


@pyuvm.test()
class RadixBackpressureTest(RadixRandomBase):
    def make_config(self):  # noqa: ANN201 - same type as the base
        cfg = super().make_config()
        cfg.p_idle, cfg.p_stall = 0.6, 0.7
        return cfg
