# SPDX-License-Identifier: Apache-2.0
"""Regex / JSON schema -> token-FSM tables and the table image the validator loads.

    sglang-fpga-compile compile --regex '(yes|no)' --vocab tokenizer.json -o out/
    sglang-fpga-compile check --image out/fsm.bin --tokens 1,2,3

The command line is the golden model's (``models.token_fsm_cli``); this module adds the
calls a program makes."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass

from .models.json_schema import schema_to_regex
from .models.regex_dfa import compile_regex
from .models.table_image import image_bytes
from .models.token_fsm import TokenFSM
from .models.token_fsm_cli import load_vocab, main
from .models.vocab import Vocabulary

__all__ = ["Grammar", "compile_grammar", "load_vocab", "main"]


@dataclass(frozen=True)
class Grammar:
    pattern: str          # the regex the tables were built from
    fsm: TokenFSM
    image: bytes          # what FsmDevice.load takes


def compile_grammar(vocab: Vocabulary, *, regex: str | None = None,
                    schema: Mapping[str, object] | str | None = None) -> Grammar:
    """Exactly one of ``regex`` (docs/regex-dialect.md) or ``schema`` (a JSON schema, as a
    mapping or JSON text; docs/json-schema.md)."""
    if (regex is None) == (schema is None):
        raise ValueError("give exactly one of regex= or schema=")
    if schema is not None:
        regex = schema_to_regex(json.loads(schema) if isinstance(schema, str) else schema)
    assert regex is not None
    fsm = TokenFSM.build(compile_regex(regex), vocab)
    return Grammar(regex, fsm, image_bytes(fsm.tables))
