# SPDX-License-Identifier: Apache-2.0
"""JSON Schema -> regex compiler for regex-constrained decoding.

`schema_to_regex(schema)` returns a regex, written only in the dialect that
`models.regex_dfa.compile_regex` accepts, whose language is a subset of the JSON
documents that validate against `schema`. Every string the regex accepts is a
valid instance ("sound"); the compiler gives up completeness where it has to:
one key order, one spelling of `const`/`enum` values, no extra properties.
The oracle is `regex.fullmatch(pattern, text, flags=regex.ASCII)`.

Anything the compiler cannot express soundly raises `SchemaError`, which names
the keyword and the JSON Pointer of the schema node. docs/json-schema.md holds
the keyword table and the reasoning behind each choice.

Run `python -m models.json_schema` to print the regex for the source
document's financial-summary schema.
"""

from __future__ import annotations

import functools
import json
import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import jsonschema
import regex

__all__ = [
    "FINANCIAL_SUMMARY_SCHEMA",
    "FLEXIBLE_WS",
    "JSON_BOOLEAN",
    "JSON_INTEGER",
    "JSON_NULL",
    "JSON_NUMBER",
    "JSON_STRING",
    "JSON_STRING_CHAR",
    "RegexDialectError",
    "SchemaError",
    "check_regex_dialect",
    "escape_literal",
    "integer_range_regex",
    "schema_to_regex",
]

# --------------------------------------------------------------------------- public API

JSON_NULL = "null"
JSON_BOOLEAN = "(?:true|false)"
JSON_INTEGER = "-?(?:0|[1-9][0-9]*)"
JSON_NUMBER = r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?"

_HEX = "[0-9a-fA-F]"
# \u escapes are split so that one regex repetition is always one code point:
# a surrogate escape is only legal as a high+low pair, which json.loads turns
# into one character. Without that, minLength would count a pair as two and
# accept strings that are too short, and a lone surrogate cannot be UTF-8.
_U_NON_SURROGATE = rf"\\u(?:[0-9a-cA-CefEF]{_HEX}{{3}}|[dD][0-7]{_HEX}{{2}})"
_U_PAIR = rf"\\u[dD][89abAB]{_HEX}{{2}}\\u[dD][c-fC-F]{_HEX}{{2}}"
#: One character of a JSON string body: an unescaped character (anything but
#: `"`, backslash and U+0000-U+001F) or one escape sequence.
JSON_STRING_CHAR = rf'(?:[^"\\\x00-\x1f]|\\["\\/bfnrt]|{_U_NON_SURROGATE}|{_U_PAIR})'
JSON_STRING = f'"{JSON_STRING_CHAR}*"'

#: Whitespace allowed between JSON tokens in "flexible" mode. It is bounded so a
#: model cannot loop on whitespace forever (a known failure of unbounded `ws*`),
#: yet 16 covers `json.dumps(indent=2)` down to nesting depth 7.
FLEXIBLE_WS = "[ \\t\\n\\r]{0,16}"
_WHITESPACE_MODES = {"compact": "", "flexible": FLEXIBLE_WS}


class SchemaError(ValueError):
    """The schema uses something the compiler cannot turn into a sound regex."""

    def __init__(self, message: str, keyword: str, path: str) -> None:
        super().__init__(f"{path}: '{keyword}': {message}")
        self.keyword = keyword
        self.path = path


class RegexDialectError(ValueError):
    """A regex uses syntax outside the dialect that compile_regex supports."""


def schema_to_regex(schema: Mapping[str, Any], whitespace: str = "compact") -> str:
    """Compile a JSON Schema (2020-12 subset) to a regex over the JSON text.

    whitespace: "compact" allows no whitespace between tokens, the form
    `json.dumps(..., separators=(",", ":"))` writes; "flexible" allows up to 16
    of space, tab, CR, LF around every structural token ({ } [ ] : ,). Neither
    mode allows whitespace before or after the whole document.
    """
    if whitespace not in _WHITESPACE_MODES:
        raise ValueError(
            f"whitespace must be one of {sorted(_WHITESPACE_MODES)}, not {whitespace!r}"
        )
    if not isinstance(schema, Mapping):
        raise SchemaError("the root schema must be a JSON object", "", "#")
    return _Compiler(schema, _WHITESPACE_MODES[whitespace]).node(schema, "#")


def integer_range_regex(lo: int | None, hi: int | None) -> str:
    """Regex for JSON integers n with lo <= n <= hi (None = unbounded side).

    Only canonical spellings match: no leading zeros, no "-0".
    """
    if lo is not None and hi is not None and lo > hi:
        raise ValueError(f"empty integer range [{lo}, {hi}]")
    alts = []
    if lo is None or lo < 0:  # the negative part, as "-" + magnitude
        mag_hi = None if lo is None else -lo
        mag_lo = 1 if hi is None or hi >= 0 else -hi
        alts.append("-" + _atom(_natural_range(mag_lo, mag_hi)))
    if hi is None or hi >= 0:
        alts.append(_natural_range(max(0, lo if lo is not None else 0), hi))
    return _alt(alts)


def escape_literal(text: str) -> str:
    """Regex that matches exactly `text`, using only escapes the dialect has."""
    return "".join(_escape_char(ord(c)) for c in text)


