# SPDX-License-Identifier: Apache-2.0
"""radix_lock: interleaved lock/unlock, including splits of locked nodes."""

from __future__ import annotations

import pyuvm

from uvm_env.radix.random_test import RadixRandomBase


@pyuvm.test()
class RadixLockTest(RadixRandomBase):
    mix = {"match": 25, "insert": 20, "lock": 25, "unlock": 20, "evict": 10}
    p_error = 0.0
