# SPDX-License-Identifier: Apache-2.0
"""models.json_schema: schema -> regex, checked against jsonschema and the regex oracle.

Soundness (every string the regex accepts validates) is tested from both sides:
valid instances from a seeded generator must match, near-miss mutations that
jsonschema rejects must not, and strings sampled from the compiled ByteDFA
must validate. Replay a failing seed with `pytest -k <test> ` + the seed
printed in the assertion message.

Length: one suite for one compiler: the schemas, the instance generator and the
mutators at the top are shared by nearly every test below, and most of the
length is case tables (patterns, unsupported keywords) that read best in one place.
"""

from __future__ import annotations

import copy
import json
import random
import re
from typing import Any

import jsonschema
import numpy as np
import pytest
import regex
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from models.json_schema import (
    FINANCIAL_SUMMARY_SCHEMA,
    JSON_STRING,
    SchemaError,
    check_regex_dialect,
    escape_literal,
    integer_range_regex,
    schema_to_regex,
)


def fullmatch(pattern: str, text: str) -> bool:
    return regex.fullmatch(pattern, text, flags=regex.ASCII) is not None


def compact(doc: Any, ensure_ascii: bool = False) -> str:
    return json.dumps(doc, separators=(",", ":"), ensure_ascii=ensure_ascii)


def is_valid(doc: Any, schema: dict) -> bool:
    return jsonschema.Draft202012Validator(schema).is_valid(doc)


# --------------------------------------------------------------------------- schemas

PERSON = {
    "title": "Person",
    "description": "annotations like this one must be ignored",
    "type": "object",
    "properties": {
        "name": {"type": "string", "minLength": 1, "maxLength": 20},
        "age": {"type": "integer", "minimum": 0, "maximum": 150},
        "email": {
            "type": "string",
            "pattern": r"^[a-z0-9._]+@[a-z0-9]+\.[a-z]{2,4}$",
            "examples": ["ada@example.com", "a.b_c@x9.io"],
        },
        "tags": {
            "type": "array",
            "items": {"enum": ["admin", "dev", "ops"]},
            "maxItems": 3,
        },
        "address": {
            "type": "object",
            "properties": {
                "street": {"type": "string"},
                "city": {"type": "string", "maxLength": 12},
                "zip": {"type": "string", "pattern": r"^\d{5}$", "examples": ["02139", "94105"]},
            },
            "required": ["city"],
            "additionalProperties": False,
        },
        "active": {"type": "boolean", "default": True},
        "nickname": {"anyOf": [{"type": "string", "maxLength": 8}, {"type": "null"}]},
    },
    "required": ["name", "active"],
    "additionalProperties": False,
}

ALL_OPTIONAL = {
    "type": "object",
    "properties": {
        "a": {"type": "integer"},
        "b": {"type": "string", "maxLength": 3},
        "c": {"type": "boolean"},
        "d": {"type": "null"},
    },
    "additionalProperties": False,
}

SEGMENT = {
    "$defs": {
        "Point": {
            "type": "object",
            "properties": {"x": {"type": "number"}, "y": {"type": "number"}},
            "required": ["x", "y"],
            "additionalProperties": False,
        }
    },
    "type": "object",
    "properties": {"start": {"$ref": "#/$defs/Point"}, "end": {"$ref": "#/$defs/Point"}},
    "required": ["start", "end"],
    "additionalProperties": False,
}

SHAPE = {
    "oneOf": [
        {
            "type": "object",
            "properties": {"kind": {"const": "circle"}, "r": {"type": "number"}},
            "required": ["kind", "r"],
            "additionalProperties": False,
        },
        {
            "type": "object",
            "properties": {
                "kind": {"const": "rect"},
                "w": {"type": "integer", "exclusiveMinimum": 0},
                "h": {"type": "integer", "exclusiveMinimum": 0, "exclusiveMaximum": 1000},
            },
            "required": ["kind", "w", "h"],
            "additionalProperties": False,
        },
        {"type": "null"},
    ]
}

LITERALS = {
    "type": "object",
    "properties": {
        "mixed": {"enum": [1, "a", None, True, [1, 2], {"k": "v"}, 2.5, 'x"y\\z']},
        "version": {"const": {"major": 1, "tags": ["a.b", "(c)"]}},
        "level": {"type": "integer", "enum": [1, 2, "3", True]},
    },
    "required": ["mixed", "version", "level"],
    "additionalProperties": False,
}

