# SPDX-License-Identifier: Apache-2.0
"""Seeded request traces and a scheduler-like replay of them through the RadixCache model.

A trace is a list of ``Request``s (prompt tokens, generated output tokens, namespace). ``replay``
runs it the way SGLang's scheduler drives ``RadixCache``: match capped at ``len(prompt) - 1``,
lock, allocate KV slots from a fixed pool (evicting when short), insert prompt + output on
finish, free the duplicate slots, unlock. It reports SGLang's metric names.

CLI::

    python -m models.workloads --workload multi_turn --capacity 65536 --page-size 1
    python -m models.workloads --plot build/hit_rate.png
"""

from __future__ import annotations

import argparse
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .radix_cache import Node, RadixCache

__all__ = [
    "Request",
    "ReplayMetrics",
    "WORKLOADS",
    "VOCAB",
    "system_prompt",
    "multi_turn",
    "parallel_sampling",
    "ecommerce_qa",
    "no_sharing",
    "replay",
    "working_set_tokens",
    "main",
]

VOCAB = 32_000  # a Llama-sized vocabulary; tokens are drawn uniformly from it


@dataclass(frozen=True, eq=False)
class Request:
    prompt: np.ndarray  # int64 input token ids
    output: np.ndarray  # int64 tokens the model "generates"; inserted with the prompt on finish
    namespace: int = 0  # SGLang extra_key (LoRA id / cache salt)

    @property
    def tokens(self) -> np.ndarray:
        return np.concatenate([self.prompt, self.output])


@dataclass
class ReplayMetrics:
    capacity_tokens: int
    page_size: int
    requests: int  # admitted and served
    refused_requests: int  # could never fit, even with an empty pool (see replay())
    input_tokens: int  # hit + new input tokens over served requests
    cached_tokens_total: int  # sglang:cached_tokens_total (== hit tokens)
    cache_hit_rate: float  # sglang:cache_hit_rate = hit / (hit + new input tokens)
    evicted_tokens_total: int  # sglang:evicted_tokens_total
    token_usage: float  # sglang:token_usage, mean over admissions
    token_usage_peak: float
    kv_evictable_tokens: int  # sglang:kv_evictable_tokens after the trace drained
    cache_tokens: int  # tokens held by the tree after the trace drained
    slots_used_peak: int  # most KV slots ever taken (tree + in-flight requests)
    free_slots: int  # pool slots free after the trace drained (+ cache_tokens == capacity)
    hit_rate_windows: list[float] = field(default_factory=list)  # hit rate over time


# ------------------------------------------------------------------------------- workloads


def system_prompt(seed: int = 0, requests: int = 800) -> list[Request]:
    """Few-shot serving: 4 system prompts (instructions + 3-5 worked examples, ~450-750
    tokens), picked with skewed popularity, each followed by a unique user question."""
    rng = np.random.default_rng(seed)
    prompts = []
    for _ in range(4):
        parts = [_toks(rng, 256)] + [
            _toks(rng, int(rng.integers(64, 128))) for _ in range(int(rng.integers(3, 6)))
        ]
        prompts.append(np.concatenate(parts))
    weights = np.array([0.45, 0.25, 0.18, 0.12])
    out = []
    for _ in range(requests):
        sp = prompts[int(rng.choice(4, p=weights))]
        question = _toks(rng, int(rng.integers(32, 160)))
        out.append(Request(np.concatenate([sp, question]), _toks(rng, int(rng.integers(16, 128)))))
    return out


