# SPDX-License-Identifier: Apache-2.0
"""Every corrupted table image fsm_errors and fsm_table_load stream is refused with
the status it is aimed at, as the predictor's mirror of the loader judges it: a
corruption that stops corrupting (a "bad" version that became the valid one) would
otherwise load as a good image and leave those tests checking nothing."""

from __future__ import annotations

import random

import pytest

from uvm_env.fsm.fsm_predictor import FsmParams, hw_verdict, received_bytes
from uvm_env.fsm.grammars import random_grammar
from uvm_env.fsm.images import KINDS, PER_FIELD, corrupt

PARAMS = FsmParams(vocab_max=50257, class_w=9, state_w=14, row_w=8, ns_cap=753664,
                   row_cap=204, n_slots=64, n_grammars=2, mask_w=512, load_w=512)
FAULTS = [(k, None) for k in sorted(KINDS) if k not in PER_FIELD]
FAULTS += [(k, f) for k, fields in PER_FIELD.items() for f in fields]


@pytest.mark.parametrize("seed", range(4))
def test_every_corruption_is_refused_as_aimed(seed):
    grammar = random_grammar(random.Random(seed))
    assert hw_verdict(grammar.image, False, PARAMS) == 0  # the clean image loads
    for kind, field in FAULTS:
        for draw in range(4):
            data, keep = corrupt(grammar.image, kind, random.Random(seed * 16 + draw),
                                 PARAMS.load_w, field=field)
            n, keep_err = received_bytes(data, PARAMS.load_w, keep)
            assert hw_verdict(data[:n], keep_err, PARAMS) == KINDS[kind], (kind, field, draw)
