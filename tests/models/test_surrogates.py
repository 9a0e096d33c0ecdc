# SPDX-License-Identifier: Apache-2.0
"""Surrogate code points (U+D800..U+DFFF), pinned for regexes and JSON-schema strings.

One rule for the whole project (models.regex_parse): code-point sets never hold a
surrogate, and a pattern that names one is an error. A surrogate is not a Unicode
scalar value: it has no well-formed UTF-8 encoding (bytes ED A0..BF xx are
rejected by every DFA) and cannot be a character of a JSON document. In JSON
text a pair of \\u escapes (high then low) is one astral character; a lone
\\u escape of a surrogate is refused. docs/regex-dialect.md and
docs/json-schema.md state the same.
"""

from __future__ import annotations

import json

import pytest
import regex

from models.json_schema import RegexDialectError, SchemaError, check_regex_dialect, schema_to_regex
from models.regex_dfa import RegexError, compile_regex
from models.regex_parse import UNIVERSE, complement, normalise

LONE_HIGH = b"\xed\xa0\x80"  # what U+D800 would be in UTF-8 (CESU-style): ill-formed


def fullmatch(pattern: str, text: str) -> bool:
    return regex.fullmatch(pattern, text, flags=regex.ASCII) is not None


def test_code_point_sets_never_hold_surrogates():
    assert complement(()) == UNIVERSE == ((0, 0xD7FF), (0xE000, 0x10FFFF))
    assert normalise([(0xD000, 0xE000)]) == ((0xD000, 0xD7FF), (0xE000, 0xE000))
    assert normalise([(0xD800, 0xDFFF)]) == ()


# --------------------------------------------------------------------------- regex


@pytest.mark.parametrize("pattern", [r"\ud800", r"[\udc00]", r"[a-\udfff]", "\\U0000dfff"])
def test_regex_naming_a_surrogate_is_an_error(pattern):
    with pytest.raises(RegexError, match="surrogate"):
        compile_regex(pattern)
    with pytest.raises(RegexDialectError, match="surrogate"):
        check_regex_dialect(pattern)


def test_regex_range_across_the_surrogates_skips_them():
    dfa = compile_regex(r"[\ud7ff-\ue000]")
    assert dfa.accepts("\ud7ff".encode()) and dfa.accepts("\ue000".encode())
    assert not dfa.accepts(LONE_HIGH)


@pytest.mark.parametrize("pattern", [".", r"[^a]", r"\W", r"\S", r"\D"])
def test_regex_wide_sets_reject_encoded_surrogates(pattern):
    dfa = compile_regex(pattern)
    assert dfa.accepts("😀".encode())
    assert not dfa.accepts(LONE_HIGH)


# --------------------------------------------------------------------------- JSON schema


def test_schema_string_counts_a_pair_as_one_and_refuses_a_lone_escape():
    one = schema_to_regex({"type": "string", "maxLength": 1})
    assert fullmatch(one, '"\\ud83d\\ude00"')  # one character, U+1F600
    assert not fullmatch(one, '"\\ud800"')  # lone high surrogate
    assert not fullmatch(one, '"\\ude00\\ud83d"')  # pair in the wrong order
    assert not compile_regex(one).accepts(b'"' + LONE_HIGH + b'"')


@pytest.mark.parametrize("pattern", [r"^\ud800$", r"[\ud800-\udbff]", "\\udfff"])
def test_schema_pattern_naming_a_surrogate_is_an_error(pattern):
    with pytest.raises(SchemaError, match="surrogate") as info:
        schema_to_regex({"type": "string", "pattern": pattern})
    assert info.value.keyword == "pattern"


def test_schema_pattern_range_across_the_surrogates_skips_them():
    compiled = schema_to_regex({"type": "string", "pattern": r"^[\ud7ff-\ue000]$"})
    for ch in ("\ud7ff", "\ue000"):
        assert fullmatch(compiled, json.dumps(ch, ensure_ascii=False))
    assert not fullmatch(compiled, '"\\ud800"')
    assert not compile_regex(compiled).accepts(b'"' + LONE_HIGH + b'"')


def test_schema_negated_pattern_accepts_astral_not_surrogates():
    compiled = schema_to_regex({"type": "string", "pattern": r"^[^a]$"})
    assert fullmatch(compiled, json.dumps("😀", ensure_ascii=False))
    assert not compile_regex(compiled).accepts(b'"' + LONE_HIGH + b'"')