NUMBERS = {
    "type": "object",
    "properties": {
        "n": {"type": "number"},
        "i": {"type": "integer"},
        "neg": {"type": "integer", "minimum": -250, "maximum": -7},
        "span": {"type": "integer", "minimum": -12, "maximum": 345},
        "low": {"type": "integer", "maximum": 9},
        "big": {"type": "integer", "minimum": 1000},
        "matrix": {
            "type": "array",
            "items": {"type": "array", "items": {"type": "number"}, "minItems": 2, "maxItems": 2},
            "minItems": 1,
        },
        "maybe": {"type": ["string", "null", "boolean"], "maxLength": 2},
    },
    "required": ["n", "i", "neg", "span", "low", "big", "matrix", "maybe"],
    "additionalProperties": False,
}

SCHEMAS = {
    "financial": FINANCIAL_SUMMARY_SCHEMA,
    "person": PERSON,
    "all_optional": ALL_OPTIONAL,
    "segment": SEGMENT,
    "shape": SHAPE,
    "literals": LITERALS,
    "numbers": NUMBERS,
}

# --------------------------------------------------------------------------- instance generator

# Characters that stress the string grammar: quotes, backslashes, controls that
# must be escaped, a slash, multi-byte and astral characters, U+2028.
CHAR_POOL = list("abcXYZ019 ./-_") + [
    '"',
    "\\",
    "\n",
    "\t",
    "\x01",
    "\x7f",
    "é",
    "中",
    "😀",
    "\u2028",
]


def instance(schema: Any, rng: random.Random, root: dict) -> Any:
    """A random instance of `schema`, within the subset schema_to_regex supports."""
    if "$ref" in schema:
        return instance(resolve(root, schema["$ref"]), rng, root)
    for comb in ("anyOf", "oneOf"):
        if comb in schema:
            return instance(rng.choice(schema[comb]), rng, root)
    if "const" in schema:
        return copy.deepcopy(schema["const"])
    if "enum" in schema:
        return copy.deepcopy(rng.choice([v for v in schema["enum"] if is_valid(v, schema)]))
    types = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
    t = rng.choice(types)
    if t == "null":
        return None
    if t == "boolean":
        return rng.random() < 0.5
    if t == "integer":
        lo = schema.get("minimum", schema.get("exclusiveMinimum", -(10**6) - 1) + 1)
        hi = schema.get("maximum", schema.get("exclusiveMaximum", 10**6 + 1) - 1)
        return rng.choice([lo, hi, rng.randint(lo, hi), rng.randint(lo, min(hi, lo + 20))])
    if t == "number":
        kind = rng.randrange(3)
        if kind == 0:
            return rng.randint(-(10**9), 10**9)
        mantissa = rng.uniform(-1, 1)
        return mantissa * 10 ** rng.randint(-30, 30) if kind == 1 else round(mantissa * 100, 2)
    if t == "string":
        if "pattern" in schema:
            return rng.choice(schema["examples"])
        lo = schema.get("minLength", 0)
        hi = schema.get("maxLength", lo + 12)
        n = rng.choice([lo, hi, rng.randint(lo, hi)])
        return "".join(rng.choice(CHAR_POOL) for _ in range(n))
    if t == "array":
        lo = schema.get("minItems", 0)
        hi = schema.get("maxItems", lo + 3)
        return [instance(schema["items"], rng, root) for _ in range(rng.randint(lo, hi))]
    props = schema.get("properties", {})
    required = set(schema.get("required", []))
    return {
        k: instance(sub, rng, root)
        for k, sub in props.items()
        if k in required or rng.random() < 0.5
    }


def resolve(root: dict, ref: str) -> Any:
    node: Any = root
    for token in ref[2:].split("/"):
        node = node[token]
    return node


