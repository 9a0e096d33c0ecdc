# SPDX-License-Identifier: Apache-2.0
"""Regex -> minimised DFA over UTF-8 bytes, with fullmatch semantics.

The dialect is a strict subset of the ``regex`` package's syntax evaluated with
``flags=regex.ASCII`` (see docs/regex-dialect.md).  Everything outside it raises
:class:`RegexError` naming the construct and its position instead of silently
compiling to something the oracle would disagree with.

Pipeline: parse -> AST over code-point sets -> Thompson NFA over byte ranges
(code-point sets are split into well-formed UTF-8 byte-range sequences, so
surrogates and overlongs can never be accepted) -> subset construction ->
trim -> minimisation (Revuz when acyclic, else Moore) -> byte classes.
"""

from __future__ import annotations

import unicodedata
from collections import deque
from dataclasses import dataclass

import numpy as np

DEAD = -1
MAX_CODE_POINT = 0x10FFFF
# Safety valves: counted repetition multiplies NFA size; refuse rather than hang.
MAX_NFA_STATES = 400_000
MAX_DFA_STATES = 200_000
MAX_REPEAT = 10_000


class RegexError(ValueError):
    """A pattern outside the supported dialect, or a malformed pattern."""

    def __init__(self, construct: str, position: int, pattern: str) -> None:
        self.construct = construct
        self.position = position
        self.pattern = pattern
        super().__init__(f"{construct} at position {position} in pattern {pattern!r}")


@dataclass(eq=False)
class ByteDFA:
    """Trimmed DFA over bytes.  Every state except possibly ``start`` can reach an
    accepting state; a pattern with an empty language is a lone dead start state."""

    num_states: int
    start: int
    accepting: np.ndarray  # (num_states,) bool
    byte_class: np.ndarray  # (256,) int32, byte -> class
    num_classes: int
    transitions: np.ndarray  # (num_states, num_classes) int32, DEAD = -1

    def step(self, state: int, byte: int) -> int:
        if state < 0:
            return DEAD
        return int(self.transitions[state, self.byte_class[byte]])

    def run(self, state: int, data: bytes) -> int:
        trans = self.transitions
        cls = self.byte_class
        for b in data:
            if state < 0:
                return DEAD
            state = int(trans[state, cls[b]])
        return state

    def accepts(self, data: bytes) -> bool:
        s = self.run(self.start, data)
        return s >= 0 and bool(self.accepting[s])

    def class_bytes(self, cls: int) -> list[int]:
        """All byte values in byte class ``cls``."""
        return [int(b) for b in np.flatnonzero(self.byte_class == cls)]

    def pretty_print(self, limit: int = 40) -> str:
        """Human-readable dump of the first ``limit`` states, for debugging a seed."""
        lines = [
            f"ByteDFA: {self.num_states} states, {self.num_classes} byte classes, "
            f"start={self.start}"
        ]
        reps = [self.class_bytes(c) for c in range(self.num_classes)]
        for s in range(min(self.num_states, limit)):
            outs = []
            for c in range(self.num_classes):
                t = int(self.transitions[s, c])
                if t >= 0:
                    outs.append(f"{_fmt_bytes(reps[c])}->{t}")
            acc = "*" if self.accepting[s] else " "
            lines.append(f" {acc}{s:5d}: " + " ".join(outs))
        if self.num_states > limit:
            lines.append(f"  ... {self.num_states - limit} more")
        return "\n".join(lines)


def compile_regex(pattern: str, *, minimise: bool = True) -> ByteDFA:
    """Compile ``pattern`` to a trimmed byte DFA (minimised unless told otherwise)."""
    ast = _Parser(pattern).parse()
    nfa = _Nfa(pattern)
    start, accept = nfa.build(ast)
    trans, accepting, init_class = _determinise(nfa, start, accept, pattern)
    trans, accepting = _trim(trans, accepting)
    if minimise:
        trans, accepting = _minimise(trans, accepting)
    trans, accepting = _renumber_bfs(trans, accepting)
    return _with_byte_classes(trans, accepting, init_class)