def check_regex_dialect(pattern: str) -> None:
    """Raise RegexDialectError unless `pattern` is in compile_regex's dialect.

    Also rejects what the `regex` oracle itself cannot compile, so a pattern
    that passes here means the same thing to the oracle and to the DFA.
    """
    _checked_parse(pattern)


#: The source document's structured-output example, as a realistic schema:
#: every field required, no extra keys, bounded text so a model cannot ramble.
FINANCIAL_SUMMARY_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "FinancialSummary",
    "type": "object",
    "properties": {
        "summary": {"type": "string", "minLength": 1, "maxLength": 200},
        "key_points": {
            "type": "array",
            "minItems": 1,
            "maxItems": 5,
            "items": {
                "type": "object",
                "properties": {
                    "point": {"type": "string", "minLength": 1, "maxLength": 100},
                    "importance": {"type": "integer", "minimum": 1, "maximum": 5},
                },
                "required": ["point", "importance"],
                "additionalProperties": False,
            },
        },
        "sentiment": {"enum": ["positive", "neutral", "negative"]},
    },
    "required": ["summary", "key_points", "sentiment"],
    "additionalProperties": False,
}

# --------------------------------------------------------------------------- keyword tables

# Annotations never change which documents validate, so they are skipped.
_ANNOTATIONS = frozenset(
    {
        "title", "description", "examples", "$schema", "default", "$comment", "$id",
        "deprecated", "readOnly", "writeOnly",
    }
)  # fmt: skip
# Containers for $ref targets; they constrain nothing where they appear.
_CONTAINERS = frozenset({"$defs", "definitions"})
_STRING_KW = frozenset({"minLength", "maxLength", "pattern"})
_BOUND_KW = frozenset({"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"})
_ARRAY_KW = frozenset({"items", "minItems", "maxItems"})
_OBJECT_KW = frozenset({"properties", "required", "additionalProperties"})
_SUPPORTED = (
    _ANNOTATIONS
    | _CONTAINERS
    | _STRING_KW
    | _BOUND_KW
    | _ARRAY_KW
    | _OBJECT_KW
    | {"type", "enum", "const", "anyOf", "oneOf", "$ref"}
)
_TYPES = ("null", "boolean", "integer", "number", "string", "array", "object")
# Keywords that imply a type when "type" is missing. Narrowing to that type is
# sound (a subset of the valid documents); guessing "any JSON" is not regular.
_IMPLIED_TYPE = (("object", _OBJECT_KW), ("array", _ARRAY_KW), ("string", _STRING_KW))

# --------------------------------------------------------------------------- compiler