def mutate(doc: Any, rng: random.Random) -> Any:
    """A near-miss of `doc`: one random edit somewhere in the tree."""
    doc = copy.deepcopy(doc)
    containers = []

    def walk(node: Any) -> None:
        if isinstance(node, dict | list):
            containers.append(node)
            for child in node.values() if isinstance(node, dict) else node:
                walk(child)

    walk(doc)
    if not containers:
        return rng.choice([[doc], {"v": doc}, "zz", 3.5, None, True])
    node = rng.choice(containers)
    keys = list(node) if isinstance(node, dict) else list(range(len(node)))
    op = rng.randrange(5)
    if op == 0 and keys:  # drop a member (missing required / too few items)
        del node[rng.choice(keys)]
    elif op == 1:  # add an unknown member / one item too many
        if isinstance(node, dict):
            node["unexpected"] = 1
        else:
            node.append(copy.deepcopy(node[0]) if node else "extra")
    elif op == 2 and keys:  # wrong type
        k = rng.choice(keys)
        node[k] = rng.choice([None, "5", 5, 2.5, True, [], {}, "bullish"])
    elif op == 3 and keys:  # wrong enum-ish value / off-by-one number / longer string
        k = rng.choice(keys)
        v = node[k]
        if isinstance(v, bool):
            node[k] = not v
        elif isinstance(v, int | float):
            node[k] = v + rng.choice([-1, 1, 1000])
        elif isinstance(v, str):
            node[k] = v + rng.choice(["x", "x" * 300, "Positive"])
    elif op == 4 and isinstance(node, dict) and len(keys) >= 2:  # reorder keys
        items = list(node.items())
        rng.shuffle(items)
        node.clear()
        node.update(items)
    return doc


# --------------------------------------------------------------------------- generated instances


@pytest.mark.parametrize("name", sorted(SCHEMAS))
def test_valid_instances_match(name):
    schema = SCHEMAS[name]
    pattern = schema_to_regex(schema)
    rng = random.Random(f"valid-{name}")
    for i in range(60):
        doc = instance(schema, rng, schema)
        assert is_valid(doc, schema), f"generator bug, seed valid-{name} #{i}: {doc!r}"
        for ensure_ascii in (False, True):
            text = compact(doc, ensure_ascii)
            assert fullmatch(pattern, text), f"seed valid-{name} #{i}: {text}"


@pytest.mark.parametrize("name", sorted(SCHEMAS))
def test_flexible_whitespace(name):
    schema = SCHEMAS[name]
    flexible, strict = schema_to_regex(schema, "flexible"), schema_to_regex(schema)
    rng = random.Random(f"flex-{name}")
    for i in range(30):
        doc = instance(schema, rng, schema)
        for text in (
            json.dumps(doc, indent=2, ensure_ascii=False),
            json.dumps(doc, ensure_ascii=False),  # ", " and ": "
            json.dumps(doc, indent="\t"),
            compact(doc),
        ):
            assert fullmatch(flexible, text), f"seed flex-{name} #{i}: {text}"
            if "\n" in text.replace("\\n", ""):
                assert not fullmatch(strict, text)
    # Whitespace is bounded and never allowed around the whole document.
    if schema is FINANCIAL_SUMMARY_SCHEMA:
        doc = instance(schema, rng, schema)
        assert not fullmatch(flexible, " " + compact(doc))
        assert not fullmatch(flexible, compact(doc).replace(",", "," + " " * 17, 1))


@pytest.mark.parametrize("name", sorted(SCHEMAS))
def test_mutations_rejected(name):
    schema = SCHEMAS[name]
    pattern = schema_to_regex(schema)
    rng = random.Random(f"mutate-{name}")
    invalid = 0
    for i in range(300):
        bad = mutate(instance(schema, rng, schema), rng)
        if not is_valid(bad, schema):
            invalid += 1
            text = compact(bad)
            assert not fullmatch(pattern, text), f"seed mutate-{name} #{i} accepted: {text}"
    assert invalid >= 100, "the mutator stopped producing invalid documents"


GOOD_REPORT = {
    "summary": "Q3 revenue rose 12% on cloud demand.",
    "key_points": [
        {"point": "Cloud +30%", "importance": 5},
        {"point": "Margins flat", "importance": 3},
    ],
    "sentiment": "positive",
}


def _edit(path: list, value: Any = "__drop__") -> Any:
    doc = copy.deepcopy(GOOD_REPORT)
    node = doc
    for key in path[:-1]:
        node = node[key]
    if value == "__drop__":
        del node[path[-1]]
    else:
        node[path[-1]] = value
    return doc


