# SPDX-License-Identifier: Apache-2.0
"""radix_paged: PAGE_SIZE=16: page-aligned keys, splits only at page edges."""

from __future__ import annotations

import pyuvm

from uvm_env.radix.random_test import RadixRandomBase


@pyuvm.test()
class RadixPagedTest(RadixRandomBase):
    alphabet = 2
    max_tokens = 100
