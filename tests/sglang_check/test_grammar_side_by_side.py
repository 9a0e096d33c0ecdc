# SPDX-License-Identifier: Apache-2.0
"""The "fpga" grammar backend (SGLang's grammar-object API, on the model back end) beside
xgrammar 0.2.7, the version SGLang 0.5.23 pins, on the same regexes and JSON schemas over
the GPT-2 vocabulary: after every accepted token the two masks are compared token by
token. xgrammar is driven through its own API (SGLang's XGrammarGrammarBackend wants a
Hugging Face tokenizer object; the vocabulary here comes from the GPT-2 tiktoken file).
Runs in the `make sglang-check` venv only.

The JSON schemas compile to compact JSON (docs/json-schema.md), so xgrammar is given the
separators "," and ":" and no free whitespace. Every other difference must be one of the
known ones below, each a fault of one side, and is counted and printed:

* xgrammar admits raw control characters U+0000-U+001F inside a JSON string (RFC 8259
  section 7 requires them escaped);
* xgrammar admits bytes that never occur in UTF-8 (0xC0, 0xC1, 0xF5-0xFF) inside a JSON
  string;
* xgrammar refuses backslash escapes inside a string that has maxLength (RFC 8259 allows
  them; the fpga compiler admits them).
"""

from __future__ import annotations

import json
import random

import numpy as np
import pytest
import torch
import xgrammar as xgr

from sglang_fpga.models.vocab import Vocabulary
from sglang_fpga.sglang.grammar import FpgaGrammar, FpgaGrammarBackend

CASES = [
    ("regex", r'\{"summary":"[a-z ]{1,40}","sentiment":"(positive|neutral|negative)"\}'),
    ("regex", r"(yes|no|maybe)"),
    ("regex", r"-?(0|[1-9][0-9]{0,5})(\.[0-9]{1,3})?"),
    ("json", json.dumps({"type": "object", "properties": {
        "name": {"type": "string", "maxLength": 12}, "ok": {"type": "boolean"}},
        "required": ["name", "ok"], "additionalProperties": False})),
]


@pytest.fixture(scope="module")
def gpt2() -> Vocabulary:
    return Vocabulary.gpt2()


@pytest.fixture(scope="module")
def xgr_compiler(gpt2: Vocabulary) -> xgr.GrammarCompiler:
    info = xgr.TokenizerInfo(list(gpt2.tokens), xgr.VocabType.RAW, vocab_size=len(gpt2),
                             stop_token_ids=[gpt2.eos_id])
    return xgr.GrammarCompiler(info)


def _xgr_allowed(matcher: xgr.GrammarMatcher, vocab_size: int) -> np.ndarray:
    bitmask = xgr.allocate_token_bitmask(1, vocab_size)
    matcher.fill_next_token_bitmask(bitmask)
    words = bitmask[0].numpy().astype(np.uint32)
    bits = np.unpackbits(words.view(np.uint8), bitorder="little")[:vocab_size]
    return bits.astype(bool)


def _fpga_allowed(grammar: FpgaGrammar, vocab_size: int) -> np.ndarray:
    mask = grammar.allocate_vocab_mask(vocab_size, 1, "cpu")
    grammar.fill_vocab_mask(mask, 0)
    return (~mask[0]).numpy()


@pytest.mark.parametrize("kind,spec", CASES)
def test_masks_agree_after_every_token(gpt2, xgr_compiler, kind: str, spec: str):
    backend = FpgaGrammarBackend(gpt2, len(gpt2))
    ours = backend.dispatch_regex(spec) if kind == "regex" else backend.dispatch_json(spec)
    assert isinstance(ours, FpgaGrammar), getattr(ours, "error_message", ours)
    if kind == "regex":
        theirs = xgr.GrammarMatcher(xgr_compiler.compile_regex(spec))
    else:
        theirs = xgr.GrammarMatcher(xgr_compiler.compile_json_schema(
            spec, any_whitespace=False, separators=(",", ":")))
    rng = random.Random(len(spec))
    steps = 0
    known: dict[str, int] = {}
    for _ in range(200):
        a, b = _fpga_allowed(ours, len(gpt2)), _xgr_allowed(theirs, len(gpt2))
        diff = np.flatnonzero(a != b)
        odd = [(int(t), gpt2.tokens[t], bool(a[t])) for t in diff
               if not _known(gpt2.tokens[t], fpga_only=bool(a[t]), counts=known)]
        assert not odd, f"after {steps} tokens: {len(odd)} unexplained, e.g. {odd[:5]}"
        choices = np.flatnonzero(a)
        if choices.size == 0 or ours.is_terminated():
            break
        tok = int(rng.choice(choices))
        ours.accept_token(tok)
        assert theirs.accept_token(tok)
        steps += 1
        if tok == gpt2.eos_id:
            assert ours.is_terminated()
            break
    assert steps > 2
    print(f"{kind} {spec[:40]!r}: {steps} tokens, known differences {known or 'none'}")


def _known(token: bytes, fpga_only: bool, counts: dict[str, int]) -> bool:
    if fpga_only and b"\\" in token:
        reason = "xgrammar refuses escapes under maxLength"
    elif not fpga_only and any(x < 0x20 for x in token):
        reason = "xgrammar admits raw control characters"
    elif not fpga_only and any(x in (0xC0, 0xC1) or x >= 0xF5 for x in token):
        reason = "xgrammar admits bytes never in UTF-8"
    else:
        return False
    counts[reason] = counts.get(reason, 0) + 1
    return True


def test_jump_forward_matches_xgrammar(gpt2, xgr_compiler):
    spec = r'\{"summary":"[a-z]{1,8}"\}'
    ours = FpgaGrammarBackend(gpt2, len(gpt2)).dispatch_regex(spec)
    theirs = xgr.GrammarMatcher(xgr_compiler.compile_regex(spec))
    helper = ours.try_jump_forward(None)
    assert helper is not None, "the grammar forces text at the start"
    text, _ = ours.jump_forward_str_state(helper)
    assert text == theirs.find_jump_forward_string()
    logits = torch.zeros(1, len(gpt2))
    mask = ours.allocate_vocab_mask(len(gpt2), 1, "cpu")
    ours.fill_vocab_mask(mask, 0)
    FpgaGrammar.apply_vocab_mask(logits, mask)
    assert torch.isinf(logits).sum() == len(gpt2) - int((~mask[0]).sum())