FINANCIAL_MUTANTS = {
    "wrong enum": _edit(["sentiment"], "bullish"),
    "enum case": _edit(["sentiment"], "Positive"),
    "missing summary": _edit(["summary"]),
    "missing sentiment": _edit(["sentiment"]),
    "missing nested point": _edit(["key_points", 0, "point"]),
    "extra property": {**GOOD_REPORT, "ticker": "ACME"},
    "extra nested property": _edit(["key_points", 1, "source"], "10-K"),
    "importance as string": _edit(["key_points", 0, "importance"], "5"),
    "importance as float": _edit(["key_points", 0, "importance"], 4.5),
    "importance too high": _edit(["key_points", 0, "importance"], 6),
    "importance zero": _edit(["key_points", 0, "importance"], 0),
    "summary not a string": _edit(["summary"], 42),
    "summary empty": _edit(["summary"], ""),
    "summary too long": _edit(["summary"], "x" * 201),
    "key_points empty": _edit(["key_points"], []),
    "key_points too many": _edit(["key_points"], [{"point": "p", "importance": 1}] * 6),
    "key_points not array": _edit(["key_points"], {"point": "p", "importance": 1}),
    "null sentiment": _edit(["sentiment"], None),
}


def test_surrogate_pairs_are_one_code_point():
    pair, lone = '"\\ud83d\\ude00"', '"\\ud83d"'
    assert fullmatch(schema_to_regex({"type": "string", "maxLength": 1}), pair)
    assert not fullmatch(schema_to_regex({"type": "string", "minLength": 2}), pair)
    assert not fullmatch(JSON_STRING, lone)  # no UTF-8 encoding exists for it
    assert not fullmatch(JSON_STRING, '"\\ude00\\ud83d"')


def test_financial_schema_good_document():
    pattern = schema_to_regex(FINANCIAL_SUMMARY_SCHEMA)
    assert fullmatch(pattern, compact(GOOD_REPORT))
    for n in (1, 200):  # both ends of summary's length bounds, counted in code points
        assert fullmatch(pattern, compact({**GOOD_REPORT, "summary": "😀" * n}, ensure_ascii=True))


@pytest.mark.parametrize("case", sorted(FINANCIAL_MUTANTS))
def test_financial_schema_rejects(case):
    doc = FINANCIAL_MUTANTS[case]
    assert not is_valid(doc, FINANCIAL_SUMMARY_SCHEMA), "mutant is accidentally valid"
    assert not fullmatch(schema_to_regex(FINANCIAL_SUMMARY_SCHEMA), compact(doc))


def test_optional_property_subsets():
    """Every subset of optional properties, in schema order, with correct commas."""
    schema = {
        "type": "object",
        "properties": {"a": {"const": 1}, "b": {"const": 2}, "c": {"const": 3}, "d": {"const": 4}},
        "required": ["c"],
        "additionalProperties": False,
    }
    pattern = schema_to_regex(schema)
    for mask in range(16):
        doc = {
            k: v
            for i, (k, v) in enumerate({"a": 1, "b": 2, "c": 3, "d": 4}.items())
            if mask >> i & 1
        }
        assert fullmatch(pattern, compact(doc)) == ("c" in doc), doc
    for text in ('{,"c":3}', '{"c":3,}', '{"a":1,,"c":3}', '{"a":1"c":3}', '{"c":3,"a":1}'):
        assert not fullmatch(pattern, text), text
    assert fullmatch(schema_to_regex(ALL_OPTIONAL), "{}")
    assert fullmatch(schema_to_regex(ALL_OPTIONAL, "flexible"), "{ \n }")


def test_key_order_is_schema_order():
    # Documented incompleteness: a valid document with another key order is refused.
    doc = {"active": True, "name": "Ada"}
    assert is_valid(doc, PERSON)
    assert not fullmatch(schema_to_regex(PERSON), compact(doc))
    assert fullmatch(schema_to_regex(PERSON), compact({"name": "Ada", "active": True}))


def test_literals_use_one_spelling():
    pattern = schema_to_regex({"enum": ["é", 1.0, {"a": [True, None]}]})
    assert fullmatch(pattern, '"é"') and fullmatch(pattern, "1.0")
    assert fullmatch(pattern, '{"a":[true,null]}')
    assert not fullmatch(pattern, '"\\u00e9"')  # valid JSON for "é", but not the spelling chosen
    assert not fullmatch(pattern, "1")
    assert fullmatch(schema_to_regex({"enum": [{"a": [1]}]}, "flexible"), '{ "a" : [ 1 ] }')


