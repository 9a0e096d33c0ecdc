# SPDX-License-Identifier: Apache-2.0
"""fsm_random_regex: random regexes over random vocabularies, random walks on six slots."""

from __future__ import annotations

import pyuvm

from uvm_env.fsm.random_test import FsmRandomBase


@pyuvm.test()
class FsmRandomRegexTest(FsmRandomBase):
    require_oracle = True
