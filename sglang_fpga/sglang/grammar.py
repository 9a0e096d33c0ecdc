# SPDX-License-Identifier: Apache-2.0
"""Grammar backend "fpga": constrained decoding on an FsmDevice (the token-FSM validator).

Regex and JSON-schema keys compile through the project's compiler (docs/regex-dialect.md,
docs/json-schema.md) into a table image loaded into a grammar bank; each request's
matcher runs on a validator slot. EBNF and structural tags are not supported: they fall
back to SGLang's "unsupported grammar" object with a message saying so. Masks are bool
tensors, True where a token is blocked."""

from __future__ import annotations

import json
import logging
import os
import tempfile
from typing import Any

import torch
from sglang.srt.constrained.base_grammar_backend import (
    BaseGrammarBackend,
    BaseGrammarObject,
    InvalidGrammarObject,
    register_grammar_backend,
)

from ..backends.fsm_model import FsmGeometry
from ..compiler import Grammar, compile_grammar
from ..fsm_device import FsmDevice
from ..models.vocab import Vocabulary
from ..serving import GrammarCore, SlotPool

logger = logging.getLogger(__name__)
SERVING_GEOMETRY = FsmGeometry(vocab_max=1 << 18, state_w=16, class_w=16, ns_cap=1 << 26,
                               row_cap=1 << 16,
                               n_slots=1024, n_grammars=64)


class FpgaGrammar(BaseGrammarObject):
    def __init__(self, core: GrammarCore, vocab_size: int) -> None:
        super().__init__()
        self.core, self.vocab_size = core, vocab_size

    def accept_token(self, token: int) -> None:
        self.current_token = token
        if not self.core.accept(token):
            raise ValueError(f"token {token} not accepted by grammar "
                             f"{self.core.grammar.pattern!r}")

    def rollback(self, k: int) -> None:
        self.core.rollback(k)

    def is_terminated(self) -> bool:
        return self.core.terminated

    def allocate_vocab_mask(self, vocab_size: int, batch_size: int,
                            device: Any) -> torch.Tensor:
        return torch.zeros((batch_size, vocab_size), dtype=torch.bool, device=device)

    def fill_vocab_mask(self, vocab_mask: torch.Tensor, idx: int) -> None:
        allowed = torch.from_numpy(self.core.allowed())
        row = vocab_mask[idx]
        row.fill_(True)
        n = min(len(allowed), row.shape[0])
        row[:n] = ~allowed[:n].to(row.device)

    @staticmethod
    def reset_vocab_mask(vocab_mask: torch.Tensor) -> None:
        vocab_mask.fill_(False)

    @staticmethod
    def move_vocab_mask(vocab_mask: torch.Tensor, device: Any) -> torch.Tensor:
        return vocab_mask.to(device, non_blocking=True)

    @staticmethod
    def apply_vocab_mask(logits: torch.Tensor, vocab_mask: torch.Tensor) -> None:
        logits.masked_fill_(vocab_mask[:, :logits.shape[-1]], float("-inf"))

    def copy(self) -> FpgaGrammar:
        return FpgaGrammar(self.core.copy(), self.vocab_size)

    def try_jump_forward(self, tokenizer: Any) -> tuple[list[int], str] | None:
        return self.core.jump_forward()

    def jump_forward_str_state(self, helper: tuple[list[int], str]) -> tuple[str, int]:
        return helper[1], -1

    def jump_and_retokenize(self, old_output_ids: list[int], new_output_ids: list[int],
                            next_state: int) -> None:
        k = 0
        for old, new in zip(old_output_ids, new_output_ids, strict=False):
            if old != new:
                break
            k += 1
        self.core.rollback(len(old_output_ids) - k)
        for tok in new_output_ids[k:]:
            self.accept_token(tok)

    def __del__(self) -> None:
        core = getattr(self, "core", None)
        if core is not None:
            core.release()


class FpgaGrammarBackend(BaseGrammarBackend):
    def __init__(self, vocab: Vocabulary, vocab_size: int,
                 device: FsmDevice | None = None) -> None:
        super().__init__()
        self.vocab, self.vocab_size = vocab, vocab_size
        self.device = device or FsmDevice(os.environ.get("SGLANG_FPGA_BACKEND", "model"),
                                          geometry=SERVING_GEOMETRY)
        self.pool = SlotPool(self.device)
        self.banks: dict[str, tuple[int, Grammar]] = {}

    def dispatch_regex(self, key_string: str) -> BaseGrammarObject:
        return self._compiled("regex", key_string, regex=key_string)

    def dispatch_json(self, key_string: str) -> BaseGrammarObject:
        schema = {} if key_string == "$$ANY$$" else json.loads(key_string)
        return self._compiled("json", key_string, schema=schema)

    def dispatch_ebnf(self, key_string: str) -> BaseGrammarObject:
        return self._unsupported("ebnf")

    def dispatch_structural_tag(self, key_string: str) -> BaseGrammarObject:
        return self._unsupported("structural_tag")

    def _compiled(self, kind: str, key: str, **spec: Any) -> BaseGrammarObject:
        try:
            if key not in self.banks:
                if len(self.banks) >= self.device.geometry.n_grammars:
                    raise ValueError("every grammar bank of the device is in use")
                grammar = compile_grammar(self.vocab, **spec)
                bank = len(self.banks)
                self.device.load(bank, grammar.image)
                self.banks[key] = (bank, grammar)
            bank, grammar = self.banks[key]
            core = GrammarCore(self.pool, bank, grammar, self.vocab.tokens.__getitem__)
        except (ValueError, RuntimeError) as exc:
            logger.warning("fpga grammar backend: %s %r not compiled: %s", kind, key, exc)
            return InvalidGrammarObject(f"fpga grammar backend: {exc}")
        return FpgaGrammar(core, self.vocab_size)

    def _unsupported(self, kind: str) -> BaseGrammarObject:
        msg = (f"the fpga grammar backend compiles regex and JSON-schema keys only; "
               f"{kind} is not supported (use --grammar-backend xgrammar for it)")
        logger.warning(msg)
        return InvalidGrammarObject(msg)


def vocabulary_of(tokenizer: Any) -> Vocabulary:
    """The exact token bytes of a Hugging Face fast tokenizer."""
    backend = getattr(tokenizer, "backend_tokenizer", None)
    if backend is None:
        raise ValueError("the fpga grammar backend needs a Hugging Face fast tokenizer")
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "tokenizer.json")
        with open(path, "w", encoding="utf-8") as f:
            f.write(backend.to_str())
        return Vocabulary.from_hf_tokenizer_json(path, eos=tokenizer.eos_token_id)


def init_backend(server_args: Any, tokenizer: Any, vocab_size: int,
                 eos_token_ids: set[int] | None = None) -> FpgaGrammarBackend:
    """For register_grammar_backend: SGLang calls it with these four arguments."""
    return FpgaGrammarBackend(vocabulary_of(tokenizer), vocab_size)


def register_grammar() -> None:
    register_grammar_backend("fpga", init_backend)
