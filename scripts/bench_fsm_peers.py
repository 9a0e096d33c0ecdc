# SPDX-License-Identifier: Apache-2.0
"""Software peers of the token-FSM validator, measured in this run: CPU time per vocabulary
mask on the summary/sentiment regex over GPT-2, along one token path.

The path is drawn from the golden model (a seeded walk of allowed tokens), and every
peer is driven along the same tokens, computing the full next-token bitmask after each.
Wall-clock numbers belong here, never in a test. A peer that cannot be imported is
reported as not measured, with the reason; nothing is quoted in its place.
"""

from __future__ import annotations

import json
import os
import random
import statistics
import subprocess
import time
from collections.abc import Callable
from importlib.metadata import version
from pathlib import Path

import numpy as np

from models.token_fsm import TokenFSM
from models.vocab import Vocabulary
from scripts.registry import ROOT

SUMMARY_REGEX = r'\{"summary":"[^"]{1,200}","sentiment":"(positive|neutral|negative)"\}'
STEPS = 48
# xgrammar imports torch, so it is measured in the `make sglang-check` venv (torch and
# xgrammar 0.2.7, SGLang 0.5.23's pin), in a child process given the same token path.
XGRAMMAR_NOTE = "not measured: the make sglang-check venv (torch, xgrammar) could not be built"


def token_path(fsm: TokenFSM, steps: int, seed: int = 1) -> list[int]:
    """A seeded walk of allowed, non-EOS tokens from the start state."""
    rng = random.Random(seed)
    state, path = fsm.start, []
    for _ in range(steps):
        nxt = [int(t) for t in fsm.allowed_ids(state)
               if not fsm.is_final(fsm.advance(state, int(t)))]
        if not nxt:
            break
        tok = rng.choice(nxt)
        path.append(tok)
        state = fsm.advance(state, tok)
    return path


def _timed(step: Callable[[int], None], mask: Callable[[], None], path: list[int]) -> dict:
    """Median and mean CPU microseconds of mask() after each token of path."""
    times = []
    for tok in [None, *path[:-1]]:
        if tok is not None:
            step(tok)
        t0 = time.perf_counter()
        mask()
        times.append((time.perf_counter() - t0) * 1e6)
    return {"masks": len(times), "us_per_mask_median": round(statistics.median(times), 2),
            "us_per_mask_mean": round(statistics.fmean(times), 2)}


def _llguidance(vocab: Vocabulary, path: list[int], regex: str = SUMMARY_REGEX) -> dict:
    try:
        import llguidance
        import llguidance.numpy as llnp
    except ImportError as exc:
        return {"available": False, "note": f"not installed ({exc})"}

    class _Tok:
        eos_token_id = vocab.eos_id
        bos_token_id = None
        tokens = [b"" if i in vocab.special else t for i, t in enumerate(vocab.tokens)]
        special_token_ids = sorted(vocab.special)

        def __call__(self, s: bytes) -> list[int]:
            return vocab.encode_greedy(s)

    tok = llguidance.LLTokenizer(llguidance.TokenizerWrapper(_Tok()))
    m = llguidance.LLMatcher(tok, llguidance.LLMatcher.grammar_from_regex(regex))
    if m.is_error():
        return {"available": False, "note": f"grammar refused: {m.get_error()}"}
    bitmask = llnp.allocate_token_bitmask(1, len(vocab))
    out = _timed(lambda t: m.consume_token(t),
                 lambda: llnp.fill_next_token_bitmask(m, bitmask, 0), path)
    if m.is_error():
        return {"available": False, "note": f"rejected the model's path: {m.get_error()}"}
    return {"available": True, "version": version("llguidance"), **out}


