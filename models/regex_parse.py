# SPDX-License-Identifier: Apache-2.0
"""Regex parser of the token-FSM dialect (docs/regex-dialect.md), and code-point sets.

`RegexParser(pattern).parse()` turns a pattern into an AST over code-point sets
(tuples, see below); models.regex_dfa compiles it to a byte DFA, and
models.schema_pattern subclasses the parser for JSON-Schema `pattern` strings.

Code-point sets never hold a surrogate (U+D800..U+DFFF): those are not Unicode
scalar values, have no well-formed UTF-8 encoding and cannot appear in JSON text
or a decoded Python string that came from UTF-8, so every set operation here
works in the universe of scalar values, and a surrogate named in a pattern
(`\ud800`) is an error rather than a character that can never match.
"""

from __future__ import annotations

import unicodedata

MAX_CODE_POINT = 0x10FFFF
# Safety valve: counted repetition multiplies NFA size; refuse rather than hang.
MAX_REPEAT = 10_000


class RegexError(ValueError):
    """A pattern outside the supported dialect, or a malformed pattern."""

    def __init__(self, construct: str, position: int, pattern: str) -> None:
        self.construct = construct
        self.position = position
        self.pattern = pattern
        super().__init__(f"{construct} at position {position} in pattern {pattern!r}")

# ----------------------------------------------------------------------------
# Code-point sets: sorted, disjoint, non-adjacent inclusive ranges.
# ----------------------------------------------------------------------------

CodeSet = tuple[tuple[int, int], ...]

UNIVERSE: CodeSet = ((0, 0xD7FF), (0xE000, MAX_CODE_POINT))


def normalise(ranges: list[tuple[int, int]]) -> CodeSet:
    """Sort, merge, and drop surrogates (they have no well-formed UTF-8 encoding)."""
    out: list[list[int]] = []
    for lo, hi in sorted(ranges):
        if out and lo <= out[-1][1] + 1:
            out[-1][1] = max(out[-1][1], hi)
        else:
            out.append([lo, hi])
    return intersect(tuple((a, b) for a, b in out), UNIVERSE)


def intersect(x: CodeSet, y: CodeSet) -> CodeSet:
    out = []
    i = j = 0
    while i < len(x) and j < len(y):
        lo = max(x[i][0], y[j][0])
        hi = min(x[i][1], y[j][1])
        if lo <= hi:
            out.append((lo, hi))
        if x[i][1] < y[j][1]:
            i += 1
        else:
            j += 1
    return tuple(out)


def complement(x: CodeSet) -> CodeSet:
    gaps = []
    nxt = 0
    for lo, hi in x:
        if lo > nxt:
            gaps.append((nxt, lo - 1))
        nxt = hi + 1
    if nxt <= MAX_CODE_POINT:
        gaps.append((nxt, MAX_CODE_POINT))
    return intersect(tuple(gaps), UNIVERSE)


_DIGIT = normalise([(0x30, 0x39)])
_WORD = normalise([(0x30, 0x39), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A)])
_SPACE = normalise([(0x09, 0x0D), (0x20, 0x20)])  # regex.ASCII \s
ASCII_SHORTHANDS: dict[str, CodeSet] = {
    "d": _DIGIT,
    "D": complement(_DIGIT),
    "w": _WORD,
    "W": complement(_WORD),
    "s": _SPACE,
    "S": complement(_SPACE),
}
_DOT = complement(normalise([(0x0A, 0x0A)]))
_SIMPLE_ESCAPES = {"n": 0x0A, "t": 0x09, "r": 0x0D, "f": 0x0C, "v": 0x0B, "a": 0x07}
_ANCHOR_ESCAPES = {
    "b": "word boundary \\b",
    "B": "non-word-boundary \\B",
    "A": "anchor \\A",
    "Z": "anchor \\Z",
    "z": "anchor \\z",
    "G": "anchor \\G",
    "m": "word-start \\m",
    "M": "word-end \\M",
    "K": "keep-out \\K",
}
_UNSUPPORTED_ESCAPES = {
    "p": "Unicode property \\p",
    "P": "Unicode property \\P",
    "X": "grapheme cluster \\X",
    "L": "named list \\L",
    "g": "back-reference \\g",
    "Q": "quoting \\Q",
    "E": "quoting \\E",
    "R": "line break \\R",
    "h": "escape \\h",
    "H": "escape \\H",
    "k": "back-reference \\k",
}


# ----------------------------------------------------------------------------
# Parser: pattern -> AST.  Nodes are tuples:
#   ("set", CodeSet) | ("cat", [nodes]) | ("alt", [nodes]) | ("rep", node, lo, hi|None)
# ----------------------------------------------------------------------------

_EMPTY = ("cat", [])


