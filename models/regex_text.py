# SPDX-License-Identifier: Apache-2.0
"""Writing regex text in the token-FSM dialect: alternation, repetition, escapes, integer ranges.

The JSON-schema compiler (models.json_schema) and its pattern reader
(models.schema_pattern) build their output from these, so every regex they
write uses only what models.regex_dfa.compile_regex and the `regex` oracle
read the same way. Helpers work on our own output only: they assume a regex
came from here when they look inside it (is_atom, alternation flattening).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from .regex_parse import CodeSet


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
        alts.append("-" + atom(_natural_range(mag_lo, mag_hi)))
    if hi is None or hi >= 0:
        alts.append(_natural_range(max(0, lo if lo is not None else 0), hi))
    return alt(alts)


def escape_literal(text: str) -> str:
    """Regex that matches exactly `text`, using only escapes the dialect has."""
    return "".join(escape_char(ord(c)) for c in text)



def alt(alts: Sequence[str]) -> str:
    flat: list[str] = []
    for a in alts:  # (?:a|b)|c reads better, and compiles the same, as a|b|c
        flat += _branches(a[3:-1]) if a.startswith("(?:") and is_atom(a) else [a]
    flat = list(dict.fromkeys(flat))
    return flat[0] if len(flat) == 1 else "(?:" + "|".join(flat) + ")"


def _branches(r: str) -> list[str]:
    """Split our own regex text at its top-level '|'."""
    out, start = [], 0
    for i, c, depth in _structure(r):
        if c == "|" and depth == 0:
            out.append(r[start:i])
            start = i + 1
    return [*out, r[start:]]


def is_atom(r: str) -> bool:
    if len(r) == 1 or (len(r) == 2 and r[0] == "\\"):
        return True
    if r.startswith(("(?:", "[")):
        return _closing_index(r) == len(r) - 1
    return False


def _closing_index(r: str) -> int:
    """Index of the bracket that closes r[0], for a regex r in our own output."""
    for i, c, depth in _structure(r):
        if depth == 0 and c in ")]":
            return i
    return -1


def _structure(r: str) -> Iterator[tuple[int, str, int]]:
    """(index, character, group depth after it) for our own regex text, skipping
    escapes; a character class is reported once, as its closing ']'."""
    depth, i = 0, 0
    while i < len(r):
        c = r[i]
        if c == "\\":
            i += 2
            continue
        if c == "[":
            j = i + 1
            j += r[j : j + 1] == "^"
            j += r[j : j + 1] == "]"  # a "]" first in a class is a literal
            while j < len(r) and r[j] != "]":
                j += 2 if r[j] == "\\" else 1
            yield j, "]", depth
            i = j + 1
            continue
        depth += (c == "(") - (c == ")")
        yield i, c, depth
        i += 1


def atom(r: str) -> str:
    return r if is_atom(r) else f"(?:{r})"


def repeat(r: str, lo: int, hi: int | None) -> str:
    if hi == 0 or not r:
        return ""
    return r if (lo, hi) == (1, 1) else atom(r) + quantifier(lo, hi)


def quantifier(lo: int, hi: int | None) -> str:
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
        return alt([_natural_range(lo, 10**d - 1), "[1-9]" + repeat("[0-9]", d, None)])
    alts = []
    for d in range(len(str(lo)), len(str(hi)) + 1):
        first = 0 if d == 1 else 10 ** (d - 1)
        alts.append(_same_length(str(max(lo, first)), str(min(hi, 10**d - 1))))
    return alt(alts)


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
        alts.append(_digit_class(str(first), str(last)) + repeat("[0-9]", k, k))
    if hi[1:] != "9" * k:
        alts.append(hi[0] + _same_length("0" * k, hi[1:]))
    return alt(alts)


def _digit_class(a: str, b: str) -> str:
    if a == b:
        return a
    return f"[{a}{b}]" if int(b) == int(a) + 1 else f"[{a}-{b}]"


_META = frozenset(".^$*+?{}[]\\|()")
_CLASS_META = frozenset("\\]^-[")
_CONTROL_ESCAPES = {0x09: "\\t", 0x0A: "\\n", 0x0D: "\\r", 0x0C: "\\f", 0x0B: "\\v"}


def escape_char(cp: int, meta: frozenset[str] = _META) -> str:
    c = chr(cp)
    if cp in _CONTROL_ESCAPES:
        return _CONTROL_ESCAPES[cp]
    if cp < 0x20 or cp == 0x7F:
        return f"\\x{cp:02x}"
    if cp > 0x7F and not c.isprintable():
        # Invisible code points (U+2028, private use, unassigned) read better escaped.
        return f"\\u{cp:04x}" if cp <= 0xFFFF else f"\\U{cp:08x}"
    return "\\" + c if c in meta else c



def char_class(ranges: CodeSet) -> str:
    if len(ranges) == 1 and ranges[0][0] == ranges[0][1]:
        return escape_char(ranges[0][0])
    items = []
    for lo, hi in ranges:
        a = escape_char(lo, _CLASS_META)
        if hi == lo:
            items.append(a)
        elif hi == lo + 1:
            items.append(a + escape_char(hi, _CLASS_META))
        else:
            items.append(f"{a}-{escape_char(hi, _CLASS_META)}")
    return "[" + "".join(items) + "]"