@dataclass
class _Compiler:
    root: Mapping[str, Any]
    ws: str
    _ref_stack: list[str] = field(default_factory=list)
    _ref_cache: dict[str, str] = field(default_factory=dict)

    def node(self, schema: Any, path: str) -> str:
        if isinstance(schema, bool):
            what = "accepts any JSON value" if schema else "accepts nothing"
            spelled = json.dumps(schema)
            raise SchemaError(f"boolean schema {spelled} {what}; not supported", spelled, path)
        if not isinstance(schema, Mapping):
            raise SchemaError("a schema must be a JSON object", "", path)
        for key in schema:
            if key not in _SUPPORTED:
                raise SchemaError("unsupported keyword", key, path)
        active = {k for k in schema if k not in _ANNOTATIONS and k not in _CONTAINERS}

        if "$ref" in active:
            self._only("$ref", active, path)
            return self._ref(schema["$ref"], path)
        for comb in ("anyOf", "oneOf"):
            if comb in active:
                self._only(comb, active, path)
                return self._any_of(schema[comb], comb, path)
        if "enum" in active or "const" in active:
            return self._literals(schema, path)
        return _alt([self._typed(t, schema, path) for t in self._types(schema, path)])

    # ---- combinators and references

    def _only(self, keyword: str, active: set[str], path: str) -> None:
        # A sibling would intersect with the combinator; regexes cannot intersect.
        others = sorted(active - {keyword})
        if others:
            raise SchemaError(f"cannot be combined with '{keyword}'", others[0], path)

    def _ref(self, ref: Any, path: str) -> str:
        if not isinstance(ref, str) or not ref.startswith("#"):
            raise SchemaError(
                f"only local '#/...' references are supported, got {ref!r}", "$ref", path
            )
        if ref in self._ref_stack:
            raise SchemaError(f"recursive reference {ref!r} is not regular", "$ref", path)
        if ref not in self._ref_cache:
            target = _resolve_pointer(self.root, ref, path)
            self._ref_stack.append(ref)
            try:
                self._ref_cache[ref] = self.node(target, ref)
            finally:
                self._ref_stack.pop()
        return self._ref_cache[ref]

    def _any_of(self, branches: Any, keyword: str, path: str) -> str:
        if not isinstance(branches, list) or not branches:
            raise SchemaError("must be a non-empty array of schemas", keyword, path)
        if keyword == "oneOf":
            # oneOf rejects a document that matches two branches, so it may only
            # become an alternation when no document can match two branches.
            resolved = [self._deref(b, path) for b in branches]
            for i, a in enumerate(resolved):
                for j in range(i + 1, len(resolved)):
                    if not _disjoint(a, resolved[j], self._deref):
                        raise SchemaError(
                            f"branches {i} and {j} may overlap; oneOf is only compiled when "
                            "branches are provably disjoint (different types, different "
                            "literals, or a required property with different literals)",
                            keyword,
                            path,
                        )
        return _alt([self.node(b, f"{path}/{keyword}/{i}") for i, b in enumerate(branches)])

    def _deref(self, schema: Any, path: str) -> Any:
        seen: set[str] = set()
        while isinstance(schema, Mapping) and isinstance(schema.get("$ref"), str):
            ref = schema["$ref"]
            if ref in seen or not ref.startswith("#"):
                return schema  # node() reports the problem with a proper path
            seen.add(ref)
            schema = _resolve_pointer(self.root, ref, path)
        return schema

    # ---- enum / const

    def _literals(self, schema: Mapping[str, Any], path: str) -> str:
        if "const" in schema:
            keyword, values = "const", [schema["const"]]
        else:
            keyword, values = "enum", schema["enum"]
            if not isinstance(values, list) or not values:
                raise SchemaError("must be a non-empty array", "enum", path)
        # Other keywords still apply (e.g. {"type": "string", "enum": [1, "a"]}),
        # so keep only values the whole node accepts, as judged by jsonschema.
        check = dict(schema)
        for container in _CONTAINERS:
            if container in self.root and container not in check:
                check[container] = self.root[container]
        validator = jsonschema.Draft202012Validator(check)
        kept: dict[str, Any] = {}
        for value in values:
            if validator.is_valid(value):
                kept.setdefault(json.dumps(value, sort_keys=True), value)
        if not kept:
            raise SchemaError("no value satisfies the rest of the schema", keyword, path)
        return _alt([self._literal(v, path) for v in kept.values()])

    def _literal(self, value: Any, path: str) -> str:
        if value is None or isinstance(value, bool | str):
            return escape_literal(json.dumps(value, ensure_ascii=False))
        if isinstance(value, int | float):
            if isinstance(value, float) and not math.isfinite(value):
                raise SchemaError(f"{value} is not a JSON number", "enum", path)
            return escape_literal(json.dumps(value))
        if isinstance(value, list):
            return self._array_of([self._literal(v, path) for v in value])
        if isinstance(value, Mapping):
            members = [self._member(k, self._literal(v, path)) for k, v in value.items()]
            return self._object_of(members)
        raise SchemaError(f"{value!r} is not a JSON value", "enum", path)

    # ---- types

    def _types(self, schema: Mapping[str, Any], path: str) -> list[str]:
        if "type" in schema:
            types = schema["type"]
            types = [types] if isinstance(types, str) else types
            if not isinstance(types, list) or not types or any(t not in _TYPES for t in types):
                raise SchemaError(f"must be one of {_TYPES} or a list of them", "type", path)
            return list(dict.fromkeys(types))
        implied = [t for t, kws in _IMPLIED_TYPE if kws & schema.keys()]
        if _BOUND_KW & schema.keys():
            implied.append("number")
        if not implied:
            raise SchemaError(
                "schema accepts any JSON value, which is not a regular language; add a 'type'",
                "type",
                path,
            )
        return implied

    def _typed(self, type_: str, schema: Mapping[str, Any], path: str) -> str:
        if type_ == "null":
            return JSON_NULL
        if type_ == "boolean":
            return JSON_BOOLEAN
        if type_ == "integer":
            return self._integer(schema, path)
        if type_ == "number":
            for kw in sorted(_BOUND_KW & schema.keys()):
                raise SchemaError(
                    "bounds on non-integer numbers are unsupported; use type 'integer'", kw, path
                )
            return JSON_NUMBER
        if type_ == "string":
            return self._string(schema, path)
        if type_ == "array":
            return self._array(schema, path)
        return self._object(schema, path)

    def _integer(self, schema: Mapping[str, Any], path: str) -> str:
        lo = hi = None
        for kw in sorted(_BOUND_KW & schema.keys()):
            v = schema[kw]
            if isinstance(v, bool) or not isinstance(v, int | float) or not math.isfinite(v):
                raise SchemaError(
                    "must be a finite number (draft-4 boolean form unsupported)", kw, path
                )
            if kw == "minimum":
                bound, is_lo = math.ceil(v), True
            elif kw == "exclusiveMinimum":
                bound, is_lo = math.floor(v) + 1, True
            elif kw == "maximum":
                bound, is_lo = math.floor(v), False
            else:
                bound, is_lo = math.ceil(v) - 1, False
            if is_lo:
                lo = bound if lo is None else max(lo, bound)
            else:
                hi = bound if hi is None else min(hi, bound)
        if lo is not None and hi is not None and lo > hi:
            raise SchemaError(f"no integer in [{lo}, {hi}]", "minimum", path)
        if lo is None and hi is None:
            return JSON_INTEGER
        return integer_range_regex(lo, hi)

    def _string(self, schema: Mapping[str, Any], path: str) -> str:
        lo = _count(schema, "minLength", path, 0)
        hi = _count(schema, "maxLength", path, None)
        if hi is not None and lo > hi:
            raise SchemaError(f"minLength {lo} > maxLength {hi}", "maxLength", path)
        if "pattern" in schema:
            if lo > 0 or hi is not None:
                kw = "minLength" if lo > 0 else "maxLength"
                raise SchemaError(
                    "cannot be combined with 'pattern' (no regex intersection)", kw, path
                )
            return f'"{_json_string_pattern(schema["pattern"], path)}"'
        return f'"{_repeat(JSON_STRING_CHAR, lo, hi)}"'

    def _array(self, schema: Mapping[str, Any], path: str) -> str:
        if "items" not in schema:
            raise SchemaError(
                "arrays need an 'items' schema (any JSON value is not regular)", "items", path
            )
        if not isinstance(schema["items"], Mapping):
            raise SchemaError(
                "must be one schema object (no tuple form, no boolean schema)", "items", path
            )
        lo = _count(schema, "minItems", path, 0)
        hi = _count(schema, "maxItems", path, None)
        if hi is not None and lo > hi:
            raise SchemaError(f"minItems {lo} > maxItems {hi}", "maxItems", path)
        item = _atom(self.node(schema["items"], f"{path}/items"))
        open_, close = r"\[" + self.ws, self.ws + r"\]"
        if hi == 0:
            return r"\[" + self.ws + r"\]"
        more = _repeat(self._sep + item, max(lo - 1, 0), None if hi is None else hi - 1)
        if lo == 0:
            return f"{open_}(?:{item}{more}{self.ws})?" + r"\]"
        return f"{open_}{item}{more}{close}"

    def _object(self, schema: Mapping[str, Any], path: str) -> str:
        props = schema.get("properties", {})
        if not isinstance(props, Mapping):
            raise SchemaError("must be an object of schemas", "properties", path)
        required = schema.get("required", [])
        if not isinstance(required, list) or not all(isinstance(r, str) for r in required):
            raise SchemaError("must be an array of property names", "required", path)
        for name in required:
            if name not in props:
                raise SchemaError(
                    f"required property {name!r} has no schema in 'properties'", "required", path
                )
        extra = schema.get("additionalProperties", None)
        if not isinstance(extra, bool | None):
            raise SchemaError("only true/false are supported; no extra keys are generated",
                              "additionalProperties", path)  # fmt: skip
        if not props and extra is not False:
            raise SchemaError(
                "free-form object (no 'properties') is not regular; "
                "list the properties or set additionalProperties: false",
                "properties",
                path,
            )
        members = []
        for name, sub in props.items():
            sub_path = f"{path}/properties/{_pointer_escape(name)}"
            members.append((self._member(name, self.node(sub, sub_path)), name in required))
        return self._object_with_optional(members)

    # ---- JSON structure with whitespace

    @property
    def _sep(self) -> str:
        return f"{self.ws},{self.ws}"

    def _member(self, name: str, value: str) -> str:
        key = escape_literal(json.dumps(name, ensure_ascii=False))
        return f"{key}{self.ws}:{self.ws}{value}"

    def _array_of(self, items: Sequence[str]) -> str:
        if not items:
            return r"\[" + self.ws + r"\]"
        return r"\[" + self.ws + self._sep.join(items) + self.ws + r"\]"

    def _object_of(self, members: Sequence[str]) -> str:
        if not members:
            return r"\{" + self.ws + r"\}"
        return r"\{" + self.ws + self._sep.join(members) + self.ws + r"\}"

    def _object_with_optional(self, members: Sequence[tuple[str, bool]]) -> str:
        # Keys come in schema order; any subset holding the required ones may
        # appear. Alternate over which member comes first (only it has no
        # leading comma); after that each member is "sep member" or optional.
        # The text is quadratic in the number of optional members before the
        # first required one, linear when the first member is required.
        def tail(start: int) -> str:
            parts = []
            for member, req in members[start:]:
                parts.append(self._sep + member if req else f"(?:{self._sep}{member})?")
            return "".join(parts)

        heads = []
        for i, (member, req) in enumerate(members):
            heads.append(member + tail(i + 1))
            if req:
                break
        any_required = any(req for _, req in members)
        open_ = r"\{" + self.ws
        if not heads:
            return open_ + r"\}"
        body = _alt(heads)
        if any_required:
            return f"{open_}{body}{self.ws}" + r"\}"
        return f"{open_}(?:{body}{self.ws})?" + r"\}"


