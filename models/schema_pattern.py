# SPDX-License-Identifier: Apache-2.0
r"""Regexes written by people: the dialect check, and JSON-Schema `pattern` on the JSON string body.

Both read a pattern with models.regex_parse's parser (one parser for the whole
project), through `DialectParser`, which is stricter where a pattern is
embedded in a larger regex or read by more than one regex engine:

* `check_regex_dialect` (constraint programs' `gen(regex=...)`): a pattern that
  passes means the same to the `regex` oracle and to compile_regex, also when it
  is spliced into a larger regex, so anchors are refused, and so are lazy
  quantifiers, `{,n}`, named groups, `\0`, `\N{...}` and `[\b]`.
* `json_string_pattern` (a schema's `pattern`): it constrains the *decoded*
  string, and JSON Schema patterns are ECMA-262 regexes that Python validators
  (jsonschema) run with `re`. The translation must be sound under both
  readings: "." stops at CR, U+2028 and U+2029 as in ECMA-262, and \d \w \s
  take the narrowest reading where they add characters and the widest inside
  a negated class.

Surrogates (U+D800..U+DFFF): code-point sets never contain them (they are not
characters a UTF-8 text or a JSON string decoded from it can hold; a pair
written as `\ud83d\ude00` in JSON text decodes to one astral character), and a
pattern that names one (`\ud800`) is refused, as compile_regex refuses it.
docs/json-schema.md has the details.
"""

from __future__ import annotations

import functools
import re
from typing import Any

import regex

from .regex_parse import (
    ASCII_SHORTHANDS,
    MAX_CODE_POINT,
    CodeSet,
    RegexError,
    RegexParser,
    complement,
    intersect,
    normalise,
)
from .regex_text import alt, char_class, is_atom, quantifier
from .schema_base import JSON_STRING_CHAR, RegexDialectError, SchemaError


def check_regex_dialect(pattern: str) -> None:
    """Raise RegexDialectError unless `pattern` is in compile_regex's dialect.

    Also rejects what the `regex` oracle itself cannot compile, so a pattern
    that passes here means the same thing to the oracle and to the DFA.
    """
    checked_parse(pattern)


def checked_parse(pattern: str, portable: bool = False) -> tuple:
    """The AST of `pattern` (models.regex_parse's tuples), or RegexDialectError."""
    try:
        node = DialectParser(pattern, portable).parse()
    except RegexError as exc:
        raise RegexDialectError(str(exc)) from None
    try:
        regex.compile(pattern, flags=regex.ASCII)
    except regex.error as exc:
        raise RegexDialectError(f"{pattern!r}: {exc}") from exc
    return node


# --------------------------------------------------------------------------- the parser

# ECMA's "." also stops at CR, U+2028 and U+2029.
_ECMA_DOT = complement(normalise([(0x0A, 0x0A), (0x0D, 0x0D), (0x2028, 0x2029)]))
_ECMA_SPACE = normalise(
    [(0x09, 0x0D), (0x20, 0x20), (0xA0, 0xA0), (0x1680, 0x1680), (0x2000, 0x200A),
     (0x2028, 0x2029), (0x202F, 0x202F), (0x205F, 0x205F), (0x3000, 0x3000), (0xFEFF, 0xFEFF)]
)  # fmt: skip


@functools.cache
def _unicode_shorthand(kind: str) -> CodeSet:
    """Code points Python's `re` matches with \\d, \\w or \\s on str."""
    everything = "".join(map(chr, range(0xD800))) + "".join(
        map(chr, range(0xE000, MAX_CODE_POINT + 1))
    )
    hole = 0xE000 - 0xD800  # offsets past the surrogate gap are shifted by its size
    out = []
    for m in re.finditer("\\" + kind + "+", everything):
        a, b = m.start(), m.end() - 1
        if b < 0xD800 or a >= 0xD800:
            out.append((a + hole * (a >= 0xD800), b + hole * (b >= 0xD800)))
        else:
            out += [(a, 0xD7FF), (0xE000, b + hole)]
    return normalise(out)


def _portable_shorthand(e: str, widen: bool) -> CodeSet:
    base = e.lower()
    ascii_set = ASCII_SHORTHANDS[base]
    wide = normalise([*_unicode_shorthand(base), *ascii_set,
                      *(_ECMA_SPACE if base == "s" else ())])  # fmt: skip
    if e == base:
        return wide if widen else ascii_set
    return complement(ascii_set if widen else wide)


