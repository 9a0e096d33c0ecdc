# SPDX-License-Identifier: Apache-2.0
"""Workload generators and the scheduler-like replay."""

from __future__ import annotations

import numpy as np
import pytest

from models import workloads as wl
from models.radix_cache import RadixCache

NAMES = list(wl.WORKLOADS)


def as_lists(trace: list[wl.Request]) -> list[tuple[list[int], list[int], int]]:
    return [(r.prompt.tolist(), r.output.tolist(), r.namespace) for r in trace]


@pytest.mark.parametrize("name", NAMES)
def test_traces_are_deterministic_per_seed(name):
    gen = wl.WORKLOADS[name]
    a, b, c = gen(seed=3, requests=60), gen(seed=3, requests=60), gen(seed=4, requests=60)
    assert len(a) == 60
    assert as_lists(a) == as_lists(b)
    assert as_lists(a) != as_lists(c)
    for r in a:
        assert r.prompt.dtype == np.int64 and len(r.prompt) > 1
        assert r.prompt.min() >= 0 and r.prompt.max() < wl.VOCAB


@pytest.mark.parametrize("name", NAMES)
def test_replay_is_deterministic_and_metrics_are_sane(name):
    trace = wl.WORKLOADS[name](seed=1, requests=150)
    ws = wl.working_set_tokens(trace)
    cap = ws // 3
    m1 = wl.replay(trace, cap)
    m2 = wl.replay(trace, cap)
    assert m1 == m2
    assert m1.requests + m1.refused_requests == len(trace)
    assert m1.input_tokens == sum(len(r.prompt) for r in trace)
    assert 0.0 <= m1.cache_hit_rate <= 1.0
    assert m1.cached_tokens_total == round(m1.cache_hit_rate * m1.input_tokens)
    assert 0.0 <= m1.token_usage <= m1.token_usage_peak <= 1.0
    assert len(m1.hit_rate_windows) == 10
    assert m1.slots_used_peak <= cap
    # Every slot is either free or owned by the tree once the trace has drained.
    assert m1.free_slots + m1.cache_tokens == cap
    assert m1.kv_evictable_tokens == m1.cache_tokens  # nothing is locked any more


def test_replay_conserves_kv_slots_in_the_tree():
    trace = wl.multi_turn(seed=2, requests=200)
    cap = wl.working_set_tokens(trace) // 5
    cache = RadixCache()
    m = wl.replay(trace, cap, cache=cache)
    values = [v for i in cache.nodes() for v in i.value]
    assert len(values) == len(set(values)) == m.cache_tokens
    assert all(0 <= v < cap for v in values)
    assert m.evicted_tokens_total > 0  # the pool was really under pressure


@pytest.mark.parametrize("page", [1, 4, 16])
def test_working_set_capacity_never_evicts(page):
    trace = wl.system_prompt(seed=0, requests=120)
    ws = wl.working_set_tokens(trace, page)
    assert wl.replay(trace, ws, page).evicted_tokens_total == 0
    assert wl.replay(trace, ws - 200, page).evicted_tokens_total > 0


def test_hit_rate_grows_with_capacity_and_sharing():
    trace = wl.system_prompt(seed=0, requests=200)
    ws = wl.working_set_tokens(trace)
    small = wl.replay(trace, ws // 40).cache_hit_rate
    full = wl.replay(trace, ws).cache_hit_rate
    assert small < full
    assert wl.replay(wl.no_sharing(seed=0, requests=100), 10**6).cache_hit_rate < 0.01


def test_ecommerce_qa_beats_85_percent_at_working_set():
    trace = wl.ecommerce_qa(seed=0)
    m = wl.replay(trace, wl.working_set_tokens(trace))
    assert m.cache_hit_rate > 0.85, m
    assert m.hit_rate_windows[-1] > m.hit_rate_windows[0]  # cold start, then warm
    assert {r.namespace for r in trace} == {0, 1}


@pytest.mark.parametrize("name", ["system_prompt", "multi_turn", "parallel_sampling"])
def test_sharing_workloads_hit_well_at_working_set(name):
    trace = wl.WORKLOADS[name](seed=0)
    assert wl.replay(trace, wl.working_set_tokens(trace)).cache_hit_rate > 0.75


def test_match_is_capped_below_prompt_length():
    prompt = np.arange(10, dtype=np.int64)
    trace = [wl.Request(prompt, np.array([], dtype=np.int64))] * 2
    m = wl.replay(trace, 100, concurrency=1)
    assert m.cached_tokens_total == 9  # the second request recomputes its last token


def test_request_larger_than_pool_is_refused_and_unlocked():
    big = wl.Request(np.arange(50, dtype=np.int64), np.arange(10, dtype=np.int64))
    small = wl.Request(np.arange(100, 110, dtype=np.int64), np.arange(5, dtype=np.int64))
    cache = RadixCache()
    m = wl.replay([small, big, small], 40, cache=cache)
    assert (m.requests, m.refused_requests) == (2, 1)
    assert cache.protected_size() == 0
    assert m.input_tokens == 20


def test_replay_rejects_bad_arguments():
    with pytest.raises(ValueError):
        wl.replay([], -1)
    with pytest.raises(ValueError):
        wl.replay([], 10, concurrency=0)


def test_cli_prints_table(capsys):
    assert (
        wl.main(
            [
                "--workload",
                "multi_turn",
                "--capacity",
                "65536",
                "--page-size",
                "1",
                "--seed",
                "3",
                "--requests",
                "80",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "multi_turn" in out and "65536" in out and "hit rate" in out


def test_cli_plot_writes_png(tmp_path, capsys):
    png = tmp_path / "hit.png"
    assert wl.main(["--workload", "no_sharing", "--requests", "40", "--plot", str(png)]) == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert str(png) in capsys.readouterr().out
