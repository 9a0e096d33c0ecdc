# SPDX-License-Identifier: Apache-2.0
"""When may `oneOf` become an alternation: a conservative test that two schemas are disjoint.

oneOf rejects a document that matches two branches, which a regex alternation
cannot express; the compiler (models.json_schema) therefore compiles oneOf only
when no document can match two branches: different JSON kinds, different
literals, or an object property both require with disjoint schemas. Anything
it cannot prove disjoint counts as overlapping (sound, not complete).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from .schema_base import JSON_TYPES

_KIND_OF_TYPE = {"integer": "number"}  # every JSON integer is also a number


def _kinds(schema: Any) -> frozenset[str]:
    """JSON kinds a schema can accept, judged on what it declares (not infers)."""
    everything = frozenset(_KIND_OF_TYPE.get(t, t) for t in JSON_TYPES)
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


def disjoint(a: Any, b: Any, deref: Callable[[Any, str], Any]) -> bool:
    """True only if no JSON document can validate against both a and b."""
    for x, y in ((a, b), (b, a)):
        if isinstance(x, Mapping):
            for comb in ("anyOf", "oneOf"):
                if isinstance(x.get(comb), list):
                    return all(disjoint(deref(br, "#"), y, deref) for br in x[comb])
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
            k in pa and k in pb and disjoint(deref(pa[k], "#"), deref(pb[k], "#"), deref)
            for k in sorted(req)
        )
    return False