class RegexParser:
    def __init__(self, pattern: str) -> None:
        self.p = pattern
        self.i = 0
        self.n = len(pattern)
        self.depth = 0

    def error(self, construct: str, pos: int | None = None) -> RegexError:
        return RegexError(construct, self.i if pos is None else pos, self.p)

    def parse(self) -> tuple:
        if self.p.startswith("^"):
            self.i = 1  # a leading ^ adds nothing under fullmatch
        node = self.parse_alt()
        if self.i < self.n:  # only a stray ')' stops parse_alt early at depth 0
            raise self.error("unbalanced ')'")
        return node

    def parse_alt(self) -> tuple:
        branches = [self.parse_seq()]
        while self.i < self.n and self.p[self.i] == "|":
            self.i += 1
            branches.append(self.parse_seq())
        return branches[0] if len(branches) == 1 else ("alt", branches)

    def parse_seq(self) -> tuple:
        items = []
        while self.i < self.n and self.p[self.i] not in "|)":
            atom = self.parse_atom()
            quant = self.parse_quantifier()
            if quant is not None:
                atom = ("rep", atom, quant[0], quant[1])
                if self.peek_quantifier():
                    raise self.error("multiple repeat")
            items.append(atom)
        return items[0] if len(items) == 1 else ("cat", items)

    def parse_atom(self) -> tuple:
        p, i = self.p, self.i
        c = p[i]
        if c == "(":
            return self.parse_group()
        if c == "[":
            return ("set", self.parse_class())
        if c == ".":
            self.i += 1
            return ("set", self.dot())
        if c == "\\":
            return ("set", self.parse_escape(in_class=False))
        if c == "^":
            raise self.error("anchor '^' inside the pattern")
        if c == "$":
            if i == self.n - 1 and self.depth == 0:
                self.i += 1  # trailing $ adds nothing under fullmatch
                return _EMPTY
            raise self.error("anchor '$' inside the pattern")
        if c in "*+?":
            raise self.error(f"nothing to repeat before '{c}'")
        if c == "{":
            if self.peek_quantifier():
                raise self.error("nothing to repeat before '{'")
            raise self.error("unescaped '{' (write \\{ for a literal brace)")
        self.i += 1
        return ("set", self.literal(ord(c), i))

    def literal(self, cp: int, pos: int) -> CodeSet:
        if 0xD800 <= cp <= 0xDFFF:
            raise self.error(f"surrogate code point U+{cp:04X}", pos)
        return ((cp, cp),)

    def parse_group(self) -> tuple:
        start = self.i
        p = self.p
        self.i += 1
        if p.startswith("?", self.i):
            rest = p[self.i + 1 :]
            if rest.startswith(":"):
                self.i += 2
            elif rest.startswith("P<") or (
                rest.startswith("<") and not rest.startswith(("<=", "<!"))
            ):
                close = p.find(">", self.i)
                name_at = self.i + (3 if rest.startswith("P<") else 2)
                if close < 0 or not p[name_at:close].isidentifier():
                    raise self.error("bad group name", start)
                self.i = close + 1
            else:
                raise self.error(_group_construct(rest), start)
        self.depth += 1
        node = self.parse_alt()
        self.depth -= 1
        if self.i >= self.n or p[self.i] != ")":
            raise self.error("missing ')' for group", start)
        self.i += 1
        return node

    def peek_quantifier(self) -> bool:
        if self.i >= self.n:
            return False
        c = self.p[self.i]
        return c in "*+?" or (c == "{" and self._brace_quantifier() is not None)

    def _brace_quantifier(self) -> tuple[int, int | None, int] | None:
        """Parse ``{m}``, ``{m,}``, ``{,n}``, ``{m,n}`` at self.i without consuming."""
        p = self.p
        close = p.find("}", self.i)
        if close < 0:
            return None
        body = p[self.i + 1 : close]
        if body.isdigit() and body.isascii():
            lo = hi = int(body)
        elif body.count(",") == 1:
            a, b = body.split(",")
            if not all(x == "" or (x.isdigit() and x.isascii()) for x in (a, b)):
                return None
            lo = int(a) if a else 0
            hi = int(b) if b else None
        else:
            return None
        return lo, hi, close + 1

    def parse_quantifier(self) -> tuple[int, int | None] | None:
        if self.i >= self.n:
            return None
        pos = self.i
        c = self.p[pos]
        if c == "*":
            lo, hi, self.i = 0, None, pos + 1
        elif c == "+":
            lo, hi, self.i = 1, None, pos + 1
        elif c == "?":
            lo, hi, self.i = 0, 1, pos + 1
        elif c == "{" and (q := self._brace_quantifier()) is not None:
            lo, hi, self.i = q
            if hi is not None and hi < lo:
                raise self.error("min repeat greater than max repeat", pos)
            if max(lo, hi or 0) > MAX_REPEAT:
                raise self.error(f"repeat count above {MAX_REPEAT}", pos)
        else:
            return None
        # A lazy '?' only changes which match is reported, never the language.
        if self.i < self.n and self.p[self.i] == "?":
            self.i += 1
        elif self.i < self.n and self.p[self.i] == "+":
            raise self.error("possessive quantifier")
        return lo, hi

    def dot(self) -> CodeSet:
        """What "." matches (a subclass may follow another regex flavour)."""
        return _DOT

    def shorthand(self, letter: str, in_negated_class: bool) -> CodeSet:
        """What \\d \\w \\s \\D \\W \\S match. A subclass that must be sound under
        two regex flavours takes the narrow reading where a set adds characters and
        the wide one inside a negated class, where it takes them away."""
        return ASCII_SHORTHANDS[letter]

    def parse_escape(self, in_class: bool, negated: bool = False) -> CodeSet:
        p = self.p
        pos = self.i
        if pos + 1 >= self.n:
            raise self.error("trailing backslash", pos)
        c = p[pos + 1]
        self.i = pos + 2
        if c in ASCII_SHORTHANDS:
            return self.shorthand(c, in_class and negated)
        if c in _SIMPLE_ESCAPES:
            return ((_SIMPLE_ESCAPES[c],) * 2,)
        if c == "b" and in_class:
            return ((0x08, 0x08),)  # [\b] is backspace, as in Python
        if c in _ANCHOR_ESCAPES:
            raise self.error(_ANCHOR_ESCAPES[c], pos)
        if c in _UNSUPPORTED_ESCAPES:
            raise self.error(_UNSUPPORTED_ESCAPES[c], pos)
        if c == "0":
            j = self.i
            while j < self.n and j < self.i + 2 and p[j] in "01234567":
                j += 1
            value = int(p[pos + 1 : j], 8)
            self.i = j
            return self.literal(value, pos)
        if c in "123456789":
            raise self.error("back-reference", pos)
        if c in "xuU":
            width = {"x": 2, "u": 4, "U": 8}[c]
            digits = p[self.i : self.i + width]
            if len(digits) != width or not all(d in "0123456789abcdefABCDEF" for d in digits):
                raise self.error(f"bad escape \\{c}", pos)
            self.i += width
            value = int(digits, 16)
            if value > MAX_CODE_POINT:
                raise self.error("code point above U+10FFFF", pos)
            return self.literal(value, pos)
        if c == "N":
            close = p.find("}", self.i)
            if not p.startswith("{", self.i) or close < 0:
                raise self.error("bad escape \\N", pos)
            try:
                ch = unicodedata.lookup(p[self.i + 1 : close])
            except KeyError:
                raise self.error("unknown character name in \\N{...}", pos) from None
            self.i = close + 1
            return self.literal(ord(ch), pos)
        if c.isascii() and c.isalnum():
            raise self.error(f"unknown escape \\{c}", pos)
        return self.literal(ord(c), pos)

    def parse_class(self) -> CodeSet:
        p = self.p
        start = self.i
        self.i += 1
        negate = self.i < self.n and p[self.i] == "^"
        if negate:
            self.i += 1
        ranges: list[tuple[int, int]] = []
        first = True
        while True:
            if self.i >= self.n:
                raise self.error("unterminated character set", start)
            c = p[self.i]
            if c == "]" and not first:
                self.i += 1
                break
            first = False
            if c == "[":
                construct = "POSIX class" if p.startswith("[:", self.i) else "nested set"
                raise self.error(construct)
            if p[self.i : self.i + 2] in ("&&", "||", "~~", "--"):
                raise self.error(f"set operation '{p[self.i : self.i + 2]}'")
            item_pos = self.i
            item = self.class_item(negate)
            if self.i + 1 < self.n and p[self.i] == "-" and p[self.i + 1] != "]":
                if p.startswith("--", self.i):
                    raise self.error("set operation '--'")
                self.i += 1
                hi_pos = self.i
                if p[self.i] == "[":
                    raise self.error("nested set")
                hi_item = self.class_item(negate)
                if not _single(item) or not _single(hi_item):
                    raise self.error("range with a shorthand class as endpoint", item_pos)
                lo, hi = item[0][0], hi_item[0][0]
                if lo > hi:
                    raise self.error("bad character range", hi_pos)
                ranges.append((lo, hi))
            else:
                ranges.extend(item)
        cs = normalise(ranges)
        return complement(cs) if negate else cs

    def class_item(self, negated: bool = False) -> CodeSet:
        c = self.p[self.i]
        if c == "\\":
            return self.parse_escape(in_class=True, negated=negated)
        self.i += 1
        return self.literal(ord(c), self.i - 1)


def _single(cs: CodeSet) -> bool:
    return len(cs) == 1 and cs[0][0] == cs[0][1]


def _group_construct(rest: str) -> str:
    """Name the (?...) extension that follows '(' for the error message."""
    table = [
        ("=", "look-ahead '(?='"),
        ("!", "negative look-ahead '(?!'"),
        ("<=", "look-behind '(?<='"),
        ("<!", "negative look-behind '(?<!'"),
        ("P=", "back-reference '(?P='"),
        ("P>", "recursion '(?P>'"),
        ("&", "recursion '(?&'"),
        ("R", "recursion '(?R'"),
        ("#", "comment group '(?#'"),
        (">", "atomic group '(?>'"),
        ("|", "branch reset '(?|'"),
        ("(", "conditional '(?('"),
    ]
    for prefix, name in table:
        if rest.startswith(prefix):
            return name
    if rest[:1].isdigit() or rest[:1] in "+-" and rest[1:2].isdigit():
        return "recursion '(?N)'"
    if rest[:1].isalpha() or rest[:1] == "-":
        return "inline flags '(?" + rest[:1] + "'"
    return "unknown group extension '(?'"