def multi_turn(seed: int = 0, requests: int = 800) -> list[Request]:
    """Chat: each turn's prompt is the whole conversation so far (system prompt, earlier user
    messages and replies) plus a new user message. 16 conversations are live at once; a turn is
    picked from the 8 least recently served, so a reply always finishes before the next turn
    of the same conversation arrives (the replay runs at most 4 requests at once)."""
    rng = np.random.default_rng(seed)
    system = _toks(rng, 128)

    def new_conv() -> list:
        return [np.array(system), int(rng.integers(3, 10))]  # history, turns left

    live: deque[list] = deque(new_conv() for _ in range(16))
    out = []
    for _ in range(requests):
        pick = int(rng.integers(0, 8))
        conv = live[pick]
        del live[pick]
        prompt = np.concatenate([conv[0], _toks(rng, int(rng.integers(16, 120)))])
        reply = _toks(rng, int(rng.integers(24, 200)))
        out.append(Request(prompt, reply))
        conv[0] = np.concatenate([prompt, reply])
        conv[1] -= 1
        live.append(conv if conv[1] > 0 else new_conv())
    return out


def parallel_sampling(seed: int = 0, requests: int = 800) -> list[Request]:
    """Tree-of-thought: per problem, a 200-400 token prompt is cached first (SGLang's fork
    pre-caches the shared prefix with a zero-output request), then a 3-ary thought tree of
    depth 3 is expanded breadth first; each node's prompt is the problem plus the thoughts on
    its path plus a short step instruction, its output is the new thought."""
    rng = np.random.default_rng(seed)
    step = _toks(rng, 8)
    out: list[Request] = []
    while len(out) < requests:
        problem = _toks(rng, int(rng.integers(200, 400)))
        out.append(Request(problem, _toks(rng, 0)))
        frontier = [problem]
        for _depth in range(3):
            nxt = []
            for path in frontier:
                for _branch in range(3):
                    thought = _toks(rng, int(rng.integers(40, 120)))
                    out.append(Request(np.concatenate([path, step]), thought))
                    nxt.append(np.concatenate([path, step, thought]))
            frontier = nxt
    return out[:requests]


def ecommerce_qa(seed: int = 0, requests: int = 1200) -> list[Request]:
    """The source document's e-commerce QA. Two stores (namespaces 0 and 1, 70/30 traffic),
    each with an assistant template (instructions + answer-format examples). A catalogue of 60
    products per store in 8 categories: prompt = template + category header + product page +
    user question. Product popularity is Zipf-like; 70% of questions come from a per-category
    bank of common questions (also Zipf), 30% are free text."""
    rng = np.random.default_rng(seed)
    stores = []
    for _store in range(2):
        template = np.concatenate([_toks(rng, 192), _toks(rng, 128)])
        headers = [_toks(rng, 64) for _ in range(8)]
        banks = [[_toks(rng, int(rng.integers(10, 32))) for _ in range(25)] for _ in range(8)]
        products = []
        for _ in range(60):
            cat = int(rng.integers(0, 8))
            page = np.concatenate([_toks(rng, int(rng.integers(160, 320))), _toks(rng, 64)])
            products.append((cat, np.concatenate([template, headers[cat], page])))
        stores.append((products, banks))
    product_w = _zipf(60, 1.1)
    question_w = _zipf(25, 1.2)
    out = []
    for _ in range(requests):
        ns = 0 if rng.random() < 0.7 else 1
        products, banks = stores[ns]
        cat, context = products[int(rng.choice(60, p=product_w))]
        if rng.random() < 0.7:
            question = banks[cat][int(rng.choice(25, p=question_w))]
        else:
            question = _toks(rng, int(rng.integers(12, 48)))
        answer = _toks(rng, int(rng.integers(24, 96)))
        out.append(Request(np.concatenate([context, question]), answer, namespace=ns))
    return out


def no_sharing(seed: int = 0, requests: int = 400) -> list[Request]:
    """Baseline: every prompt is fresh random tokens; any hit is a chance collision."""
    rng = np.random.default_rng(seed)
    return [
        Request(_toks(rng, int(rng.integers(200, 800))), _toks(rng, int(rng.integers(16, 128))))
        for _ in range(requests)
    ]


WORKLOADS: dict[str, Callable[..., list[Request]]] = {
    "system_prompt": system_prompt,
    "multi_turn": multi_turn,
    "parallel_sampling": parallel_sampling,
    "ecommerce_qa": ecommerce_qa,
    "no_sharing": no_sharing,
}


# ---------------------------------------------------------------------------------- replay


