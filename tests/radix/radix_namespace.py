# SPDX-License-Identifier: Apache-2.0
"""radix_namespace: the same keys in many namespaces never share nodes."""

from __future__ import annotations

import pyuvm

from uvm_env.radix.random_test import RadixRandomBase


@pyuvm.test()
class RadixNamespaceTest(RadixRandomBase):
    mix = {"match": 40, "insert": 40, "evict": 10, "sizes": 10}
    namespaces = 16
    alphabet = 3
    p_error = 0.0