class DialectParser(RegexParser):
    """models.regex_parse's parser with the refusals above; `portable` adds the
    meanings that hold under both ECMA-262 and Python `re` (schema patterns)."""

    def __init__(self, pattern: str, portable: bool = False) -> None:
        super().__init__(pattern)
        self.portable = portable

    def parse(self) -> tuple:
        # Unlike fullmatch patterns, a leading "^" is not skipped: it is refused below.
        node = self.parse_alt()
        if self.i < self.n:
            raise self.error("unbalanced ')'")
        return node

    def parse_atom(self) -> tuple:
        c = self.p[self.i]
        if c in "^$":
            raise self.error("anchors are unsupported inside a regex")
        if c == "}":
            # A literal to `regex` and `re`, an error to ECMA-262 with the u flag.
            raise self.error("unescaped '}' (write \\} for a literal brace)")
        return super().parse_atom()

    def parse_group(self) -> tuple:
        if self.p.startswith("(?", self.i) and not self.p.startswith("(?:", self.i):
            raise self.error("only (...) and (?:...) groups (no lookaround, flags, names)")
        return super().parse_group()

    def parse_quantifier(self) -> tuple[int, int | None] | None:
        pos = self.i
        if self.p.startswith("{,", pos) and self._brace_quantifier() is not None:
            # The oracle reads "{,n}" as {0,n}, Python's re (before 3.13) as a literal.
            raise self.error("write {0,n} instead of {,n}")
        q = super().parse_quantifier()
        if q is not None:
            end = pos + 1 if self.p[pos] in "*+?" else self.p.index("}", pos) + 1
            if self.i != end:  # the parent consumed a lazy "?"
                raise self.error("lazy, possessive or stacked quantifiers are unsupported", pos)
        return q

    def parse_escape(self, in_class: bool, negated: bool = False) -> CodeSet:
        c = self.p[self.i + 1 : self.i + 2]
        if c in ("1", "2", "3", "4", "5", "6", "7", "8", "9"):
            raise self.error("unsupported escape (backreference)")
        if c in ("0", "N"):
            # \0oo is octal to `regex`, NUL followed by digits to ECMA-262.
            raise self.error(f"unsupported escape \\{c}")
        if in_class and c == "b":
            raise self.error("\\b inside a class is unsupported")
        return super().parse_escape(in_class, negated)

    def dot(self) -> CodeSet:
        return _ECMA_DOT if self.portable else super().dot()

    def shorthand(self, letter: str, in_negated_class: bool) -> CodeSet:
        if self.portable:
            return _portable_shorthand(letter, widen=in_negated_class)
        return super().shorthand(letter, in_negated_class)


# --------------------------------------------------------------------------- pattern -> JSON body

# Characters that may appear unescaped inside a JSON string (surrogates are
# never in a code-point set, see the module docstring).
_JSON_SAFE = complement(normalise([(0x00, 0x1F), (0x22, 0x22), (0x5C, 0x5C)]))
_JSON_SHORT = {0x08: "b", 0x09: "t", 0x0A: "n", 0x0C: "f", 0x0D: "r"}


def json_string_pattern(pattern: Any, path: str) -> str:
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
        node = checked_parse(body, portable=True)
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




def _emit(node: tuple) -> tuple[str, bool]:
    """(regex text, is_atom) for a parsed node, with JSON-encoded char sets."""
    kind = node[0]
    if kind == "set":
        text = _json_char_set(node[1])
        return text, is_atom(text)
    if kind == "cat":
        # Alternations always come back wrapped in a group, so joining is safe.
        parts = [_emit(x) for x in node[1]]
        return "".join(t for t, _ in parts), len(parts) == 1 and parts[0][1]
    if kind == "alt":
        return "(?:" + "|".join(_emit(x)[0] for x in node[1]) + ")", True
    _, item, lo, hi = node
    if hi == 0:
        return "", False
    text, atom = _emit(item)
    return (text if atom else f"(?:{text})") + quantifier(lo, hi), False


def _json_char_set(ranges: CodeSet) -> str:
    alts = []
    safe = intersect(ranges, _JSON_SAFE)
    if safe:
        alts.append(char_class(safe))
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
        low = [
            h + char_class(normalise([(ord(d), ord(d)) for d in lows]))
            for h, lows in by_high.items()
        ]
        alts.append("\\\\u00" + alt(low))
    if not alts:
        raise ValueError("a character set in the pattern matches no encodable character")
    return alt(alts)


def _contains(ranges: CodeSet, cp: int) -> bool:
    return any(lo <= cp <= hi for lo, hi in ranges)