def _count(schema: Mapping[str, Any], kw: str, path: str, default: int | None) -> int | None:
    if kw not in schema:
        return default
    v = schema[kw]
    if isinstance(v, float) and v.is_integer():
        v = int(v)
    if isinstance(v, bool) or not isinstance(v, int) or v < 0:
        raise SchemaError("must be a non-negative integer", kw, path)
    return v


def _resolve_pointer(root: Any, ref: str, path: str) -> Any:
    node = root
    for token in ref[1:].split("/")[1:] if ref != "#" else []:
        token = token.replace("~1", "/").replace("~0", "~")
        try:
            node = node[int(token)] if isinstance(node, list) else node[token]
        except (KeyError, IndexError, ValueError, TypeError):
            raise SchemaError(f"cannot resolve {ref!r}", "$ref", path) from None
    return node


def _pointer_escape(name: str) -> str:
    return name.replace("~", "~0").replace("/", "~1")


# --------------------------------------------------------------------------- oneOf disjointness

_KIND_OF_TYPE = {"integer": "number"}  # every JSON integer is also a number


def _kinds(schema: Any) -> frozenset[str]:
    """JSON kinds a schema can accept, judged on what it declares (not infers)."""
    everything = frozenset(_KIND_OF_TYPE.get(t, t) for t in _TYPES)
    if not isinstance(schema, Mapping):
        return everything
    lits = _literal_values(schema)
    if lits is not None:
        return frozenset(_kind_of_value(v) for v in lits)
    if "type" in schema:
        types = schema["type"]
        types = [types] if isinstance(types, str) else types
        return frozenset(_KIND_OF_TYPE.get(t, t) for t in types)
    return everything


