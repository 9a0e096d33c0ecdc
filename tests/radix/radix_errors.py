# SPDX-License-Identifier: Apache-2.0
"""radix_errors: every refusal class: status, no state change, error counter."""

from __future__ import annotations

import pyuvm

from uvm_env.radix.random_test import RadixRandomBase


@pyuvm.test()
class RadixErrorsTest(RadixRandomBase):
    coverage_prefix = "radix"
    p_error = 0.5