def test_enum_filtered_by_siblings():
    pattern = schema_to_regex({"type": "integer", "enum": [1, 2, "3", True], "maximum": 1})
    assert fullmatch(pattern, "1")
    for text in ("2", '"3"', "true"):
        assert not fullmatch(pattern, text)


# --------------------------------------------------------------------------- strings and numbers


@settings(max_examples=300, deadline=None)
@given(st.text(), st.booleans())
def test_any_text_encodes_to_a_json_string(text, ensure_ascii):
    assume(not any(0xD800 <= ord(c) <= 0xDFFF for c in text))  # not encodable as UTF-8
    assert fullmatch(JSON_STRING, json.dumps(text, ensure_ascii=ensure_ascii))


# Pieces of a JSON string body, valid and not: escapes, surrogate halves and
# pairs (one code point), raw specials.
BODY_TOKENS = [
    "a", "é", "😀", " ", "/", "\\n", '\\"', "\\/", "\\\\", "\\u0041", "\\u00e9", "\\uD83D",
    "\\ude00", "\\ud83d\\uDE00", "\\u", "\\x", '"', "\\", "\n", "\x01", "0", "f",
]  # fmt: skip


@settings(max_examples=500, deadline=None)
@given(
    st.lists(st.sampled_from(BODY_TOKENS), max_size=6).map("".join),
    st.integers(0, 3),
    st.integers(0, 4),
)
def test_string_regex_is_sound(body, lo, extra):
    """Whatever the regex accepts decodes to a string of the right length."""
    schema = {"type": "string", "minLength": lo, "maxLength": lo + extra}
    text = f'"{body}"'
    if fullmatch(schema_to_regex(schema), text):
        assert is_valid(json.loads(text), schema), text


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=8), st.integers(0, 6), st.integers(0, 3), st.booleans())
def test_string_length_counts_code_points(text, lo, extra, ensure_ascii):
    assume(not any(0xD800 <= ord(c) <= 0xDFFF for c in text))
    schema = {"type": "string", "minLength": lo, "maxLength": lo + extra}
    encoded = json.dumps(text, ensure_ascii=ensure_ascii)
    assert fullmatch(schema_to_regex(schema), encoded) == is_valid(text, schema)


PATTERNS = [
    r"^[a-z]+$",
    r"ab.c",
    r"^\s+x$",
    r"^[^a]*$",
    r'^["\\]{2}\d$',
    r"^(?:foo|ba[rz])+\.(txt|md)?$",
    r"q",
    r"^\w\W\S\D$",
    r"^[\x00-\x1f]$",
    "",
]


@pytest.mark.parametrize("pattern", PATTERNS)
@settings(max_examples=150, deadline=None)
@given(text=st.text(alphabet='abcfoqrxzt.md"\\ \n\r\t\x01\x1f_9é٣\xa0\u2028', max_size=7))
def test_pattern_on_decoded_string(pattern, text):
    """A pattern constrains the decoded string; the output stays valid JSON.

    Sound under both readings of a pattern (ECMA-262 / regex.ASCII, and Python
    `re` as jsonschema runs it); complete on ASCII text where the two agree.
    """
    schema = {"type": "string", "pattern": pattern}
    compiled = schema_to_regex(schema)
    encoded = json.dumps(text, ensure_ascii=False)
    # ECMA's "$" is end of input; Python's also matches before a final "\n".
    end_anchored = pattern[:-1] + r"\Z" if pattern.endswith("$") else pattern
    by_ascii = regex.search(end_anchored, text, flags=regex.ASCII) is not None
    by_python = re.search(end_anchored, text) is not None
    if fullmatch(compiled, encoded):
        assert by_ascii and by_python, encoded
        assert is_valid(json.loads(encoded), schema)
    elif text.isascii() and not set(text) & set("\r\x1c\x1d\x1e\x1f"):
        # Those five are where the readings part ("." and \S): no completeness there.
        assert not by_ascii, encoded