def dfa_difference(a: ByteDFA, b: ByteDFA) -> bytes | None:
    """Shortest byte string accepted by exactly one of ``a`` and ``b`` (None if equal).

    Product construction over joint byte classes; exact, not sampled."""
    pairs = np.stack([a.byte_class, b.byte_class], axis=1)
    _, first = np.unique(pairs, axis=0, return_index=True)
    reps = [int(x) for x in sorted(first)]
    startp = (a.start, b.start)
    seen = {startp: b""}
    queue = deque([startp])
    while queue:
        sa, sb = queue.popleft()
        path = seen[(sa, sb)]
        acc_a = sa >= 0 and bool(a.accepting[sa])
        acc_b = sb >= 0 and bool(b.accepting[sb])
        if acc_a != acc_b:
            return path
        for byte in reps:
            nxt = (a.step(sa, byte), b.step(sb, byte))
            if nxt == (DEAD, DEAD) or nxt in seen:
                continue
            seen[nxt] = path + bytes([byte])
            queue.append(nxt)
    return None


# ----------------------------------------------------------------------------
# Code-point sets: sorted, disjoint, non-adjacent inclusive ranges.
# ----------------------------------------------------------------------------

CodeSet = tuple[tuple[int, int], ...]

UNIVERSE: CodeSet = ((0, 0xD7FF), (0xE000, MAX_CODE_POINT))


def _normalise(ranges: list[tuple[int, int]]) -> CodeSet:
    """Sort, merge, and drop surrogates (they have no well-formed UTF-8 encoding)."""
    out: list[list[int]] = []
    for lo, hi in sorted(ranges):
        if out and lo <= out[-1][1] + 1:
            out[-1][1] = max(out[-1][1], hi)
        else:
            out.append([lo, hi])
    return _intersect(tuple((a, b) for a, b in out), UNIVERSE)


def _intersect(x: CodeSet, y: CodeSet) -> CodeSet:
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


def _complement(x: CodeSet) -> CodeSet:
    gaps = []
    nxt = 0
    for lo, hi in x:
        if lo > nxt:
            gaps.append((nxt, lo - 1))
        nxt = hi + 1
    if nxt <= MAX_CODE_POINT:
        gaps.append((nxt, MAX_CODE_POINT))
    return _intersect(tuple(gaps), UNIVERSE)


_DIGIT = _normalise([(0x30, 0x39)])
_WORD = _normalise([(0x30, 0x39), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A)])
_SPACE = _normalise([(0x09, 0x0D), (0x20, 0x20)])  # regex.ASCII \s
_SHORTHANDS: dict[str, CodeSet] = {
    "d": _DIGIT,
    "D": _complement(_DIGIT),
    "w": _WORD,
    "W": _complement(_WORD),
    "s": _SPACE,
    "S": _complement(_SPACE),
}
_DOT = _complement(_normalise([(0x0A, 0x0A)]))
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


class _Parser:
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
            return ("set", _DOT)
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

    def parse_escape(self, in_class: bool) -> CodeSet:
        p = self.p
        pos = self.i
        if pos + 1 >= self.n:
            raise self.error("trailing backslash", pos)
        c = p[pos + 1]
        self.i = pos + 2
        if c in _SHORTHANDS:
            return _SHORTHANDS[c]
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
            item = self.class_item()
            if self.i + 1 < self.n and p[self.i] == "-" and p[self.i + 1] != "]":
                if p.startswith("--", self.i):
                    raise self.error("set operation '--'")
                self.i += 1
                hi_pos = self.i
                if p[self.i] == "[":
                    raise self.error("nested set")
                hi_item = self.class_item()
                if not _single(item) or not _single(hi_item):
                    raise self.error("range with a shorthand class as endpoint", item_pos)
                lo, hi = item[0][0], hi_item[0][0]
                if lo > hi:
                    raise self.error("bad character range", hi_pos)
                ranges.append((lo, hi))
            else:
                ranges.extend(item)
        cs = _normalise(ranges)
        return _complement(cs) if negate else cs

    def class_item(self) -> CodeSet:
        c = self.p[self.i]
        if c == "\\":
            return self.parse_escape(in_class=True)
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


# ----------------------------------------------------------------------------
# Thompson NFA over byte ranges.
# ----------------------------------------------------------------------------


