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

The compiler is this module; its helpers are models.schema_base (JSON token
grammar, errors), models.regex_text (writing regex text), models.schema_pattern
(`pattern` strings, read with models.regex_parse's parser) and
models.schema_oneof (when oneOf may become an alternation).

Run `python -m models.json_schema` to print the regex for the source
document's financial-summary schema.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import jsonschema

from .regex_text import alt, atom, escape_literal, integer_range_regex, repeat
from .schema_base import (
    FLEXIBLE_WS,
    JSON_BOOLEAN,
    JSON_INTEGER,
    JSON_NULL,
    JSON_NUMBER,
    JSON_STRING,
    JSON_STRING_CHAR,
    JSON_TYPES,
    RegexDialectError,
    SchemaError,
)
from .schema_oneof import disjoint
from .schema_pattern import check_regex_dialect, json_string_pattern

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

_WHITESPACE_MODES = {"compact": "", "flexible": FLEXIBLE_WS}


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
_TYPES = JSON_TYPES
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
        return alt([self._typed(t, schema, path) for t in self._types(schema, path)])

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
                    if not disjoint(a, resolved[j], self._deref):
                        raise SchemaError(
                            f"branches {i} and {j} may overlap; oneOf is only compiled when "
                            "branches are provably disjoint (different types, different "
                            "literals, or a required property with different literals)",
                            keyword,
                            path,
                        )
        return alt([self.node(b, f"{path}/{keyword}/{i}") for i, b in enumerate(branches)])

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
        return alt([self._literal(v, path) for v in kept.values()])

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
            return f'"{json_string_pattern(schema["pattern"], path)}"'
        return f'"{repeat(JSON_STRING_CHAR, lo, hi)}"'

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
        item = atom(self.node(schema["items"], f"{path}/items"))
        open_, close = r"\[" + self.ws, self.ws + r"\]"
        if hi == 0:
            return r"\[" + self.ws + r"\]"
        more = repeat(self._sep + item, max(lo - 1, 0), None if hi is None else hi - 1)
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
        body = alt(heads)
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


if __name__ == "__main__":
    print(schema_to_regex(FINANCIAL_SUMMARY_SCHEMA))