PATTERN_CASES = [
    # "." stops at line terminators under ECMA-262, but quotes and tabs are fine (escaped).
    (r"^a.c$", 'a"c', True),
    (r"^a.c$", "a\\c", True),
    (r"^a.c$", "a\tc", True),
    (r"^a.c$", "a\nc", False),
    (r"^a.c$", "a\rc", False),
    (r"^a.c$", "a\u2028c", False),
    # Shorthands hold under both ASCII (ECMA) and Unicode (Python re) readings.
    (r"^\d$", "7", True),
    (r"^\d$", "\u0663", False),
    (r"^\D$", "\u0663", False),
    (r"^\D$", '"', True),
    (r"^[^\d]$", "\u0663", False),
    (r"^[^\D]$", "\u0663", False),
    (r"^\w$", "\u00e9", False),
    (r"^\W$", "\u00e9", False),
    (r"^\W$", "-", True),
    (r"^[^\W]$", "\u00e9", False),
    (r"^\s$", "\t", True),
    (r"^\s$", "\xa0", False),
    (r"^\S$", "\xa0", False),
    (r"^\S$", "\x1c", False),
    (r"^\S$", "\x01", True),
    (r"^[\x00-\x1f]+$", "\x00\x1f\n", True),
]


@pytest.mark.parametrize(("pattern", "text", "expected"), PATTERN_CASES)
def test_pattern_semantics(pattern, text, expected):
    schema = {"type": "string", "pattern": pattern}
    encoded = json.dumps(text, ensure_ascii=False)
    assert fullmatch(schema_to_regex(schema), encoded) == expected
    if expected:
        assert is_valid(json.loads(encoded), schema)


@settings(max_examples=500, deadline=None)
@given(
    st.one_of(st.none(), st.integers(-3000, 3000)),
    st.one_of(st.none(), st.integers(0, 4000)),
    st.integers(-(10**5), 10**5),
)
def test_integer_range_regex(lo, span, n):
    hi = None if span is None else (lo if lo is not None else -2000) + span
    pattern = integer_range_regex(lo, hi)
    inside = (lo is None or n >= lo) and (hi is None or n <= hi)
    assert fullmatch(pattern, str(n)) == inside, (lo, hi, n, pattern)
    for near in (lo, hi):
        if near is not None:
            assert fullmatch(pattern, str(near))
    assert not fullmatch(pattern, "-0") and not fullmatch(pattern, "01")


def test_integer_bounds_from_schema():
    cases = [
        ({"exclusiveMinimum": 0}, ["1", "99999"], ["0", "-1"]),
        ({"minimum": 1.5, "maximum": 3.5}, ["2", "3"], ["1", "4"]),
        ({"exclusiveMaximum": -5}, ["-6", "-123"], ["-5", "0", "7"]),
        ({"minimum": 0, "maximum": 0}, ["0"], ["1", "-0", "00"]),
    ]
    for bounds, good, bad in cases:
        pattern = schema_to_regex({"type": "integer", **bounds})
        assert all(fullmatch(pattern, g) for g in good), (bounds, pattern)
        assert not any(fullmatch(pattern, b) for b in bad), (bounds, pattern)


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.integers(), st.floats(allow_nan=False, allow_infinity=False)))
def test_number_grammar(value):
    number = schema_to_regex({"type": "number"})
    assert fullmatch(number, json.dumps(value))
    assert fullmatch(schema_to_regex({"type": "integer"}), json.dumps(value)) == isinstance(
        value, int
    )


@pytest.mark.parametrize(
    "text", ["01", "1.", ".5", "+1", "1e", "--1", "0x10", "NaN", "Infinity", "1.5.2"]
)
def test_number_grammar_rejects(text):
    assert not fullmatch(schema_to_regex({"type": "number"}), text)


def test_escape_literal_round_trips():
    text = 'a.b(c)[d]{e}|f*g+h?i^j$k\\l -"\n\t\x00é'
    assert fullmatch(escape_literal(text), text)
    check_regex_dialect(escape_literal(text))


# --------------------------------------------------------------------------- errors