def _literal_values(schema: Mapping[str, Any]) -> list[Any] | None:
    if "const" in schema:
        return [schema["const"]]
    if isinstance(schema.get("enum"), list):
        return list(schema["enum"])
    return None


def _kind_of_value(v: Any) -> str:
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "boolean"
    if isinstance(v, int | float):
        return "number"
    if isinstance(v, str):
        return "string"
    return "array" if isinstance(v, list) else "object"


def _json_equal(a: Any, b: Any) -> bool:
    # JSON equality: 1 == 1.0, but true != 1 (Python's == conflates those).
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, int | float) and isinstance(b, int | float):
        return a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_json_equal(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        return a.keys() == b.keys() and all(_json_equal(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b


def _disjoint(a: Any, b: Any, deref: Callable[[Any, str], Any]) -> bool:
    """True only if no JSON document can validate against both a and b."""
    for x, y in ((a, b), (b, a)):
        if isinstance(x, Mapping):
            for comb in ("anyOf", "oneOf"):
                if isinstance(x.get(comb), list):
                    return all(_disjoint(deref(br, "#"), y, deref) for br in x[comb])
    if not _kinds(a) & _kinds(b):
        return True
    if not (isinstance(a, Mapping) and isinstance(b, Mapping)):
        return False
    la, lb = _literal_values(a), _literal_values(b)
    if la is not None and lb is not None:
        return not any(_json_equal(x, y) for x in la for y in lb)
    if _kinds(a) == _kinds(b) == {"object"}:
        # Tagged union: a property both require, with disjoint schemas.
        req = set(a.get("required", [])) & set(b.get("required", []))
        pa, pb = a.get("properties", {}), b.get("properties", {})
        return any(
            k in pa and k in pb and _disjoint(deref(pa[k], "#"), deref(pb[k], "#"), deref)
            for k in sorted(req)
        )
    return False


# --------------------------------------------------------------------------- regex text helpers


def _alt(alts: Sequence[str]) -> str:
    flat: list[str] = []
    for a in alts:  # (?:a|b)|c reads better, and compiles the same, as a|b|c
        flat += _branches(a[3:-1]) if a.startswith("(?:") and _is_atom(a) else [a]
    flat = list(dict.fromkeys(flat))
    return flat[0] if len(flat) == 1 else "(?:" + "|".join(flat) + ")"


def _branches(r: str) -> list[str]:
    """Split our own regex text at its top-level '|'."""
    out, depth, start, i, in_class = [], 0, 0, 0, False
    while i < len(r):
        c = r[i]
        if c == "\\":
            i += 2
            continue
        if in_class:
            in_class = c != "]"
        elif c == "[":
            in_class = True
            i += 2 if r[i + 1 : i + 2] == "]" else 1  # a leading "]" is a literal
            continue
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        elif c == "|" and depth == 0:
            out.append(r[start:i])
            start = i + 1
        i += 1
    return [*out, r[start:]]


def _is_atom(r: str) -> bool:
    if len(r) == 1 or (len(r) == 2 and r[0] == "\\"):
        return True
    if r.startswith(("(?:", "[")):
        return _closing_index(r) == len(r) - 1
    return False


def _closing_index(r: str) -> int:
    """Index of the bracket that closes r[0], for a regex r in our own output."""
    depth, i, in_class = 0, 0, False
    while i < len(r):
        c = r[i]
        if c == "\\":
            i += 2
            continue
        if in_class:
            if c == "]":
                in_class = False
                if depth == 0:
                    return i
        elif c == "[":
            in_class = True
            if i + 1 < len(r) and r[i + 1] == "^":
                i += 1
            if i + 1 < len(r) and r[i + 1] == "]":
                i += 1
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return -1


def _atom(r: str) -> str:
    return r if _is_atom(r) else f"(?:{r})"


def _repeat(r: str, lo: int, hi: int | None) -> str:
    if hi == 0 or not r:
        return ""
    return r if (lo, hi) == (1, 1) else _atom(r) + _quantifier(lo, hi)


def _quantifier(lo: int, hi: int | None) -> str:
    if hi is None:
        return {0: "*", 1: "+"}.get(lo, f"{{{lo},}}")
    if (lo, hi) == (1, 1):
        return ""
    if (lo, hi) == (0, 1):
        return "?"
    return f"{{{lo}}}" if lo == hi else f"{{{lo},{hi}}}"


def _natural_range(lo: int, hi: int | None) -> str:
    """Non-negative integers in [lo, hi] without leading zeros."""
    if hi is None:
        # Every number with more digits than lo is above it.
        d = len(str(lo))
        return _alt([_natural_range(lo, 10**d - 1), "[1-9]" + _repeat("[0-9]", d, None)])
    alts = []
    for d in range(len(str(lo)), len(str(hi)) + 1):
        first = 0 if d == 1 else 10 ** (d - 1)
        alts.append(_same_length(str(max(lo, first)), str(min(hi, 10**d - 1))))
    return _alt(alts)


def _same_length(lo: str, hi: str) -> str:
    """Digit strings of one length between lo and hi, lexicographically."""
    if lo == hi:
        return lo
    k = len(lo) - 1
    if lo[0] == hi[0]:
        return lo[0] + _same_length(lo[1:], hi[1:])
    # A partial first-digit bucket at each end, full buckets in between.
    alts, first, last = [], int(lo[0]), int(hi[0])
    if lo[1:] != "0" * k:
        alts.append(lo[0] + _same_length(lo[1:], "9" * k))
        first += 1
    if hi[1:] != "9" * k:
        last -= 1
    if first <= last:
        alts.append(_digit_class(str(first), str(last)) + _repeat("[0-9]", k, k))
    if hi[1:] != "9" * k:
        alts.append(hi[0] + _same_length("0" * k, hi[1:]))
    return _alt(alts)


def _digit_class(a: str, b: str) -> str:
    if a == b:
        return a
    return f"[{a}{b}]" if int(b) == int(a) + 1 else f"[{a}-{b}]"


_META = frozenset(".^$*+?{}[]\\|()")
_CLASS_META = frozenset("\\]^-[")
_CONTROL_ESCAPES = {0x09: "\\t", 0x0A: "\\n", 0x0D: "\\r", 0x0C: "\\f", 0x0B: "\\v"}


def _escape_char(cp: int, meta: frozenset[str] = _META) -> str:
    c = chr(cp)
    if cp in _CONTROL_ESCAPES:
        return _CONTROL_ESCAPES[cp]
    if cp < 0x20 or cp == 0x7F:
        return f"\\x{cp:02x}"
    if cp > 0x7F and not c.isprintable():
        # Invisible code points (U+2028, private use, unassigned) read better escaped.
        return f"\\u{cp:04x}" if cp <= 0xFFFF else f"\\U{cp:08x}"
    return "\\" + c if c in meta else c


# --------------------------------------------------------------------------- dialect parser
# A small parser for compile_regex's dialect. It checks user regexes, and lets
# a JSON-Schema `pattern` (which constrains the *decoded* string) be rewritten
# into a regex over the *encoded* JSON string body.

_MAX_CP = 0x10FFFF
_Ranges = tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class _Set:
    ranges: _Ranges


@dataclass(frozen=True)
class _Cat:
    items: tuple[Any, ...]


@dataclass(frozen=True)
class _Alt:
    items: tuple[Any, ...]


@dataclass(frozen=True)
class _Rep:
    item: Any
    lo: int
    hi: int | None


def _norm(ranges: Sequence[tuple[int, int]]) -> _Ranges:
    out: list[tuple[int, int]] = []
    for lo, hi in sorted(ranges):
        if out and lo <= out[-1][1] + 1:
            out[-1] = (out[-1][0], max(out[-1][1], hi))
        else:
            out.append((lo, hi))
    return tuple(out)


def _complement(ranges: _Ranges) -> _Ranges:
    out, nxt = [], 0
    for lo, hi in ranges:
        if lo > nxt:
            out.append((nxt, lo - 1))
        nxt = hi + 1
    if nxt <= _MAX_CP:
        out.append((nxt, _MAX_CP))
    return tuple(out)


def _intersect(a: _Ranges, b: _Ranges) -> _Ranges:
    return _complement(_norm(_complement(a) + _complement(b)))


_DIGIT = ((0x30, 0x39),)
_WORD = _norm([(0x30, 0x39), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A)])
_SPACE = _norm([(0x09, 0x0D), (0x20, 0x20)])
_SHORTHAND = {
    "d": _DIGIT, "D": _complement(_DIGIT), "w": _WORD, "W": _complement(_WORD),
    "s": _SPACE, "S": _complement(_SPACE),
}  # fmt: skip
# JSON Schema patterns are ECMA-262 regexes, yet Python validators (jsonschema)
# run them with `re`, whose \d \w \s are Unicode-wide. A translated pattern
# must be sound under both readings, so each shorthand takes the narrowest
# meaning where it adds characters and the widest inside a negated class.
_ECMA_SPACE = _norm(
    [(0x09, 0x0D), (0x20, 0x20), (0xA0, 0xA0), (0x1680, 0x1680), (0x2000, 0x200A),
     (0x2028, 0x2029), (0x202F, 0x202F), (0x205F, 0x205F), (0x3000, 0x3000), (0xFEFF, 0xFEFF)]
)  # fmt: skip


@functools.cache
def _unicode_shorthand(kind: str) -> _Ranges:
    """Code points Python's `re` matches with \\d, \\w or \\s on str."""
    everything = "".join(map(chr, range(0xD800))) + "".join(map(chr, range(0xE000, _MAX_CP + 1)))
    hole = 0xE000 - 0xD800  # offsets past the surrogate gap are shifted by its size
    out = []
    for m in re.finditer("\\" + kind + "+", everything):
        a, b = m.start(), m.end() - 1
        if b < 0xD800 or a >= 0xD800:
            out.append((a + hole * (a >= 0xD800), b + hole * (b >= 0xD800)))
        else:
            out += [(a, 0xD7FF), (0xE000, b + hole)]
    return _norm(out)


def _portable_shorthand(e: str, widen: bool) -> _Ranges:
    base = e.lower()
    ascii_set = _SHORTHAND[base]
    wide = _norm(_unicode_shorthand(base) + ascii_set + (_ECMA_SPACE if base == "s" else ()))
    if e == base:
        return wide if widen else ascii_set
    return _complement(ascii_set if widen else wide)


_SIMPLE_ESCAPES = {"n": 0x0A, "t": 0x09, "r": 0x0D, "f": 0x0C, "v": 0x0B, "a": 0x07}
_HEX_ESCAPES = {"x": 2, "u": 4, "U": 8}
_QUANT = re.compile(r"\{(\d*)(?:(,)(\d*))?\}")


def _checked_parse(pattern: str, portable: bool = False) -> Any:
    node = _parse_regex(pattern, portable)
    try:
        regex.compile(pattern, flags=regex.ASCII)
    except regex.error as exc:
        raise RegexDialectError(f"{pattern!r}: {exc}") from exc
    return node


def _parse_regex(pattern: str, portable: bool = False) -> Any:
    parser = _Parser(pattern, portable=portable)
    node = parser.alternation()
    if parser.i != len(pattern):
        raise parser.error("unbalanced ')'")
    return node


@dataclass
class _Parser:
    p: str
    i: int = 0
    # True for JSON Schema patterns: meanings that hold under ECMA-262 and `re`.
    portable: bool = False

    def error(self, msg: str) -> RegexDialectError:
        return RegexDialectError(f"{self.p!r} at offset {self.i}: {msg}")

    def peek(self, k: int = 0) -> str:
        j = self.i + k
        return self.p[j] if j < len(self.p) else ""

    def alternation(self) -> Any:
        items = [self.concat()]
        while self.peek() == "|":
            self.i += 1
            items.append(self.concat())
        return items[0] if len(items) == 1 else _Alt(tuple(items))

    def concat(self) -> Any:
        items = []
        while self.peek() not in ("", "|", ")"):
            items.append(self.quantified(self.atom()))
        return items[0] if len(items) == 1 else _Cat(tuple(items))

    def quantified(self, atom: Any) -> Any:
        c = self.peek()
        if c in ("*", "+", "?"):
            self.i += 1
            lo, hi = {"*": (0, None), "+": (1, None), "?": (0, 1)}[c]
        elif c == "{" and (m := self._quant_at()):
            self.i = m.end()
            lo = int(m.group(1) or 0)
            hi = lo if m.group(2) is None else (int(m.group(3)) if m.group(3) else None)
            if hi is not None and lo > hi:
                raise self.error(f"bad repeat {{{lo},{hi}}}")
        else:
            return atom
        if self.peek() in ("*", "+", "?") or (self.peek() == "{" and self._quant_at()):
            raise self.error("lazy, possessive or stacked quantifiers are unsupported")
        return _Rep(atom, lo, hi)

    def _quant_at(self) -> re.Match[str] | None:
        m = _QUANT.match(self.p, self.i)
        if m and not m.group(1):
            # The oracle reads "{,n}" as {0,n}, Python's re as a literal: refuse both.
            raise self.error("write {0,n} instead of {,n}")
        return m

    def atom(self) -> Any:
        c = self.peek()
        if c == "(":
            if self.p.startswith("(?:", self.i):
                self.i += 3
            elif self.peek(1) == "?":
                raise self.error("only (...) and (?:...) groups (no lookaround, flags, names)")
            else:
                self.i += 1
            node = self.alternation()
            if self.peek() != ")":
                raise self.error("missing ')'")
            self.i += 1
            return node
        if c == "[":
            return self.char_class()
        if c == ".":
            self.i += 1
            # ECMA's "." also stops at CR, U+2028 and U+2029.
            stops = _norm([(0x0A, 0x0A), (0x0D, 0x0D), (0x2028, 0x2029)])
            return _Set(_complement(stops if self.portable else ((0x0A, 0x0A),)))
        if c == "\\":
            kind, value = self.escape(widen=False)
            return _Set(value if kind == "set" else ((value, value),))
        if c in ("^", "$"):
            raise self.error("anchors are unsupported inside a regex")
        if c in ("*", "+", "?", "{", "}"):
            # A brace that is not a quantifier is a literal to the oracle, but
            # dialects disagree; asking for "\{" keeps everyone in agreement.
            raise self.error(f"nothing to repeat, or unescaped '{c}'")
        self.i += 1
        return _Set(((ord(c), ord(c)),))

    def escape(self, widen: bool) -> tuple[str, Any]:
        e = self.peek(1)
        self.i += 2
        if e in _SHORTHAND:
            return "set", _portable_shorthand(e, widen) if self.portable else _SHORTHAND[e]
        if e in _SIMPLE_ESCAPES:
            return "char", _SIMPLE_ESCAPES[e]
        if e in _HEX_ESCAPES:
            n = _HEX_ESCAPES[e]
            digits = self.p[self.i : self.i + n]
            if len(digits) != n or not all(d in "0123456789abcdefABCDEF" for d in digits):
                raise self.error(f"\\{e} needs {n} hex digits")
            self.i += n
            cp = int(digits, 16)
            if cp > _MAX_CP:
                raise self.error("code point out of range")
            return "char", cp
        if e == "":
            raise self.error("trailing backslash")
        if e.isalnum() or e == "_":
            what = (
                "word boundary/anchor" if e in "bBAZzG" else "backreference" if e.isdigit() else ""
            )
            raise self.error(f"unsupported escape \\{e} {what}".rstrip())
        return "char", ord(e)

    def char_class(self) -> _Set:
        self.i += 1
        negate = self.peek() == "^"
        if negate:
            self.i += 1
        ranges: list[tuple[int, int]] = []
        first = True
        while True:
            c = self.peek()
            if c == "":
                raise self.error("unterminated character class")
            if c == "]" and not first:
                self.i += 1
                break
            if c == "[" and self.peek(1) in (":", "=", "."):
                raise self.error("POSIX classes are unsupported")
            first = False
            kind, lo = self.class_item(negate)
            if kind == "char" and self.peek() == "-" and self.peek(1) not in ("]", ""):
                self.i += 1
                kind2, hi = self.class_item(negate)
                if kind2 != "char" or hi < lo:
                    raise self.error("bad range in character class")
                ranges.append((lo, hi))
            elif kind == "char":
                ranges.append((lo, lo))
            else:
                ranges.extend(lo)
        out = _norm(ranges)
        return _Set(_complement(out) if negate else out)

    def class_item(self, negated: bool) -> tuple[str, Any]:
        c = self.peek()
        if c == "\\":
            if self.peek(1) == "b":
                raise self.error("\\b inside a class is unsupported")
            return self.escape(widen=negated)
        self.i += 1
        return "char", ord(c)


# --------------------------------------------------------------------------- pattern -> JSON body

_SURROGATES = ((0xD800, 0xDFFF),)
# Characters that may appear unescaped inside a JSON string.
_JSON_SAFE = _complement(_norm([(0x00, 0x1F), (0x22, 0x22), (0x5C, 0x5C), *_SURROGATES]))
_JSON_SHORT = {0x08: "b", 0x09: "t", 0x0A: "n", 0x0C: "f", 0x0D: "r"}


def _json_string_pattern(pattern: Any, path: str) -> str:
    """Rewrite a `pattern` on the decoded string into a regex on the JSON body.

    Each character set is split into the characters JSON writes as-is and the
    ones it must escape (`"`, backslash, controls), which become the escape
    json.dumps writes. So a pattern may use `.`, `\\s` or `[^a]` and the output
    is still valid JSON. JSON Schema patterns search (they are not anchored):
    a missing leading `^` / trailing `$` becomes any-characters on that side.
    """
    if not isinstance(pattern, str):
        raise SchemaError("must be a string", "pattern", path)
    body, head, tail = pattern, True, True
    if body.startswith("^"):
        body, head = body[1:], False
    if body.endswith("$"):
        # The "$" is an anchor only when not itself escaped: an even run of "\" before it.
        run = len(body) - 1 - len(body[:-1].rstrip("\\"))
        if run % 2 == 0:
            body, tail = body[:-1], False
    try:
        node = _checked_parse(body, portable=True)
    except RegexDialectError as exc:
        raise SchemaError(str(exc), "pattern", path) from None
    try:
        inner = _emit(node)[0]
    except ValueError as exc:
        raise SchemaError(str(exc), "pattern", path) from None
    anything = JSON_STRING_CHAR + "*"
    if not inner:
        return anything if head or tail else ""
    # The emitter wraps every alternation, so `inner` concatenates safely.
    return (anything if head else "") + inner + (anything if tail else "")


def _emit(node: Any) -> tuple[str, bool]:
    """(regex text, is_atom) for a parsed node, with JSON-encoded char sets."""
    if isinstance(node, _Set):
        text = _json_char_set(node.ranges)
        return text, _is_atom(text)
    if isinstance(node, _Cat):
        # Alternations always come back wrapped in a group, so joining is safe.
        parts = [_emit(x) for x in node.items]
        return "".join(t for t, _ in parts), len(parts) == 1 and parts[0][1]
    if isinstance(node, _Alt):
        return "(?:" + "|".join(_emit(x)[0] for x in node.items) + ")", True
    if node.hi == 0:
        return "", False
    text, atom = _emit(node.item)
    return (text if atom else f"(?:{text})") + _quantifier(node.lo, node.hi), False


def _json_char_set(ranges: _Ranges) -> str:
    alts = []
    safe = _intersect(ranges, _JSON_SAFE)
    if safe:
        alts.append(_class(safe))
    if _contains(ranges, 0x22):
        alts.append('\\\\"')
    if _contains(ranges, 0x5C):
        alts.append("\\\\\\\\")
    short = "".join(letter for cp, letter in sorted(_JSON_SHORT.items()) if _contains(ranges, cp))
    if short:
        alts.append("\\\\" + (short if len(short) == 1 else f"[{short}]"))
    # Other controls: json.dumps writes \u00XX with lowercase hex.
    by_high: dict[str, list[str]] = {}
    for cp in range(0x20):
        if cp not in _JSON_SHORT and _contains(ranges, cp):
            by_high.setdefault(f"{cp >> 4:x}", []).append(f"{cp & 15:x}")
    if by_high:
        low = [h + _class(_norm([(ord(d), ord(d)) for d in lows])) for h, lows in by_high.items()]
        alts.append("\\\\u00" + _alt(low))
    if not alts:
        raise ValueError("a character set in the pattern matches no encodable character")
    return _alt(alts)


def _contains(ranges: _Ranges, cp: int) -> bool:
    return any(lo <= cp <= hi for lo, hi in ranges)


def _class(ranges: _Ranges) -> str:
    if len(ranges) == 1 and ranges[0][0] == ranges[0][1]:
        return _escape_char(ranges[0][0])
    items = []
    for lo, hi in ranges:
        a = _escape_char(lo, _CLASS_META)
        if hi == lo:
            items.append(a)
        elif hi == lo + 1:
            items.append(a + _escape_char(hi, _CLASS_META))
        else:
            items.append(f"{a}-{_escape_char(hi, _CLASS_META)}")
    return "[" + "".join(items) + "]"


if __name__ == "__main__":
    print(schema_to_regex(FINANCIAL_SUMMARY_SCHEMA))
