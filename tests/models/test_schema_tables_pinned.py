# SPDX-License-Identifier: Apache-2.0
"""Compiled schema tables are pinned: refactoring the compiler must not change them.

The figures below were recorded from the compiler as it was before
models/json_schema.py was split and made to reuse the regex_dfa parser
(commit 245754b). For every schema the repository uses (the financial-summary
and nested-arrays schemas, and the schemas tests/models/test_json_schema.py
checks), in both whitespace modes, this compares:

* a hash of the regex text,
* the byte DFA's state and byte-class counts and a hash of its tables,
* the token tables' state, class and mask-row counts and a hash of the table
  image (models.table_image) on a small fixed vocabulary.

Run `python -m tests.models.test_schema_tables_pinned` to print the current
figures (e.g. to re-record them after an intended change, saying why in the
commit).
"""

from __future__ import annotations

import hashlib
import string
from typing import Any

import pytest

from models.fsm_sizes import NESTED_ARRAYS_SCHEMA
from models.json_schema import FINANCIAL_SUMMARY_SCHEMA, schema_to_regex
from models.regex_dfa import compile_regex
from models.table_image import ROW_BASE_VERSION, image_bytes
from models.token_fsm import TokenFSM
from models.vocab import Vocabulary
from tests.models.test_json_schema import PATTERN_CASES, PATTERNS, SCHEMAS

# Single bytes for every printable ASCII character, a few multi-byte pieces that
# cross JSON token boundaries, and EOS: small enough to build every schema in
# seconds, rich enough that classes and mask rows depend on the grammar.
_PIECES = [*string.printable, '{"', '":', '",', '"}', "],", "[[", "true", "null", "é", "😀"]
_VOCAB = Vocabulary.from_list(_PIECES, eos="<|eos|>", name="pinned")


def _schemas() -> dict[str, Any]:
    out = dict(SCHEMAS)
    out["financial"] = FINANCIAL_SUMMARY_SCHEMA
    out["nested_arrays"] = NESTED_ARRAYS_SCHEMA
    return out


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:16]


def fingerprint(schema: Any, whitespace: str) -> tuple[Any, ...]:
    pattern = schema_to_regex(schema, whitespace)
    dfa = compile_regex(pattern)
    dfa_hash = _sha(dfa.transitions.tobytes() + dfa.accepting.tobytes() + dfa.byte_class.tobytes())
    tables = TokenFSM.build(dfa, _VOCAB).tables
    return (
        _sha(pattern.encode()),
        dfa.num_states,
        dfa.num_classes,
        dfa_hash,
        tables.num_states,
        tables.num_classes,
        tables.num_mask_rows,
        _sha(image_bytes(tables, ROW_BASE_VERSION)),
    )