UNSUPPORTED = [
    ({"type": "string", "format": "date"}, "format", "#"),
    ({"type": "object", "properties": {"a": {"type": "string", "format": "email"}}}, "format",
     "#/properties/a"),
    ({"allOf": [{"type": "string"}]}, "allOf", "#"),
    ({"not": {"type": "null"}}, "not", "#"),
    ({"type": "string", "if": {}, "then": {}}, "if", "#"),
    ({"type": "object", "patternProperties": {"^x": {"type": "string"}}}, "patternProperties", "#"),
    ({"type": "object", "properties": {"a": {"type": "null"}}, "minProperties": 1}, "minProperties",
     "#"),
    ({"type": "array", "items": {"type": "null"}, "uniqueItems": True}, "uniqueItems", "#"),
    ({"type": "array", "prefixItems": [{"type": "null"}]}, "prefixItems", "#"),
    ({"type": "array", "items": {"type": "integer", "multipleOf": 2}}, "multipleOf", "#/items"),
    ({"type": "string", "nullable": True}, "nullable", "#"),
    ({"type": "number", "minimum": 0}, "minimum", "#"),
    ({"type": "array"}, "items", "#"),
    ({"type": "array", "items": True}, "items", "#"),
    ({"type": "array", "items": [{"type": "null"}]}, "items", "#"),
    ({}, "type", "#"),
    ({"type": "float"}, "type", "#"),
    ({"type": "object"}, "properties", "#"),
    ({"type": "object", "properties": {"a": {"type": "null"}},
      "additionalProperties": {"type": "string"}}, "additionalProperties", "#"),
    ({"type": "object", "properties": {}, "required": ["a"]}, "required", "#"),
    ({"type": "object", "properties": {"a": {"$ref": "http://example.com/s.json"}}}, "$ref",
     "#/properties/a"),
    ({"$defs": {"T": {"type": "array", "items": {"$ref": "#/$defs/T"}}}, "$ref": "#/$defs/T"},
     "$ref", "#/$defs/T/items"),
    ({"$ref": "#/$defs/Missing"}, "$ref", "#"),
    ({"$defs": {"S": {"type": "string"}}, "$ref": "#/$defs/S", "maxLength": 3}, "maxLength", "#"),
    ({"anyOf": [{"type": "string"}], "type": "string"}, "type", "#"),
    ({"oneOf": [{"type": "string"}, {"type": "string", "maxLength": 3}]}, "oneOf", "#"),
    ({"oneOf": [{"type": "integer"}, {"type": "number"}]}, "oneOf", "#"),
    ({"oneOf": [{"properties": {"a": {"type": "null"}}}, {"type": "string"}]}, "oneOf", "#"),
    ({"type": "string", "enum": [1, 2]}, "enum", "#"),
    ({"type": "string", "pattern": "(?=a)a"}, "pattern", "#"),
    ({"type": "string", "pattern": r"(a)\1"}, "pattern", "#"),
    ({"type": "string", "pattern": r"^a\b$"}, "pattern", "#"),
    ({"type": "string", "pattern": "(?i)abc"}, "pattern", "#"),
    ({"type": "string", "pattern": "a^b"}, "pattern", "#"),
    ({"type": "string", "pattern": "[a-z", "maxLength": 3}, "maxLength", "#"),
    ({"type": "string", "pattern": "[a-z"}, "pattern", "#"),
    ({"type": "string", "minLength": 4, "maxLength": 3}, "maxLength", "#"),
    ({"type": "string", "maxLength": -1}, "maxLength", "#"),
    ({"type": "integer", "exclusiveMinimum": True}, "exclusiveMinimum", "#"),
    ({"type": "integer", "minimum": 5, "maximum": 4}, "minimum", "#"),
    ({"type": "object", "properties": {"a/b": {"type": "string", "contentEncoding": "base64"}}},
     "contentEncoding", "#/properties/a~1b"),
    ({"type": "array", "items": {"type": "string"}, "contains": {"const": "x"}}, "contains", "#"),
    (True, "true", "#"),
    (False, "false", "#"),
]  # fmt: skip


@pytest.mark.parametrize(("schema", "keyword", "path"), UNSUPPORTED)
def test_unsupported_raises_schema_error(schema, keyword, path):
    if isinstance(schema, bool):  # only reachable as a subschema
        schema = {"type": "array", "items": {"anyOf": [schema]}}
        path = "#/items/anyOf/0"
    with pytest.raises(SchemaError) as info:
        schema_to_regex(schema)
    assert info.value.keyword == keyword
    assert info.value.path == path
    assert f"'{keyword}'" in str(info.value) and path in str(info.value)
    assert isinstance(info.value, ValueError)