class _Nfa:
    def __init__(self, pattern: str) -> None:
        self.pattern = pattern
        self.eps: list[list[int]] = []
        self.edges: list[list[tuple[int, int, int]]] = []
        # Per state: (repetition instance, index within its copy, copies left) for
        # every optional copy of a counted repetition that encloses the state.
        self.tags: list[list[tuple[int, int, int]]] = []
        self.reps = 0
        self.seq_cache: dict[CodeSet, list[list[tuple[int, int]]]] = {}

    def new(self) -> int:
        if len(self.eps) >= MAX_NFA_STATES:
            raise RegexError(f"pattern too large (> {MAX_NFA_STATES} NFA states)", 0, self.pattern)
        self.eps.append([])
        self.edges.append([])
        self.tags.append([])
        return len(self.eps) - 1

    def build(self, node: tuple) -> tuple[int, int]:
        """Return (entry, exit) states of a fragment for ``node``."""
        kind = node[0]
        if kind == "set":
            return self._build_set(node[1])
        if kind == "cat":
            entry = cur = self.new()
            for child in node[1]:
                s, e = self.build(child)
                self.eps[cur].append(s)
                cur = e
            return entry, cur
        if kind == "alt":
            entry, exit_ = self.new(), self.new()
            for child in node[1]:
                s, e = self.build(child)
                self.eps[entry].append(s)
                self.eps[e].append(exit_)
            return entry, exit_
        _, child, lo, hi = node
        entry = cur = self.new()
        for _ in range(lo):
            s, e = self.build(child)
            self.eps[cur].append(s)
            cur = e
        if hi is None:
            s, e = self.build(child)
            self.eps[cur].append(s)
            self.eps[e].append(s)
            exit_ = self.new()
            self.eps[cur].append(exit_)
            self.eps[e].append(exit_)
            return entry, exit_
        # Optional copies nested as (x(x(x)?)?)?: after j extra items the subset
        # construction sits in one small set, instead of carrying every later copy.
        exit_ = self.new()
        tail = exit_
        uid = self.reps
        self.reps += 1
        for left in range(1, hi - lo + 1):
            first = len(self.eps)
            s, e = self.build(child)
            # Copies are built identically, so state first+i is "the same place"
            # in every copy; see _prune for why that matters.
            for q in range(first, len(self.eps)):
                self.tags[q].append((uid, q - first, left))
            head = self.new()
            self.eps[head].extend((s, exit_))
            self.eps[e].append(tail)
            tail = head
        self.eps[cur].append(tail)
        return entry, exit_

    def _build_set(self, cs: CodeSet) -> tuple[int, int]:
        entry, exit_ = self.new(), self.new()
        # States are keyed by the byte ranges still to read, so sequences share
        # their suffixes ("two continuation bytes left"): the subset construction
        # then lands close to the minimal DFA instead of one state per lead byte.
        by_suffix: dict[tuple[tuple[int, int], ...], int] = {(): exit_}
        seen_edges: set[tuple[int, int, int, int]] = set()
        seqs = self.seq_cache.get(cs)
        if seqs is None:  # counted repetition rebuilds the same set many times
            seqs = self.seq_cache[cs] = [q for lo, hi in cs for q in _utf8_sequences(lo, hi)]
        for seq in seqs:
            src = entry
            for k, (blo, bhi) in enumerate(seq):
                suffix = tuple(seq[k + 1 :])
                dst = by_suffix.get(suffix)
                if dst is None:
                    dst = by_suffix[suffix] = self.new()
                if (src, blo, bhi, dst) not in seen_edges:
                    seen_edges.add((src, blo, bhi, dst))
                    self.edges[src].append((blo, bhi, dst))
                src = dst
        return entry, exit_


def _utf8_sequences(lo: int, hi: int) -> list[list[tuple[int, int]]]:
    """Split [lo, hi] (no surrogates) into byte-range sequences; each sequence is a
    cross product of byte ranges that encodes exactly a sub-range.  Same scheme as
    Rust regex-syntax's Utf8Sequences, so every sequence is well-formed UTF-8."""
    out = []
    stack = [(lo, hi)]
    while stack:
        lo, hi = stack.pop()
        split = False
        for bound in (0x7F, 0x7FF, 0xFFFF):
            if lo <= bound < hi:
                stack.append((bound + 1, hi))
                stack.append((lo, bound))
                split = True
                break
        if split:
            continue
        if hi <= 0x7F:
            out.append([(lo, hi)])
            continue
        for i in range(1, 4):
            m = (1 << (6 * i)) - 1
            if (lo & ~m) != (hi & ~m):
                if lo & m:
                    stack.append(((lo | m) + 1, hi))
                    stack.append((lo, lo | m))
                    split = True
                    break
                if (hi & m) != m:
                    stack.append((hi & ~m, hi))
                    stack.append((lo, (hi & ~m) - 1))
                    split = True
                    break
        if split:
            continue
        out.append(list(zip(chr(lo).encode(), chr(hi).encode(), strict=True)))
    return out