# (schema, whitespace) -> (regex hash, DFA states, byte classes, DFA hash,
#  token states, token classes, mask rows, image hash), recorded before the split;
#  the image hashes re-recorded when classes were renumbered by live-state count,
#  and again when they were numbered into contiguous runs per state
#  (interval_class_order); every count stayed the same both times.
PINNED: dict[tuple[str, str], tuple[Any, ...]] = {
    ("all_optional", "compact"): (
        "01a7ec1c8c18d35e",
        98,
        38,
        "36ccf4de5ce5737c",
        78,
        36,
        34,
        "244268cb12ef6459",
    ),
    ("all_optional", "flexible"): (
        "62df004c5600dce0",
        354,
        40,
        "5eded7e2d4623a52",
        334,
        38,
        43,
        "e1e24f60a8a9fb9e",
    ),
    ("financial", "compact"): (
        "7bfeb611d77e968b",
        14200,
        46,
        "ca8dac51879be417",
        9301,
        44,
        45,
        "2a6486a3c1e6bad7",
    ),
    ("financial", "flexible"): (
        "41e491e5744cde43",
        15192,
        48,
        "c844f7b1a80e21f7",
        10293,
        46,
        55,
        "71959a1af57fdaf9",
    ),
    ("literals", "compact"): (
        "6ed6f73cd8b7073a",
        93,
        36,
        "aab801a57552ab1d",
        94,
        43,
        43,
        "cae1852a50c48493",
    ),
    ("literals", "flexible"): (
        "6074737257a3441f",
        605,
        37,
        "d024dc817f0fdd68",
        606,
        44,
        55,
        "c959b031b3523d74",
    ),
    ("nested_arrays", "compact"): (
        "f7dd8a08cc08717c",
        1551,
        38,
        "c2c5f7f8b750b78a",
        1048,
        36,
        47,
        "cbb6916beffd90b4",
    ),
    ("nested_arrays", "flexible"): (
        "d02e0f3479e50702",
        2703,
        40,
        "a6882f43771c024b",
        2200,
        38,
        62,
        "63e0d64acb4f88b3",
    ),
    ("numbers", "compact"): (
        "c45e6123f765e1ae",
        164,
        55,
        "49bd2b7fe4a9a5d9",
        151,
        53,
        54,
        "e11eef3c8c4eab66",
    ),
    ("numbers", "flexible"): (
        "5fc2f9c20cf617ff",
        772,
        57,
        "db8afc6b7a9c8672",
        759,
        55,
        67,
        "91e68e97d309f375",
    ),
    ("person", "compact"): (
        "f683223a3901c7b6",
        988,
        55,
        "8b7c50ddf7bbddf2",
        702,
        54,
        70,
        "57b4f5ba737cde2a",
    ),
    ("person", "flexible"): (
        "754662f81ee7ebb0",
        1724,
        57,
        "a4fdc0ba88a903b6",
        1438,
        56,
        84,
        "bf9e0c3dae804e07",
    ),
    ("segment", "compact"): (
        "fa3e59960a79b555",
        72,
        21,
        "0a786486995655d2",
        73,
        24,
        27,
        "3ce7cabd7c9447da",
    ),
    ("segment", "flexible"): (
        "dd4ca53c649d283e",
        456,
        22,
        "508a01742482f607",
        457,
        25,
        33,
        "42c496b570e659cb",
    ),
    ("shape", "compact"): (
        "8ba0570b1527c388",
        53,
        24,
        "a2049aa997ddb458",
        54,
        29,
        30,
        "969794e7f7757b15",
    ),
    ("shape", "flexible"): (
        "6c9abdbbd4ca2431",
        309,
        25,
        "ab22821f6f776199",
        310,
        30,
        36,
        "fb78cdd341c4dc9e",
    ),
}


@pytest.mark.parametrize("key", sorted(PINNED), ids=lambda k: f"{k[0]}-{k[1]}")
def test_compiled_tables_unchanged(key):
    name, whitespace = key
    assert fingerprint(_schemas()[name], whitespace) == PINNED[key]


def patterns_fingerprint() -> str:
    """One hash over the regex every `pattern` the tests use compiles to."""
    pats = sorted({*PATTERNS, *(p for p, _, _ in PATTERN_CASES)})
    text = "\n".join(
        schema_to_regex({"type": "string", "pattern": p}, ws)
        for p in pats
        for ws in ("compact", "flexible")
    )
    return _sha(text.encode())


PINNED_PATTERNS = "4fac04faacc85b89"


def test_pattern_regexes_unchanged():
    assert patterns_fingerprint() == PINNED_PATTERNS


def test_every_schema_is_pinned():
    assert set(PINNED) == {(n, w) for n in _schemas() for w in ("compact", "flexible")}


if __name__ == "__main__":
    for name in sorted(_schemas()):
        for ws in ("compact", "flexible"):
            print(f"    ({name!r}, {ws!r}): {fingerprint(_schemas()[name], ws)!r},")
    print(f"PINNED_PATTERNS = {patterns_fingerprint()!r}")