def test_whitespace_mode_is_checked():
    with pytest.raises(ValueError, match="whitespace"):
        schema_to_regex({"type": "null"}, whitespace="pretty")


def test_oneof_accepted_when_disjoint():
    pattern = schema_to_regex(SHAPE)
    assert fullmatch(pattern, '{"kind":"circle","r":1.5}')
    assert fullmatch(pattern, "null")
    assert not fullmatch(pattern, '{"kind":"circle","w":1,"h":2}')
    nullable = {"oneOf": [{"type": "string"}, {"type": "null"}, {"enum": [1, 2]}, {"const": True}]}
    assert fullmatch(schema_to_regex(nullable), "true")


def test_annotations_are_ignored():
    bare = {"type": "object", "properties": {"a": {"type": "boolean"}}, "required": ["a"]}
    noted = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "urn:x",
        "$comment": "c",
        "title": "T",
        "description": "D",
        "examples": [{"a": True}],
        "type": "object",
        "properties": {"a": {"type": "boolean", "default": False, "deprecated": True}},
        "required": ["a"],
    }
    assert schema_to_regex(bare) == schema_to_regex(noted)


# --------------------------------------------------------------------------- compiled DFA
# Written against the ByteDFA contract only (num_states, start, accepting,
# byte_class, num_classes, transitions with -1 = dead, step, accepts), so the
# test does not depend on models.dfa_sample's API.


def _distance_to_accept(dfa) -> np.ndarray:
    trans = np.asarray(dfa.transitions)
    dist = np.where(np.asarray(dfa.accepting, dtype=bool), 0, np.iinfo(np.int64).max // 2)
    while True:
        nxt = np.where(trans >= 0, dist[np.maximum(trans, 0)], np.iinfo(np.int64).max // 2)
        new = np.minimum(dist, nxt.min(axis=1) + 1)
        if np.array_equal(new, dist):
            return dist
        dist = new


def random_walk(dfa, rng: random.Random, dist: np.ndarray, budget: int = 500) -> bytes:
    """Random live bytes from start; past `budget`, head for acceptance by shortest path."""
    byte_class = np.asarray(dfa.byte_class)
    members = [np.flatnonzero(byte_class == c).tolist() for c in range(dfa.num_classes)]
    out, state = bytearray(), dfa.start
    while True:
        live = [c for c in range(dfa.num_classes) if dfa.transitions[state, c] >= 0]
        if dfa.accepting[state] and (not live or rng.random() < 0.3 or len(out) >= budget):
            return bytes(out)
        assert live, f"live state {state} has no way out but does not accept"
        if len(out) >= budget:
            best = min(dist[dfa.transitions[state, c]] for c in live)
            live = [c for c in live if dist[dfa.transitions[state, c]] == best]
        byte = rng.choice(members[rng.choice(live)])
        out.append(byte)
        state = dfa.step(state, byte)


DFA_CASES = [(name, "compact") for name in sorted(SCHEMAS)] + [("person", "flexible")]


@pytest.mark.parametrize(("name", "whitespace"), DFA_CASES)
def test_dfa_samples_validate(name, whitespace):
    from models.regex_dfa import compile_regex

    schema = SCHEMAS[name]
    pattern = schema_to_regex(schema, whitespace)
    dfa = compile_regex(pattern)
    dist = _distance_to_accept(dfa)
    rng = random.Random(f"dfa-{name}-{whitespace}")
    for i in range(25):
        data = random_walk(dfa, rng, dist)
        text = data.decode("utf-8")  # strict: the DFA may only emit well-formed UTF-8
        assert fullmatch(pattern, text), f"seed dfa-{name} #{i}: DFA and oracle disagree: {text!r}"
        doc = json.loads(text)
        jsonschema.validate(doc, schema)
    # And the other direction: generated instances are accepted, mutants refused.
    for i in range(40):
        doc = instance(schema, rng, schema)
        assert dfa.accepts(compact(doc).encode()), f"seed dfa-{name} #{i}"
        bad = mutate(doc, rng)
        if not is_valid(bad, schema):
            assert not dfa.accepts(compact(bad).encode()), f"seed dfa-{name} #{i}"
