# SPDX-License-Identifier: Apache-2.0
"""Regex -> minimised DFA over UTF-8 bytes, with fullmatch semantics.

The dialect is a strict subset of the ``regex`` package's syntax evaluated with
``flags=regex.ASCII`` (see docs/regex-dialect.md).  Everything outside it raises
:class:`RegexError` naming the construct and its position instead of silently
compiling to something the oracle would disagree with.

Pipeline (parser and code-point sets in models.regex_parse, minimisation in
models.dfa_minimise): parse -> AST over code-point sets -> Thompson NFA over byte ranges
(code-point sets are split into well-formed UTF-8 byte-range sequences, so
surrogates and overlongs can never be accepted) -> subset construction ->
trim -> minimisation (Revuz when acyclic, else Moore) -> byte classes.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

import numpy as np

from .dfa_minimise import DEAD, bfs_order, refine_partition, renumber_bfs, row_ids
from .dfa_minimise import minimise as _minimise
from .regex_parse import MAX_CODE_POINT, CodeSet, RegexError, RegexParser

__all__ = [
    "DEAD",
    "MAX_CODE_POINT",
    "ByteDFA",
    "RegexError",
    "bfs_order",
    "compile_regex",
    "dfa_difference",
    "refine_partition",
]

# Safety valves: counted repetition multiplies NFA size; refuse rather than hang.
MAX_NFA_STATES = 400_000
MAX_DFA_STATES = 200_000


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
    ast = RegexParser(pattern).parse()
    nfa = _Nfa(pattern)
    start, accept = nfa.build(ast)
    trans, accepting, init_class = _determinise(nfa, start, accept, pattern)
    trans, accepting = _trim(trans, accepting)
    if minimise:
        trans, accepting = _minimise(trans, accepting)
    trans, accepting = renumber_bfs(trans, accepting)
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


def _with_byte_classes(trans: np.ndarray, accepting: np.ndarray, init_class: np.ndarray) -> ByteDFA:
    """Merge bytes whose columns agree in every state; classes numbered by first byte."""
    cols = trans[:, init_class].T  # (256, n)
    ids = row_ids(cols)
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
