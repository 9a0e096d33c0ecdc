# SPDX-License-Identifier: Apache-2.0
"""FpgaRadixCache beside SGLang's own RadixCache (SGLang 0.5.23), on the same random
operation streams through SGLang's API objects: every match (length and indices), insert
(prefix length), lock delta, eviction (count and the order the allocator is told to free)
and size is compared. Runs in the `make sglang-check` venv only (it needs SGLang)."""

from __future__ import annotations

import random
from array import array

import pytest
import torch
from sglang.srt.mem_cache.base_prefix_cache import EvictParams, InsertParams, MatchPrefixParams
from sglang.srt.mem_cache.cache_init_params import CacheInitParams
from sglang.srt.mem_cache.radix_cache import RadixCache, RadixKey
from sglang.srt.mem_cache.registry import get_radix_cache_factory

import sglang_fpga.sglang  # noqa: F401  (registers "fpga")
from sglang_fpga import RadixDevice
from sglang_fpga.sglang.radix_cache import FpgaRadixCache


class RecordingAllocator:
    """What the caches free, in order."""

    device = "cpu"

    def __init__(self) -> None:
        self.freed: list[int] = []

    def free_segment(self, free_index: torch.Tensor, *, start_pos: int) -> None:
        self.freed += free_index.tolist()

    def free(self, free_index: torch.Tensor) -> None:
        self.freed += free_index.tolist()


def _params(alloc: RecordingAllocator) -> CacheInitParams:
    return CacheInitParams(disable=False, req_to_token_pool=None,
                           token_to_kv_pool_allocator=alloc, page_size=1)


def _key(tokens: list[int], extra: str | None = None) -> RadixKey:
    return RadixKey(array("q", tokens), extra)


def run_side_by_side(fpga_device: RadixDevice | None, n_ops: int, seed: int) -> int:
    """Returns the number of evictions compared; fails on the first difference."""
    a_sg, a_fp = RecordingAllocator(), RecordingAllocator()
    sg = RadixCache(_params(a_sg))
    fp = FpgaRadixCache(_params(a_fp), device=fpga_device)
    rng = random.Random(seed)
    prompts = [[rng.randrange(1, 5000) for _ in range(rng.randint(4, 40))] for _ in range(6)]
    locked: list[tuple[object, object]] = []
    kv, evictions = 0, 0
    for step in range(n_ops):
        base = rng.choice(prompts)
        toks = base[:rng.randint(1, len(base))] + [rng.randrange(1, 5000)
                                                   for _ in range(rng.randint(0, 12))]
        extra = rng.choice([None, None, None, "lora-1"])
        r = rng.random()
        where = f"step {step}"
        if r < 0.35:
            ms = sg.match_prefix(MatchPrefixParams(key=_key(toks, extra)))
            mf = fp.match_prefix(MatchPrefixParams(key=_key(toks, extra)))
            assert mf.device_prefix_len == ms.device_prefix_len, where
            assert fp.path_device_indices(mf.last_device_node).tolist() == \
                sg.path_device_indices(ms.last_device_node).tolist(), where
            if rng.random() < 0.3 and ms.device_prefix_len:
                ds = sg.inc_lock_ref(ms.last_device_node).delta
                df = fp.inc_lock_ref(mf.last_device_node).delta
                assert df == ds, f"lock delta, {where}"
                locked.append((ms.last_device_node, mf.last_device_node))
        elif r < 0.7:
            vals = torch.arange(kv, kv + len(toks), dtype=torch.int64)
            kv += len(toks)
            rs = sg.insert(InsertParams(key=_key(toks, extra), value=vals))
            rf = fp.insert(InsertParams(key=_key(toks, extra), value=vals))
            assert rf.prefix_len == rs.prefix_len, where
        elif r < 0.82 and locked:
            ns, nf = locked.pop(rng.randrange(len(locked)))
            assert fp.dec_lock_ref(nf).delta == sg.dec_lock_ref(ns).delta, f"unlock, {where}"
        else:
            n = rng.randint(1, 60)
            a_sg.freed.clear()
            a_fp.freed.clear()
            es = sg.evict(EvictParams(num_tokens=n))
            ef = fp.evict(EvictParams(num_tokens=n))
            assert ef.num_tokens_evicted == es.num_tokens_evicted, where
            assert a_fp.freed == a_sg.freed, f"eviction order, {where}"
            evictions += bool(a_sg.freed)
        assert (fp.evictable_size(), fp.protected_size(), fp.total_size()) == (
            sg.evictable_size(), sg.protected_size(), sg.total_size()), where
    return evictions


def test_registered_as_fpga():
    assert get_radix_cache_factory("fpga") is not None


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_model_back_end_answers_like_sglang_radix_cache(seed: int):
    assert run_side_by_side(None, 400, seed) > 10


def test_sim_back_end_answers_like_sglang_radix_cache():
    dev = RadixDevice("sim")
    try:
        assert run_side_by_side(dev, 60, 4) > 0
    finally:
        dev.close()
