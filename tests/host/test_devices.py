# SPDX-License-Identifier: Apache-2.0
"""The driver on the ``model`` back end: answers, and each refusal as its typed exception
carrying the device status; a card that loses answers raises instead of returning."""

from __future__ import annotations

import random

import numpy as np
import pytest

from sglang_fpga import (
    FsmDevice,
    FsmLoadError,
    FsmSlotError,
    FsmTokenError,
    FsmViolationError,
    KernelError,
    RadixCapacityError,
    RadixDevice,
    RadixGeometry,
    RadixHandleError,
    RadixLockError,
    RadixRequestError,
    ResponseError,
)
from sglang_fpga.backends.kernel import RadixKernelBackend
from sglang_fpga.compiler import compile_grammar
from sglang_fpga.models.vocab import Vocabulary
from sglang_fpga.wire import RadixStatus

SMALL = RadixGeometry(node_cap=8, token_cap=256, max_len=64, hash_buckets=16)


def test_radix_answers_match_insert_evict_lock_sizes():
    dev = RadixDevice("model", geometry=SMALL)
    ins = dev.insert([1, 2, 3, 4], [10, 11, 12, 13])
    assert ins.prefix_len == 0
    m = dev.match([1, 2, 3, 9])
    assert m.length == 3 and m.kv_indices.tolist() == [10, 11, 12]
    assert dev.lock(m.handle) == -3
    s = dev.sizes()
    assert (s.evictable, s.protected, s.total) == (1, 3, 4)
    assert dev.unlock(m.handle) == 3
    ev = dev.evict(2)
    assert ev.kv_indices.tolist() == [13, 10, 11, 12] and ev.nodes == 2


def test_radix_refusals_raise_typed_errors_with_the_status():
    dev = RadixDevice("model", geometry=SMALL)
    h = dev.insert([5, 6], [1, 2]).handle
    dev.evict(10)
    with pytest.raises(RadixHandleError) as err:
        dev.lock(h)                           # the node is gone: its handle is stale
    assert err.value.status == RadixStatus.HANDLE
    h = dev.insert([7, 8], [3, 4]).handle
    with pytest.raises(RadixLockError) as err:
        dev.unlock(h)
    assert err.value.status == RadixStatus.UNDERFLOW
    with pytest.raises(RadixRequestError) as err:
        dev.match(list(range(1, 66)))         # longer than MaxLen
    assert err.value.status == RadixStatus.LENGTH
    with pytest.raises(RadixCapacityError):
        for i in range(20):                   # 8 node slots: the 8th leaf does not fit
            dev.insert([100 + i], [i])


class _LosingCard:
    """A card that completes every run but writes no response."""

    params = {"TokenCap": 256}

    def buffer(self, name: str, nbytes: int, arg: int) -> object:
        return self

    def write(self, data: bytes) -> None:
        pass

    def read(self, nbytes: int) -> bytes:
        return bytes(nbytes)

    def run(self, args: list[object]) -> list[int]:
        return [self.words, self.status]

    def close(self) -> None:
        pass

    words, status = 0, 0


def test_a_card_that_loses_answers_or_flags_a_fault_raises():
    card = _LosingCard()
    be = RadixKernelBackend(card)   # type: ignore[arg-type]
    dev = RadixDevice("model", geometry=SMALL)
    dev._be = be
    with pytest.raises(ResponseError):
        dev.sizes()
    card.status = 2
    with pytest.raises(KernelError) as err:
        dev.sizes()
    assert err.value.status == 2 and "misaligned" in str(err.value)


@pytest.fixture(scope="module")
def yes_no() -> tuple[Vocabulary, bytes]:
    vocab = Vocabulary.from_list([b"y", b"es", b"n", b"o", b"x"], eos="<eos>")
    return vocab, compile_grammar(vocab, regex="(yes|no)").image


def test_fsm_walk_mask_and_refusals(yes_no):
    vocab, image = yes_no
    dev = FsmDevice("model")
    dev.load(0, image)
    dev.bind(1, 0)
    assert dev.mask(1).tolist() == [True, False, True, False, False, False]
    step = dev.advance(1, 0)
    assert step.accepted and step.forced == 1        # after "y" only "es" fits
    step = dev.advance(1, 1)
    assert step.accepting and dev.mask(1)[5]          # EOS allowed once it matches
    bad = dev.advance(1, 4)
    assert not bad.accepted and bad.violated
    with pytest.raises(FsmViolationError):
        dev.advance(1, 0)
    with pytest.raises(FsmSlotError):
        dev.mask(dev.geometry.n_slots)
    dev.bind(2, 0)
    with pytest.raises(FsmTokenError):
        dev.advance(2, len(vocab))
    first, _ = dev.validate(2, [2, 3])
    assert first is None
    corrupt = bytearray(image)
    corrupt[-1] ^= 0xFF
    with pytest.raises(FsmLoadError):
        dev.load(1, bytes(corrupt))


def test_mask_batch_equals_single_masks(yes_no):
    _, image = yes_no
    dev = FsmDevice("model")
    dev.load(0, image)
    rng = random.Random(1)
    for slot in range(4):
        dev.bind(slot, 0)
        dev.advance(slot, rng.choice([0, 2]))
    batch = dev.mask_batch([3, 0, 2])
    assert all(np.array_equal(a, dev.mask(s)) for a, s in zip(batch, [3, 0, 2], strict=True))


@pytest.mark.parametrize("field", ["ns_cap", "row_cap"])
def test_fsm_load_refuses_a_grammar_over_a_capacity(yes_no, field):
    """The model refuses what the loader refuses (LD_CAPACITY): a comb longer than
    NsCap, more mask rows than RowCap; one more entry or row loads."""
    from sglang_fpga.backends.fsm_model import FsmGeometry
    from sglang_fpga.models.table_image import load_image
    from sglang_fpga.wire import FsmStatus

    _, image = yes_no
    t = load_image(image)
    need = t.linked.size if field == "ns_cap" else t.num_mask_rows
    FsmDevice("model", geometry=FsmGeometry(**{field: need})).load(0, image)
    with pytest.raises(FsmLoadError) as err:
        FsmDevice("model", geometry=FsmGeometry(**{field: need - 1})).load(0, image)
    assert err.value.status == FsmStatus.LD_CAPACITY
