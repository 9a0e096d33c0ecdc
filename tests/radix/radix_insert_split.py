# SPDX-License-Identifier: Apache-2.0
"""radix_insert_split: inserts and matches over a 2-token alphabet: splits at every offset."""

from __future__ import annotations

import pyuvm

from uvm_env.radix.random_test import RadixRandomBase


@pyuvm.test()
class RadixInsertSplitTest(RadixRandomBase):
    mix = {"match": 45, "insert": 45, "evict": 5, "sizes": 5}
    alphabet = 2
    p_error = 0.0
