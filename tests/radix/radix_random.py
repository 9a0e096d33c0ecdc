# SPDX-License-Identifier: Apache-2.0
"""radix_random: long constrained-random mix of every command (N_OPS): keys up to MaxLen,
every namespace, line and node exhaustion, pipelined at the driver's full window."""

from __future__ import annotations

import pyuvm

from uvm_env.radix.random_test import RadixRandomBase


@pyuvm.test()
class RadixRandomTest(RadixRandomBase):
    namespaces = 256        # capped at the build's NumNs
    p_long = 0.08
