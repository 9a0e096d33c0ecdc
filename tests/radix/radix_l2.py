# SPDX-License-Identifier: Apache-2.0
"""radix_l2_*: the radix tests on the L2 build, where the tables live in a DDR model
behind small L1 caches, so most accesses miss and the core freezes for DDR. The
scoreboard is the same serial model; the results must not change."""

from __future__ import annotations

import pyuvm

from tests.radix.radix_lookup import RadixLookupTest
from tests.radix.radix_random import RadixRandomTest


@pyuvm.test()
class RadixL2LookupTest(RadixLookupTest):
    """radix_lookup's workload flow with an L1 of 1/16 of the node table."""


@pyuvm.test()
class RadixL2RandomTest(RadixRandomTest):
    """radix_random with L1 caches of a few lines, so most accesses miss."""
