# SPDX-License-Identifier: Apache-2.0
"""radix_evict_lru: eviction pressure: LRU order, cascades, whole nodes."""

from __future__ import annotations

import pyuvm

from uvm_env.radix.random_test import RadixRandomBase


@pyuvm.test()
class RadixEvictLruTest(RadixRandomBase):
    mix = {"match": 20, "insert": 40, "evict": 35, "lock": 3, "unlock": 2}
    p_error = 0.0
