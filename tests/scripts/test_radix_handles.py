# SPDX-License-Identifier: Apache-2.0
"""The radix predictor's handle rule: a dead handle returns only when its generation wraps."""

from __future__ import annotations

from uvm_env.radix.protocol import OP_INSERT, OP_RESET, handle
from uvm_env.radix.radix_item import RadixCmd
from uvm_env.radix.radix_predictor import GEN_PERIOD, RadixParams, RadixPredictor


def _insert(pred: RadixPredictor, key: list[int], h: int) -> str | None:
    exp = pred.predict(RadixCmd(op=OP_INSERT, tokens=key, kvs=list(range(len(key)))))
    return pred.learn_handle(exp.node, h)


def test_a_dead_handle_may_not_come_back_before_its_generation_wraps():
    pred = RadixPredictor(RadixParams())
    assert _insert(pred, [1, 2, 3], handle(5, 0)) is None
    pred.predict(RadixCmd(op=OP_RESET))                  # slot 5: one bump
    problem = _insert(pred, [1, 2, 3], handle(5, 0))     # the same handle at once
    assert problem and "again 0..0 generation bumps of slot 5" in problem


def test_the_handle_comes_back_after_a_whole_turn():
    pred = RadixPredictor(RadixParams())
    assert _insert(pred, [1, 2, 3], handle(5, 0)) is None
    for _ in range(GEN_PERIOD):                         # 256 bumps: generation 0 again
        pred.predict(RadixCmd(op=OP_RESET))
    assert _insert(pred, [1, 2, 3], handle(5, 0)) is None
    assert handle(5, 0) not in pred.dead_handles


def test_frees_of_unseen_slots_count_as_possible_bumps():
    pred = RadixPredictor(RadixParams())
    assert _insert(pred, [1, 2, 3], handle(5, 0)) is None
    pred.predict(RadixCmd(op=OP_RESET))
    pred.unknown_frees += GEN_PERIOD                     # could have been slot 5 each time
    assert _insert(pred, [1, 2, 3], handle(5, 0)) is None


def test_only_handles_that_cannot_have_wrapped_count_as_surely_dead():
    pred = RadixPredictor(RadixParams())
    assert _insert(pred, [1, 2, 3], handle(5, 0)) is None
    pred.predict(RadixCmd(op=OP_RESET))
    assert pred.surely_dead_handles() == [handle(5, 0)]
    pred.unknown_frees += GEN_PERIOD - 1                 # slot 5 may have wrapped
    assert pred.surely_dead_handles() == []