def replay(
    trace: Sequence[Request],
    capacity_tokens: int,
    page_size: int = 1,
    *,
    concurrency: int = 4,
    windows: int = 10,
    cache: RadixCache | None = None,
) -> ReplayMetrics:
    """Serve the trace in order with up to ``concurrency`` requests in flight over a pool of
    ``capacity_tokens`` KV slots.

    A request reserves slots for its unmatched prompt *and* its output when admitted (SGLang
    grows decode memory token by token; reserving up front keeps the replay one-pass). When
    the pool is short: evict the shortfall from the cache; if still short, finish the oldest
    running request (its insert + unlock makes more evictable) and retry; if nothing is
    running and it is still short, the request can never fit and is *refused* (SGLang rejects
    such a request at admission): it is unlocked, counted in ``refused_requests`` and left out
    of every hit-rate metric.
    """
    if capacity_tokens < 0 or concurrency < 1 or windows < 1:
        raise ValueError("capacity_tokens >= 0, concurrency >= 1 and windows >= 1 required")
    cache = cache if cache is not None else RadixCache(page_size)
    page = cache.page_size
    free: deque[int] = deque(range(capacity_tokens))
    running: deque[tuple[Request, np.ndarray, int, Node]] = deque()
    hits: list[int] = []
    inputs: list[int] = []
    usage: list[float] = []
    refused = 0
    evicted = 0
    peak = 0

    def finish() -> None:
        req, kv, matched, node = running.popleft()
        tokens = req.tokens
        prefix = cache.insert(tokens, kv, req.namespace)
        assert prefix >= matched, "a locked prefix vanished"
        aligned = len(tokens) - len(tokens) % page
        free.extend(kv[matched:prefix].tolist())  # duplicates: the tree kept its own
        free.extend(kv[aligned:].tolist())  # the partial page is never cached
        cache.dec_lock_ref(node)

    for req in trace:
        # SGLang caps the match so at least one token is computed to produce logits.
        hit = cache.match_prefix(req.prompt[: max(len(req.prompt) - 1, 0)], req.namespace)
        cache.inc_lock_ref(hit.node)
        need = len(req.prompt) + len(req.output) - hit.length
        while len(free) < need:
            freed = cache.evict(need - len(free))
            evicted += len(freed)
            free.extend(freed.tolist())
            if len(free) >= need or not running:
                break
            finish()
        if len(free) < need:
            cache.dec_lock_ref(hit.node)
            refused += 1
            continue
        new = np.fromiter((free.popleft() for _ in range(need)), dtype=np.int64, count=need)
        running.append((req, np.concatenate([hit.kv_indices, new]), hit.length, hit.node))
        hits.append(hit.length)
        inputs.append(len(req.prompt))
        peak = max(peak, capacity_tokens - len(free))
        if capacity_tokens:
            used = capacity_tokens - len(free) - cache.evictable_size()
            usage.append(used / capacity_tokens)
        if len(running) >= concurrency:
            finish()
    while running:
        finish()

    hit_total, input_total = sum(hits), sum(inputs)
    return ReplayMetrics(
        capacity_tokens=capacity_tokens,
        page_size=page,
        requests=len(hits),
        refused_requests=refused,
        input_tokens=input_total,
        cached_tokens_total=hit_total,
        cache_hit_rate=hit_total / input_total if input_total else 0.0,
        evicted_tokens_total=evicted,
        token_usage=float(np.mean(usage)) if usage else 0.0,
        token_usage_peak=max(usage, default=0.0),
        kv_evictable_tokens=cache.evictable_size(),
        cache_tokens=cache.total_size(),
        slots_used_peak=peak,
        free_slots=len(free),
        hit_rate_windows=_windows(hits, inputs, windows),
    )


def working_set_tokens(trace: Sequence[Request], page_size: int = 1, concurrency: int = 4) -> int:
    """Peak KV slots of an unbounded replay (the tree plus the in-flight requests' slots,
    duplicates included): the smallest capacity at which nothing is ever evicted."""
    unbounded = sum(len(r.prompt) + len(r.output) for r in trace)
    return replay(trace, unbounded, page_size, concurrency=concurrency).slots_used_peak


