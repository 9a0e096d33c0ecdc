# SPDX-License-Identifier: Apache-2.0
"""The ``sim`` back end (krnl_radix / krnl_fsm RTL in Verilator) answers random traces
exactly as the ``model`` back end does, in batches; so does the ``xrt`` back end on a
stand-in pyxrt served by the simulator. A faulty card raises instead of answering."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from sglang_fpga import FsmDevice, KernelError, RadixDevice, RadixGeometry
from tests.host import fake_pyxrt
from tests.host.traces import fsm_trace, radix_trace
from uvm_env.fsm import grammars


@pytest.fixture(scope="module")
def radix_sim() -> Iterator[RadixDevice]:
    dev = RadixDevice("sim")
    yield dev
    dev.close()


def _first_difference(a: list[tuple], b: list[tuple]) -> str:
    for x, y in zip(a, b, strict=False):
        if x != y:
            return f"first difference:\n  model {x}\n  other {y}"
    return f"lengths {len(a)} and {len(b)}"


def test_radix_sim_answers_a_200_operation_trace_like_the_model(radix_sim: RadixDevice):
    model = RadixDevice("model", geometry=radix_sim.geometry)
    for dev in (model, radix_sim):   # the same history: handles carry reset generations
        dev.reset()
    want = radix_trace(model, 200, seed=7)
    got = radix_trace(radix_sim, 200, seed=7)
    assert len(want) == 200
    statuses = {row[2] for row in want}
    assert {0, 5, 7} <= statuses, f"the trace must reach refusals (CAPACITY, HANDLE): {statuses}"
    assert any(row[1] == 3 and row[6] for row in want), "the trace must evict something"
    assert got == want, _first_difference(want, got)
    assert radix_sim._be.card.cycles > 200, "each run reports the kernel's clock cycles"


def test_fsm_sim_answers_a_trace_like_the_model():
    rng = random.Random(3)
    vocab = grammars.synthetic_vocab(grammars.JUMP_REGEX, rng, 300)
    image = grammars.build("host", grammars.JUMP_REGEX, vocab).image
    sim = FsmDevice("sim")
    try:
        model = FsmDevice("model", geometry=sim.geometry)
        want = fsm_trace(model, image, len(vocab), 80, seed=5)
        got = fsm_trace(sim, image, len(vocab), 80, seed=5)
    finally:
        sim.close()
    assert sum(1 for kind, _ in want if kind == "mask") >= 5
    assert any(kind == "rsp" and r["accepted"] for kind, r in want)
    assert got == want, _first_difference(want, got)


def test_xrt_back_end_on_a_stand_in_pyxrt_answers_like_the_model(tmp_path):
    fake_pyxrt.install()
    try:
        geo = RadixGeometry(node_cap=64, token_cap=2048, max_len=512, hash_buckets=16,
                            hash_ways=4, stash_depth=2)
        xrt = RadixDevice("xrt", xclbin=tmp_path / "krnl.xclbin", geometry=geo)
        want = radix_trace(RadixDevice("model", geometry=geo), 60, seed=11)
        assert radix_trace(xrt, 60, seed=11) == want
        # A card whose status result flags an overflow: the call raises, with the status.
        kernel = fake_pyxrt.CARDS[-1]
        xrt._be.card.kernel.status_or = 1   # type: ignore[attr-defined]
        with pytest.raises(KernelError) as err:
            xrt.sizes()
        assert err.value.status == 1 and "overflow" in str(err.value)
        assert kernel is fake_pyxrt.CARDS[-1]
    finally:
        fake_pyxrt.close_all()
