# SPDX-License-Identifier: Apache-2.0
"""The SGLang plug-ins' logic without SGLang (sglang_fpga.serving, sglang_fpga.metrics): the prefix
cache against the golden RadixCache (SGLang's semantics) on a random stream, eviction
order and freeing included; the grammar matcher's accept, rollback, masks and
jump-forward; the Prometheus names."""

from __future__ import annotations

import random

from prometheus_client import CollectorRegistry, generate_latest

from sglang_fpga import FsmDevice, RadixDevice, RadixGeometry
from sglang_fpga.compiler import compile_grammar
from sglang_fpga.metrics import DeviceCollector
from sglang_fpga.models.radix_cache import RadixCache
from sglang_fpga.models.vocab import Vocabulary
from sglang_fpga.serving import GrammarCore, RadixCacheCore, SlotPool

GEO = RadixGeometry(node_cap=4096, token_cap=1 << 16, max_len=256, hash_buckets=1024)


def test_prefix_cache_core_matches_the_golden_cache_on_a_random_stream():
    freed: list[list[int]] = []
    core = RadixCacheCore(RadixDevice("model", geometry=GEO), free=lambda kv: freed.append(
        kv.tolist()))
    ref = RadixCache()
    rng = random.Random(5)
    prompts = [[rng.randrange(1, 1000) for _ in range(rng.randint(5, 60))] for _ in range(8)]
    kv, evictions = 0, 0
    for step in range(400):
        base = rng.choice(prompts)
        toks = base[:rng.randint(1, len(base))] + [rng.randrange(1, 1000)
                                                   for _ in range(rng.randint(0, 20))]
        r = rng.random()
        if r < 0.4:
            length, node = core.match(toks)
            want = ref.match_prefix(toks)
            assert length == want.length, step
            assert core.path_indices(node).tolist() == want.kv_indices.tolist(), step
        elif r < 0.8:
            vals = list(range(kv, kv + len(toks)))
            kv += len(toks)
            assert core.insert(toks, vals)[0] == ref.insert(toks, vals), step
        else:
            n = rng.randint(1, 80)
            freed.clear()
            got = core.evict(n)
            want = ref.evict(n).tolist()
            assert got == len(want), step
            assert [i for chunk in freed for i in chunk] == want, f"eviction order, {step}"
            evictions += bool(want)
        s = core.device.sizes()
        assert (s.evictable, s.protected, s.total) == (
            ref.evictable_size(), ref.protected_size(), ref.total_size()), step
    assert evictions > 10


def test_prefix_cache_core_locks_and_namespaces():
    core = RadixCacheCore(RadixDevice("model", geometry=GEO))
    _, node = core.insert([1, 2, 3], [7, 8, 9])
    _, other = core.insert([1, 2, 3], [4, 5, 6], extra="lora-b")
    assert core.match([1, 2, 3])[0] == 3 and core.path_indices(core.match([1, 2, 3])[1]) \
        .tolist() == [7, 8, 9]
    assert core.path_indices(core.match([1, 2, 3], "lora-b")[1]).tolist() == [4, 5, 6]
    assert core.lock(node) == -3 and core.evict(100) == 3      # only lora-b's entry goes
    assert core.unlock(node) == 3 and core.lock(core.root) == 0


def _vocab() -> Vocabulary:
    return Vocabulary.from_list([b"{", b'"name":"', b"a", b"b", b'"}', b"x", b"y"],
                                eos="<eos>")


def test_grammar_core_accept_rollback_mask_and_jump_forward():
    vocab = _vocab()
    g = compile_grammar(vocab, regex=r'\{"name":"[ab]+"\}')
    dev = FsmDevice("model")
    dev.load(0, g.image)
    core = GrammarCore(SlotPool(dev), 0, g, vocab.tokens.__getitem__)
    jump = core.jump_forward()
    assert jump == ([], '{"name":"'), "the grammar forces the text up to the first letter"
    assert core.accept(0) and core.jump_forward() == ([], '"name":"')
    assert core.accept(1) and core.jump_forward() is None      # a or b: nothing is forced
    assert core.allowed().nonzero()[0].tolist() == [2, 3]
    assert not core.accept(5)                   # "x": refused, and the slot is unharmed
    assert core.accept(2) and core.accept(4)
    assert core.allowed()[vocab.eos_id] and core.accept(vocab.eos_id) and core.terminated
    core.rollback(2)
    assert not core.terminated and core.allowed().nonzero()[0].tolist() == [2, 3, 4]
    twin = core.copy()
    assert twin.slot != core.slot and twin.jump_forward() == jump


def test_metrics_under_sglang_names():
    dev = RadixDevice("model", geometry=GEO)
    dev.insert([1, 2, 3, 4], [0, 1, 2, 3])
    dev.match([1, 2, 9, 9])
    dev.evict(4)
    reg = CollectorRegistry()
    reg.register(DeviceCollector(radix=dev, fsm=FsmDevice("model"), labels={"model_name": "m"}))
    text = generate_latest(reg).decode()
    assert 'sglang:cache_hit_rate{model_name="m"} 0.5' in text
    assert 'sglang:evicted_tokens_total{model_name="m"} 4.0' in text
    assert 'sglang:fpga_radix_calls_total{model_name="m"} 3.0' in text