# ----------------------------------------------------------------------------
# Determinise, trim, minimise, renumber, byte classes.
# ----------------------------------------------------------------------------


def _determinise(
    nfa: _Nfa, start: int, accept: int, pattern: str
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Subset construction over the coarsest byte partition the NFA's ranges allow."""
    bounds = {0, 256}
    for edges in nfa.edges:
        for lo, hi, _ in edges:
            bounds.add(lo)
            bounds.add(hi + 1)
    cuts = np.array(sorted(bounds), dtype=np.int32)
    init_class = (np.searchsorted(cuts, np.arange(256), side="right") - 1).astype(np.int32)
    k = len(cuts) - 1
    cls_edges = [
        [(int(init_class[lo]), int(init_class[hi]), t) for lo, hi, t in edges]
        for edges in nfa.edges
    ]

    closure_memo: dict[int, frozenset[int]] = {}

    def closure(q: int) -> frozenset[int]:
        got = closure_memo.get(q)
        if got is None:
            seen = {q}
            stack = [q]
            while stack:
                for t in nfa.eps[stack.pop()]:
                    if t not in seen:
                        seen.add(t)
                        stack.append(t)
            # Only states with byte edges (or the accept state) matter in a DFA state.
            got = frozenset(s for s in seen if nfa.edges[s] or s == accept)
            closure_memo[q] = got
        return got

    tags = nfa.tags

    def prune(states: frozenset[int]) -> frozenset[int]:
        """Drop states whose language is contained in another member's.

        The same place in two optional copies of one counted repetition: the
        copy with more copies left accepts a superset (X{0,k} is in X{0,k+1}).
        An ambiguous item (JSON's \\uXXXX vs a surrogate pair, counted once)
        otherwise makes the subset construction track every possible count,
        quadratic in the bound, although the minimal DFA only needs the best."""
        best: dict[tuple[int, int], int] = {}
        for q in states:
            for uid, pos, left in tags[q]:
                if best.get((uid, pos), 0) < left:
                    best[(uid, pos)] = left
        if not best:
            return states
        return frozenset(
            q for q in states if all(best[(uid, pos)] == left for uid, pos, left in tags[q])
        )

    ids: dict[frozenset[int], int] = {}
    sets: list[frozenset[int]] = []
    rows: list[list[int]] = []

    def intern(s: frozenset[int]) -> int:
        got = ids.get(s)
        if got is None:
            if len(sets) >= MAX_DFA_STATES:
                raise RegexError(f"pattern too large (> {MAX_DFA_STATES} DFA states)", 0, pattern)
            got = ids[s] = len(sets)
            sets.append(s)
        return got

    intern(prune(closure(start)))
    move_memo: dict[frozenset[int], int] = {}
    i = 0
    while i < len(sets):
        moves: dict[int, set[int]] = {}
        for q in sets[i]:
            for clo, chi, t in cls_edges[q]:
                for c in range(clo, chi + 1):
                    moves.setdefault(c, set()).add(t)
        row = [DEAD] * k
        for c, targets in moves.items():
            key = frozenset(targets)
            d = move_memo.get(key)
            if d is None:
                d = move_memo[key] = intern(
                    prune(frozenset().union(*(closure(t) for t in targets)))
                )
            row[c] = d
        rows.append(row)
        i += 1
    trans = np.array(rows, dtype=np.int32).reshape(len(sets), k)
    accepting = np.array([accept in s for s in sets], dtype=bool)
    return trans, accepting, init_class


def _trim(trans: np.ndarray, accepting: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Drop states that cannot reach acceptance (start, state 0, is always kept)."""
    n = trans.shape[0]
    preds: list[list[int]] = [[] for _ in range(n)]
    for s, t in zip(*np.nonzero(trans >= 0), strict=True):
        preds[int(trans[s, t])].append(int(s))
    live = accepting.copy()
    stack = [int(s) for s in np.flatnonzero(accepting)]
    while stack:
        for p in preds[stack.pop()]:
            if not live[p]:
                live[p] = True
                stack.append(p)
    if not live[0]:
        return np.full((1, trans.shape[1]), DEAD, dtype=np.int32), np.zeros(1, dtype=bool)
    keep = np.flatnonzero(live)
    remap = np.full(n + 1, DEAD, dtype=np.int32)  # index -1 -> last slot -> DEAD
    remap[keep] = np.arange(len(keep), dtype=np.int32)
    return remap[trans[keep]], accepting[keep]


def refine_partition(trans: np.ndarray, labels: np.ndarray) -> np.ndarray:
    """Coarsest partition of states that respects ``labels`` and is closed under
    ``trans`` (n, k) (entries are state indices or -1 = dead sink).  Returns a
    block id per state.  Shared by byte-level and token-level minimisation.

    Acyclic graphs (bounded patterns: most JSON schemas) are canonicalised
    level by level from the sinks up (Revuz): equivalent states have equal
    longest paths, so one pass suffices.  Otherwise Moore refinement, which
    needs one round per position of a long counted repetition, so each round
    hashes a state's successor blocks into one uint64; the result is then
    checked exactly and, on a (vanishingly unlikely) collision, redone exactly."""
    # Identical columns cannot split anything: refine on distinct ones.
    cols = trans[:, np.unique(_row_ids(trans.T), return_index=True)[1]] if trans.size else trans
    label_ids = np.unique(labels, return_inverse=True)[1].astype(np.int64).ravel()
    levels = _longest_path_levels(cols)
    if levels is not None:
        return _canonical_by_level(cols, label_ids, levels)
    block = _refine(cols, label_ids, hashed=True)
    if not _is_congruence(cols, label_ids, block):
        block = _refine(cols, label_ids, hashed=False)
    return block


def _longest_path_levels(trans: np.ndarray) -> np.ndarray | None:
    """Longest live path from each state (Kahn's algorithm from the sinks), or
    None if the graph has a cycle."""
    n, k = trans.shape
    flat = trans.ravel()
    live = flat >= 0
    src = np.repeat(np.arange(n), k)[live]
    dst = flat[live].astype(np.int64)
    remaining = np.bincount(src, minlength=n)
    preds = src[np.argsort(dst, kind="stable")]
    ptr = np.concatenate([[0], np.cumsum(np.bincount(dst, minlength=n))])
    level = np.full(n, -1, dtype=np.int64)
    frontier = np.flatnonzero(remaining == 0)
    height = 0
    while len(frontier):
        level[frontier] = height
        starts, counts = ptr[frontier], ptr[frontier + 1] - ptr[frontier]
        total = int(counts.sum())
        if total == 0:
            break
        offsets = np.repeat(starts - np.concatenate([[0], np.cumsum(counts)[:-1]]), counts)
        ps = preds[offsets + np.arange(total)]
        cand, hits = np.unique(ps, return_counts=True)
        remaining[cand] -= hits
        frontier = cand[remaining[cand] == 0]
        height += 1
    return level if (level >= 0).all() else None


def _canonical_by_level(trans: np.ndarray, label_ids: np.ndarray, levels: np.ndarray) -> np.ndarray:
    n = trans.shape[0]
    canon = np.full(n + 1, -1, dtype=np.int64)  # index -1 (dead) stays -1
    order = np.argsort(levels, kind="stable")
    bounds = np.flatnonzero(np.diff(levels[order])) + 1
    next_id = 0
    for group in np.split(order, bounds):
        rows = np.column_stack([label_ids[group], canon[trans[group]]])
        ids = _row_ids(rows)
        canon[group] = ids + next_id
        next_id += int(ids.max()) + 1
    return canon[:n]


def _minimise(trans: np.ndarray, accepting: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    block = refine_partition(trans, accepting)
    n = trans.shape[0]
    count = int(block.max()) + 1
    reps = np.zeros(count, dtype=np.int64)
    reps[block] = np.arange(n)
    ext = np.append(block, DEAD)
    new_trans = ext[trans[reps]].astype(np.int32)
    new_acc = accepting[reps]
    # Keep the start state at index 0 so renumbering starts from it.
    order = np.argsort(np.where(np.arange(count) == block[0], -1, np.arange(count)), kind="stable")
    inv = np.empty(count + 1, dtype=np.int32)
    inv[order] = np.arange(count, dtype=np.int32)
    inv[count] = DEAD
    return inv[new_trans[order]], new_acc[order]


def _refine(trans: np.ndarray, labels: np.ndarray, hashed: bool) -> np.ndarray:
    n, k = trans.shape
    block = labels.astype(np.int64)
    count = len(np.unique(block)) if n else 0
    ext = np.empty(n + 1, dtype=np.int64)
    weights = np.random.default_rng(0x5EED).integers(1, 2**63, size=k + 1, dtype=np.uint64)
    while n:
        ext[:n] = block
        ext[n] = -1  # the dead sink is its own block; trans == -1 indexes ext[n]
        succ = ext[trans]
        if hashed:
            sig = (succ + 1).astype(np.uint64) * weights[1:]
            h = sig.sum(axis=1, dtype=np.uint64) + block.astype(np.uint64) * weights[0]
            new_block = np.unique(h, return_inverse=True)[1].astype(np.int64).ravel()
        else:
            new_block = _row_ids(np.column_stack([block, succ]))
        new_count = int(new_block.max()) + 1
        block = new_block
        if new_count == count:
            break
        count = new_count
    return block


def _is_congruence(trans: np.ndarray, labels: np.ndarray, block: np.ndarray) -> bool:
    """Exact check that equal blocks have equal labels and successor blocks."""
    if not len(block):
        return True
    count = int(block.max()) + 1
    reps = np.zeros(count, dtype=np.int64)
    reps[block] = np.arange(len(block))
    ext = np.append(block, -1)
    rep_of = reps[block]
    return bool(
        np.array_equal(ext[trans], ext[trans[rep_of]]) and np.array_equal(labels, labels[rep_of])
    )


def _row_ids(rows: np.ndarray) -> np.ndarray:
    """Dense ids for identical rows of a 2-D array (exact, not hashed)."""
    rows = np.ascontiguousarray(rows)
    void = rows.view(np.dtype((np.void, rows.dtype.itemsize * rows.shape[1]))).ravel()
    _, inverse = np.unique(void, return_inverse=True)
    return inverse.astype(np.int64).ravel()


def bfs_order(succ: np.ndarray, start: int) -> np.ndarray:
    """States in breadth-first discovery order from ``start``; ``succ`` is (n, k),
    successors scanned in column order, entries outside [0, n) ignored.  Same
    order as a queue-based BFS, computed one whole level at a time.  States not
    reachable follow in index order."""
    n = succ.shape[0]
    seen = np.zeros(n, dtype=bool)
    seen[start] = True
    order = [np.array([start], dtype=np.int64)]
    frontier = order[0]
    while len(frontier):
        nxt = succ[frontier].ravel()
        nxt = nxt[(nxt >= 0) & (nxt < n)]
        nxt = nxt[~seen[nxt]]
        uniq, first = np.unique(nxt, return_index=True)
        frontier = uniq[np.argsort(first, kind="stable")].astype(np.int64)
        seen[frontier] = True
        order.append(frontier)
    order.append(np.flatnonzero(~seen))
    return np.concatenate(order)


def _renumber_bfs(trans: np.ndarray, accepting: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Breadth-first order from the start: start = 0, deterministic numbering."""
    n = trans.shape[0]
    order_arr = bfs_order(trans, 0)
    inv = np.full(n + 1, DEAD, dtype=np.int32)
    inv[order_arr] = np.arange(n, dtype=np.int32)
    return inv[trans[order_arr]], accepting[order_arr]


def _with_byte_classes(trans: np.ndarray, accepting: np.ndarray, init_class: np.ndarray) -> ByteDFA:
    """Merge bytes whose columns agree in every state; classes numbered by first byte."""
    cols = trans[:, init_class].T  # (256, n)
    ids = _row_ids(cols)
    first_seen: dict[int, int] = {}
    byte_class = np.empty(256, dtype=np.int32)
    for b in range(256):
        byte_class[b] = first_seen.setdefault(int(ids[b]), len(first_seen))
    num_classes = len(first_seen)
    rep_byte = np.zeros(num_classes, dtype=np.int64)
    rep_byte[byte_class[::-1]] = np.arange(255, -1, -1)
    new_trans = np.ascontiguousarray(cols[rep_byte].T.astype(np.int32))
    return ByteDFA(
        num_states=trans.shape[0],
        start=0,
        accepting=accepting.astype(bool),
        byte_class=byte_class,
        num_classes=num_classes,
        transitions=new_trans,
    )


def _fmt_bytes(bs: list[int]) -> str:
    if len(bs) == 1:
        b = bs[0]
        return chr(b) if 0x21 <= b < 0x7F else f"\\x{b:02x}"
    return f"[{len(bs)}b:{bs[0]:02x}..{bs[-1]:02x}]"