# ------------------------------------------------------------------------------------- CLI


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m models.workloads",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    ap.add_argument("--workload", default="all", choices=["all", *WORKLOADS])
    ap.add_argument(
        "--capacity",
        type=int,
        default=None,
        help="KV pool size in tokens (default: each workload's working set)",
    )
    ap.add_argument("--page-size", type=int, default=1)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument(
        "--requests",
        type=int,
        default=None,
        help="trace length (default: per workload, sized so a replay takes about a second)",
    )
    ap.add_argument("--concurrency", type=int, default=4)
    ap.add_argument(
        "--plot",
        type=Path,
        default=None,
        help="write a PNG of hit rate vs capacity (swept over fractions of the "
        "working set) for the selected workloads",
    )
    args = ap.parse_args(argv)

    names = list(WORKLOADS) if args.workload == "all" else [args.workload]
    traces = {}
    for name in names:
        kwargs = {} if args.requests is None else {"requests": args.requests}
        traces[name] = WORKLOADS[name](seed=args.seed, **kwargs)

    header = (
        f"{'workload':<18} {'reqs':>5} {'capacity':>9} {'working set':>11} "
        f"{'hit rate':>8} {'token_usage':>11} {'evicted':>8} {'cached':>8} {'refused':>7}"
        "  hit rate over time"
    )
    print(header)
    print("-" * len(header))
    for name, trace in traces.items():
        ws = working_set_tokens(trace, args.page_size, args.concurrency)
        cap = ws if args.capacity is None else args.capacity
        m = replay(trace, cap, args.page_size, concurrency=args.concurrency)
        over_time = " ".join(f"{h:.2f}" for h in m.hit_rate_windows)
        print(
            f"{name:<18} {m.requests:>5} {cap:>9} {ws:>11} {m.cache_hit_rate:>8.1%} "
            f"{m.token_usage:>11.3f} {m.evicted_tokens_total:>8} {m.cached_tokens_total:>8} "
            f"{m.refused_requests:>7}  {over_time}"
        )

    if args.plot is not None:
        _plot(traces, args.page_size, args.concurrency, args.plot)
        print(f"wrote {args.plot}")
    return 0


# --------------------------------------------------------------------------------- helpers


def _toks(rng: np.random.Generator, n: int) -> np.ndarray:
    return rng.integers(0, VOCAB, n, dtype=np.int64)


def _zipf(n: int, a: float) -> np.ndarray:
    w = 1.0 / np.arange(1, n + 1) ** a
    return w / w.sum()


def _windows(hits: list[int], inputs: list[int], count: int) -> list[float]:
    out = []
    for chunk in np.array_split(np.arange(len(hits)), min(count, len(hits))):
        h = sum(hits[i] for i in chunk)
        t = sum(inputs[i] for i in chunk)
        out.append(h / t if t else 0.0)
    return out


def _plot(traces: dict[str, list[Request]], page_size: int, concurrency: int, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fractions = [0.02, 0.05, 0.1, 0.2, 0.35, 0.5, 0.75, 1.0]
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for name, trace in traces.items():
        ws = working_set_tokens(trace, page_size, concurrency)
        caps = [max(1, int(ws * f)) for f in fractions]
        rates = [replay(trace, c, page_size, concurrency=concurrency).cache_hit_rate for c in caps]
        ax.plot(caps, rates, marker="o", label=f"{name} (ws {ws})")
    ax.axhline(0.85, color="grey", linestyle="--", linewidth=0.8, label="85% target")
    ax.set_xscale("log")
    ax.set_xlabel("KV pool capacity (tokens)")
    ax.set_ylabel("sglang:cache_hit_rate")
    ax.set_ylim(0, 1)
    ax.set_title(f"RadixCache model: hit rate vs capacity (page_size={page_size})")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


if __name__ == "__main__":
    raise SystemExit(main())
