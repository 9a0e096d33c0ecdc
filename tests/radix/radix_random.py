# SPDX-License-Identifier: Apache-2.0
"""radix_random: long constrained-random mix of every command (N_OPS)."""

from __future__ import annotations

import pyuvm

from uvm_env.radix.random_test import RadixRandomBase


@pyuvm.test()
class RadixRandomTest(RadixRandomBase):
    pass