def _outlines(vocab: Vocabulary, path: list[int], regex: str = SUMMARY_REGEX) -> dict:
    try:
        from outlines_core import Guide, Index
        from outlines_core import Vocabulary as OVocab
    except ImportError as exc:
        return {"available": False, "note": f"not installed ({exc})"}
    tokens: dict[bytes, list[int]] = {}
    for i, t in enumerate(vocab.tokens):
        if i not in vocab.special:
            tokens.setdefault(t, []).append(i)
    guide = Guide(Index(regex, OVocab(vocab.eos_id, tokens)))
    words = np.zeros((len(vocab) + 31) // 32, dtype=np.int32)
    out = _timed(lambda t: guide.advance(t),  # raises on a token the guide refuses
                 lambda: guide.write_mask_into(words.ctypes.data, words.size, 4), path)
    return {"available": True, "version": version("outlines-core"), **out}


def xgrammar_peer(vocab: Vocabulary, path: list[int], regex: str = SUMMARY_REGEX) -> dict:
    """Run inside a venv with xgrammar (the sglang-check one): the same harness."""
    import torch  # noqa: F401 - xgrammar's bitmask is a torch tensor
    import xgrammar as xgr

    info = xgr.TokenizerInfo(list(vocab.tokens), xgr.VocabType.RAW, vocab_size=len(vocab),
                             stop_token_ids=[vocab.eos_id])
    matcher = xgr.GrammarMatcher(xgr.GrammarCompiler(info).compile_regex(regex))
    bitmask = xgr.allocate_token_bitmask(1, len(vocab))

    def step(t: int) -> None:
        if not matcher.accept_token(t):
            raise ValueError(f"xgrammar refused token {t} of the model's path")

    out = _timed(step, lambda: matcher.fill_next_token_bitmask(bitmask), path)
    return {"available": True, "version": version("xgrammar"), **out}


def sglang_venv() -> Path | str:
    """The sglang-check venv's python, built or reused; the reason as a string if it fails."""
    try:
        from scripts import sglang_check
        return sglang_check.ensure_venv()
    except Exception as exc:  # noqa: BLE001 - any failure to build it is reported, not raised
        return f"{XGRAMMAR_NOTE} ({exc})"


def _xgrammar(path: list[int], python: Path | str) -> dict:
    if isinstance(python, str):
        return {"available": False, "note": python}
    code = ("import json, sys; from models.vocab import Vocabulary; "
            "from scripts.bench_fsm_peers import xgrammar_peer; "
            "print(json.dumps(xgrammar_peer(Vocabulary.gpt2(), json.loads(sys.argv[1]))))")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = str(ROOT)
    proc = subprocess.run([str(python), "-W", "ignore", "-c", code, json.dumps(path)],
                          cwd=ROOT, env=env, capture_output=True, text=True)
    if proc.returncode != 0:
        return {"available": False, "note": f"xgrammar run failed: {proc.stderr[-300:]}"}
    return json.loads(proc.stdout.strip().splitlines()[-1])


def run(steps: int = STEPS, python: Path | str | None = None) -> dict:
    """`python`: the sglang-check venv's interpreter when the caller has it already."""
    vocab = Vocabulary.gpt2()
    fsm = TokenFSM.from_regex(SUMMARY_REGEX, vocab)
    path = token_path(fsm, steps)
    return {"grammar": "summary/sentiment regex, GPT-2", "vocab": len(vocab),
            "path_tokens": len(path),
            "peers": {"llguidance": _llguidance(vocab, path),
                      "outlines-core": _outlines(vocab, path),
                      "xgrammar": _xgrammar(path, python or sglang_venv())}}


def rows(r: dict) -> list[str]:
    out = []
    for name, p in r["peers"].items():
        if p.get("available"):
            out.append(f"| {name} {p['version']}: one mask, CPU of this machine | | "
                       f"{p['us_per_mask_median']} µs median over {p['masks']} masks "
                       f"(mean {p['us_per_mask_mean']} µs) |")
        else:
            out.append(f"| {name} | | {p['note']} |")
    return out


if __name__ == "__main__":
    print(json.dumps(run(), indent=1))
