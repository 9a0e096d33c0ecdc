# SPDX-License-Identifier: Apache-2.0
"""Token-level FSM built from a byte DFA and a vocabulary, and its hardware tables.

Semantics (docs/table-format.md has the table layout):

* A content token is allowed in a state iff its bytes lead the byte DFA to a
  live state (the DFA is trimmed, so live = "can still complete to a match").
* Special tokens never match content: they are rejected in every state.
  Non-special tokens with empty content are treated the same way: they would
  be a no-op that lets a sampler loop forever, so they are never allowed.
* EOS is allowed iff the state is accepting and leads to the FINAL state, a
  state where nothing is allowed, so anything after EOS is a violation
  without any extra "done" logic.
* ``forced_token(s)`` (jump-forward): the state is not accepting and exactly one
  token is allowed.

Token-level states are the DFA states reachable at token boundaries, merged
when no token sequence tells them apart, and numbered breadth-first from the
start: the start state is always 0 and FINAL (if the vocabulary has EOS) is the
last state.  Token class 0 is "rejected everywhere" (specials, empty tokens,
tokens the grammar can never use); class 1 is EOS when there is one.

CLI: ``python -m models.token_fsm compile|check ...`` (see ``main``).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from models.regex_dfa import ByteDFA, bfs_order, compile_regex, refine_partition
from models.vocab import Vocabulary

REJECT_CLASS = 0


@dataclass(eq=False)
class TokenTables:
    """Everything the RTL needs; widths and reserved codes derive from the dims."""

    vocab_size: int
    num_states: int
    num_classes: int
    start: int
    eos_id: int | None
    final_state: int | None
    token_class: np.ndarray  # (vocab_size,) int32
    next_state: np.ndarray  # (num_classes, num_states) int32, `reject` = no transition
    accepting: np.ndarray  # (num_states,) bool
    mask_index: np.ndarray  # (num_states,) int32, `empty_row` = all-zero mask, not stored
    mask_rows: np.ndarray  # (num_mask_rows, words_per_row) uint32, bit i of the row = token i
    forced_token: np.ndarray  # (num_states,) int32, 0 where not forced
    forced_valid: np.ndarray  # (num_states,) bool
    # Row-displaced ("comb vector") next-state table, the one the image and the RTL
    # hold: next of (s, c) is comb_next[row_base[s] + c] if comb_check[...] == s,
    # else no transition.  ``next_state`` above is its dense expansion.
    row_base: np.ndarray = None  # type: ignore[assignment]  # (num_states,) int32
    comb_next: np.ndarray = None  # type: ignore[assignment]  # (comb_size,) int32
    comb_check: np.ndarray = None  # type: ignore[assignment]  # (comb_size,) int32

    def __post_init__(self) -> None:
        if self.row_base is None:
            self.row_base, self.comb_next, self.comb_check = compress_next_state(
                self.next_state, self.reject
            )

    @property
    def comb_size(self) -> int:
        return int(self.comb_next.shape[0])

    @property
    def base_bits(self) -> int:
        return max(1, (self.comb_size - 1).bit_length())

    def lookup(self, state: int, cls: int) -> int:
        """Next state of (state, class) from the compressed table, or ``reject``."""
        i = int(self.row_base[state]) + cls
        return int(self.comb_next[i]) if int(self.comb_check[i]) == state else self.reject

    @property
    def num_mask_rows(self) -> int:
        return int(self.mask_rows.shape[0])

    @property
    def words_per_row(self) -> int:
        return (self.vocab_size + 31) // 32

    @property
    def state_bits(self) -> int:
        # One more code than states, so the all-ones reject code is never a state.
        return max(1, self.num_states.bit_length())

    @property
    def reject(self) -> int:
        return (1 << self.state_bits) - 1

    @property
    def class_bits(self) -> int:
        return max(1, (self.num_classes - 1).bit_length())

    @property
    def row_bits(self) -> int:
        return max(1, self.num_mask_rows.bit_length())

    @property
    def empty_row(self) -> int:
        return (1 << self.row_bits) - 1

    @property
    def token_bits(self) -> int:
        return max(1, (self.vocab_size - 1).bit_length())

    def table_bits(self) -> dict[str, int]:
        """Logical size of each table in bits (minimum widths, no padding), with the
        compressed next-state table (``dense_next_state_bits`` gives the dense one)."""
        s = self.num_states
        return {
            "token_class": self.vocab_size * self.class_bits,
            "row_base": s * self.base_bits,
            "comb": self.comb_size * 2 * self.state_bits,
            "accepting": s,
            "mask_index": s * self.row_bits,
            "mask_rows": self.num_mask_rows * self.words_per_row * 32,
            "forced_token": s * self.token_bits,
            "forced_valid": s,
        }

    def dense_next_state_bits(self) -> int:
        return self.num_classes * self.num_states * self.state_bits

    def same_as(self, other: TokenTables) -> bool:
        scalars = ("vocab_size", "num_states", "num_classes", "start", "eos_id", "final_state")
        arrays = (
            "token_class",
            "next_state",
            "accepting",
            "mask_index",
            "mask_rows",
            "forced_token",
            "forced_valid",
            "row_base",
            "comb_next",
            "comb_check",
        )
        return all(getattr(self, f) == getattr(other, f) for f in scalars) and all(
            np.array_equal(getattr(self, f), getattr(other, f)) for f in arrays
        )


@dataclass(eq=False)
class BuildInfo:
    """By-products of TokenFSM.build, for tests and debugging (not exported)."""

    dfa_states: int  # byte DFA states
    reachable_states: int  # DFA states reachable at token boundaries
    dfa_state_of: np.ndarray  # token state -> representative DFA state (-1 for FINAL)
    seconds: float


class TokenFSM:
    """Evaluator over TokenTables; identical whether built or loaded from an image."""

    def __init__(self, tables: TokenTables, info: BuildInfo | None = None) -> None:
        self.tables = tables
        self.info = info
        self._class_allowed = tables.next_state != tables.reject  # (classes, states)

    @classmethod
    def build(cls, dfa: ByteDFA, vocab: Vocabulary) -> TokenFSM:
        t0 = time.perf_counter()
        tables, info = _build_tables(dfa, vocab)
        info.seconds = time.perf_counter() - t0
        return cls(tables, info)

    @classmethod
    def from_regex(cls, pattern: str, vocab: Vocabulary) -> TokenFSM:
        return cls.build(compile_regex(pattern), vocab)

    @classmethod
    def from_tables(cls, tables: TokenTables) -> TokenFSM:
        return cls(tables)

    @property
    def start(self) -> int:
        return self.tables.start

    @property
    def num_states(self) -> int:
        return self.tables.num_states

    @property
    def vocab_size(self) -> int:
        return self.tables.vocab_size

    def advance(self, state: int, token: int) -> int | None:
        """Next state after ``token`` (None if the token is not allowed)."""
        t = self.tables
        if not 0 <= token < t.vocab_size or not 0 <= state < t.num_states:
            return None
        nxt = t.lookup(state, int(t.token_class[token]))
        return None if nxt == t.reject else nxt

    def allowed(self, state: int) -> np.ndarray:
        """Bool mask over the vocabulary, read from the deduplicated mask rows."""
        t = self.tables
        row = int(t.mask_index[state])
        if row == t.empty_row:
            return np.zeros(t.vocab_size, dtype=bool)
        bits = np.unpackbits(t.mask_rows[row].astype("<u4").view(np.uint8), bitorder="little")
        return bits[: t.vocab_size].astype(bool)

    def allowed_ids(self, state: int) -> np.ndarray:
        return np.flatnonzero(self.allowed(state))

    def is_accepting(self, state: int) -> bool:
        """EOS is allowed here (the output so far is a complete match)."""
        return bool(self.tables.accepting[state])

    def is_final(self, state: int) -> bool:
        """EOS has been consumed: the sequence is complete and nothing may follow."""
        return state == self.tables.final_state

    def forced_token(self, state: int) -> int | None:
        t = self.tables
        return int(t.forced_token[state]) if t.forced_valid[state] else None

    def validate(self, tokens: list[int] | np.ndarray) -> int:
        """Index of the first token that is not allowed where it occurs, else -1.

        -1 says nothing about completeness: check ``walk(...)`` for FINAL or
        accepting if the sequence must be finished.  Out-of-range ids violate."""
        state = self.start
        for i, tok in enumerate(tokens):
            nxt = self.advance(state, int(tok))
            if nxt is None:
                return i
            state = nxt
        return -1

    def walk(self, tokens: list[int] | np.ndarray) -> int | None:
        """State after ``tokens`` from the start, None on the first violation."""
        state = self.start
        for tok in tokens:
            nxt = self.advance(state, int(tok))
            if nxt is None:
                return None
            state = nxt
        return state

    def stats(self) -> dict[str, object]:
        t = self.tables
        out: dict[str, object] = {
            "vocab_size": t.vocab_size,
            "token_states": t.num_states,
            "token_classes": t.num_classes,
            "mask_rows": t.num_mask_rows,
            "forced_states": int(t.forced_valid.sum()),
            "widths": {
                "state": t.state_bits,
                "class": t.class_bits,
                "row": t.row_bits,
                "token": t.token_bits,
            },
            "table_bits": t.table_bits(),
            "total_bits": sum(t.table_bits().values()),
            "comb_size": t.comb_size,
            "live_transitions": int(self._class_allowed.sum()),
            "dense_next_state_bits": t.dense_next_state_bits(),
        }
        if self.info is not None:
            out["dfa_states"] = self.info.dfa_states
            out["reachable_dfa_states"] = self.info.reachable_states
            out["build_seconds"] = round(self.info.seconds, 4)
        return out

    def pretty_print(self, limit: int = 20) -> str:
        t = self.tables
        lines = [
            f"TokenFSM: {t.num_states} states, {t.num_classes} classes, "
            f"{t.num_mask_rows} mask rows, start={t.start}, final={t.final_state}"
        ]
        for s in range(min(limit, t.num_states)):
            outs = [
                f"c{c}->{int(t.next_state[c, s])}"
                for c in np.flatnonzero(self._class_allowed[:, s])[:8]
            ]
            more = int(self._class_allowed[:, s].sum()) - len(outs)
            flags = ("A" if t.accepting[s] else "-") + ("F" if t.forced_valid[s] else "-")
            lines.append(
                f" {s:5d} {flags} row={int(t.mask_index[s])} "
                + " ".join(outs)
                + (f" (+{more})" if more > 0 else "")
            )
        return "\n".join(lines)


# ----------------------------------------------------------------------------
# Table construction
# ----------------------------------------------------------------------------


def _build_tables(dfa: ByteDFA, vocab: Vocabulary) -> tuple[TokenTables, BuildInfo]:
    n_dfa = dfa.num_states
    dead = n_dfa  # sink index in the extended transition table
    trans_ext = np.full((n_dfa + 1, dfa.num_classes), dead, dtype=np.int32)
    trans_ext[:n_dfa] = np.where(dfa.transitions >= 0, dfa.transitions, dead)

    # 1-3. Each token as a function over DFA states (row of fmat; -1: never).
    token_func, fmat = _token_functions(dfa, vocab, trans_ext)

    # 4. DFA states reachable at token boundaries (start first).
    reach = _reachable(fmat, dfa.start, dead)
    local = np.full(n_dfa + 1, -1, dtype=np.int64)
    local[reach] = np.arange(len(reach))
    succ = local[fmat[:, reach]].T  # (reachable, funcs), -1 dead

    # 5. Token-level minimisation: merge states no token sequence distinguishes.
    acc_r = dfa.accepting[reach]
    block = refine_partition(succ, acc_r)
    nblk = int(block.max()) + 1
    rep = np.zeros(nblk, dtype=np.int64)
    rep[block[::-1]] = np.arange(len(block))[::-1]  # lowest member represents
    qsucc = np.append(block, -1)[succ[rep]].T  # (funcs, blocks): block reached, -1 dead
    qacc = acc_r[rep]

    # 6. Token classes: functions equal on the merged states form one class,
    #    numbered by the lowest token id using them.  Functions that are dead on
    #    every reachable state join the reject class.
    has_eos = vocab.eos_id is not None
    first = 2 if has_eos else 1
    row_id = _row_ids_first_order(qsucc)
    usable = token_func >= 0
    func_live = (qsucc >= 0).any(axis=1)
    usable[usable] = func_live[token_func[usable]]
    tok_key = row_id[token_func[usable]]
    keys, first_pos = np.unique(tok_key, return_index=True)
    ranked = keys[np.argsort(first_pos, kind="stable")]
    class_of_key = np.full(int(row_id.max()) + 1 if len(row_id) else 0, -1, dtype=np.int64)
    class_of_key[ranked] = np.arange(len(ranked))
    token_class = np.full(len(vocab), REJECT_CLASS, dtype=np.int64)
    token_class[usable] = class_of_key[tok_key] + first
    func_of_key = np.zeros(len(class_of_key), dtype=np.int64)
    func_of_key[row_id[::-1]] = np.arange(len(row_id))[::-1]
    num_classes = first + len(ranked)
    # One extra column for FINAL (all rejects): nothing may follow EOS.
    class_rows = np.full((num_classes, nblk + 1), -1, dtype=np.int64)
    class_rows[first:, :nblk] = qsucc[func_of_key[ranked]]
    if has_eos:
        token_class[vocab.eos_id] = 1
        class_rows[1, :nblk] = np.where(qacc, nblk, -1)

    # 7. Number states breadth-first from the start; FINAL last.
    state_order = _bfs_order(class_rows, start=int(block[0]), n=nblk)
    num_states = nblk + (1 if has_eos else 0)
    new_id = np.full(nblk + 2, -1, dtype=np.int64)  # index -1 maps dead to -1
    new_id[state_order] = np.arange(nblk)
    cols = state_order
    if has_eos:
        new_id[nblk] = nblk
        cols = np.append(state_order, nblk)
    next_raw = new_id[class_rows[:, cols]]
    accepting = np.append(qacc[state_order], False) if has_eos else qacc[state_order]
    state_bits = max(1, num_states.bit_length())
    reject = (1 << state_bits) - 1
    next_state = np.where(next_raw >= 0, next_raw, reject).astype(np.int32)

    # 8. Masks: class-level allowed pattern per state, deduplicated, then expanded.
    allowed_cls = next_raw >= 0  # (classes, states)
    mask_index, mask_rows = _mask_rows(allowed_cls, token_class, len(vocab))

    # 9. Jump-forward: exactly one allowed token and not accepting.
    forced_token, forced_valid = _forced_tokens(allowed_cls, token_class, accepting)

    dfa_state_of = np.append(reach[rep[state_order]], -1) if has_eos else reach[rep[state_order]]
    tables = TokenTables(
        vocab_size=len(vocab),
        num_states=num_states,
        num_classes=num_classes,
        start=0,
        eos_id=vocab.eos_id,
        final_state=(num_states - 1) if has_eos else None,
        token_class=token_class.astype(np.int32),
        next_state=next_state,
        accepting=accepting.astype(bool),
        mask_index=mask_index,
        mask_rows=mask_rows,
        forced_token=forced_token,
        forced_valid=forced_valid.astype(bool),
    )
    info = BuildInfo(
        dfa_states=n_dfa,
        reachable_states=len(reach),
        dfa_state_of=dfa_state_of.astype(np.int64),
        seconds=0.0,
    )
    return tables, info


def _token_functions(
    dfa: ByteDFA, vocab: Vocabulary, trans_ext: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """token -> row of the returned function matrix (-1: never allowed), and the
    matrix of distinct whole-token functions over DFA states (+ sink column)
    that are live from at least one state."""
    n_dfa = dfa.num_states
    dead = n_dfa
    # Tokens whose bytes map to the same byte-class sequence act alike.
    table = bytes(int(c) for c in dfa.byte_class)
    seq_ids: dict[bytes, int] = {}
    token_seq = np.full(len(vocab), -1, dtype=np.int64)
    for i, tok in enumerate(vocab.tokens):
        if tok and i not in vocab.special:
            token_seq[i] = seq_ids.setdefault(tok.translate(table), len(seq_ids))
    seq_func, funcs = _sequence_functions(list(seq_ids), trans_ext)
    live_f = [int(f) for f in np.unique(seq_func) if (funcs[f][:n_dfa] != dead).any()]
    remap_f = np.full(len(funcs), -1, dtype=np.int64)
    remap_f[live_f] = np.arange(len(live_f))
    token_func = np.full(len(vocab), -1, dtype=np.int64)
    has_seq = token_seq >= 0
    token_func[has_seq] = remap_f[seq_func[token_seq[has_seq]]]
    if not live_f:
        return token_func, np.zeros((0, n_dfa + 1), dtype=np.int32)
    return token_func, np.stack([funcs[f] for f in live_f])


def _forced_tokens(
    allowed_cls: np.ndarray, token_class: np.ndarray, accepting: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Per state: the single allowed token when exactly one is allowed and the
    state is not accepting (jump-forward), else 0 / invalid."""
    num_classes, num_states = allowed_cls.shape
    class_size = np.bincount(token_class, minlength=num_classes)
    counts = class_size @ allowed_cls.astype(np.int64)
    lone_member = np.zeros(num_classes, dtype=np.int64)
    in_single = np.flatnonzero(class_size[token_class] == 1)
    lone_member[token_class[in_single]] = in_single
    forced_valid = (counts == 1) & ~accepting
    forced_token = np.zeros(num_states, dtype=np.int32)
    states = np.flatnonzero(forced_valid)
    if len(states):
        # The one allowed class in each forced state has exactly one member.
        forced_token[states] = lone_member[np.argmax(allowed_cls[:, states], axis=0)]
    return forced_token, forced_valid


def _sequence_functions(
    seqs: list[bytes], trans_ext: np.ndarray
) -> tuple[np.ndarray, list[np.ndarray]]:
    """For each class sequence, the id of its function over DFA states (+sink).

    Level by level over all sequences at once: the (function, class) pairs seen
    at a level are deduplicated with numpy, and only unseen pairs cost a vector
    gather.  The number of distinct prefix functions stays small (hundreds),
    whereas the vocabulary has tens of thousands of distinct sequences."""
    n_cls = trans_ext.shape[1]
    funcs: list[np.ndarray] = [np.arange(trans_ext.shape[0], dtype=np.int32)]
    by_bytes: dict[bytes, int] = {funcs[0].tobytes(): 0}
    step_memo: dict[int, int] = {}
    if not seqs:
        return np.zeros(0, dtype=np.int64), funcs
    lengths = np.fromiter((len(s) for s in seqs), dtype=np.int64, count=len(seqs))
    order = np.argsort(-lengths, kind="stable")
    flat = np.frombuffer(b"".join(seqs[i] for i in order), dtype=np.uint8).astype(np.int64)
    sorted_len = lengths[order]
    offsets = np.concatenate([[0], np.cumsum(sorted_len)[:-1]])
    fid = np.zeros(len(seqs), dtype=np.int64)
    for level in range(int(sorted_len[0])):
        m = int(np.searchsorted(-sorted_len, -level, side="left"))  # count with len > level
        keys = fid[:m] * n_cls + flat[offsets[:m] + level]
        uniq, inverse = np.unique(keys, return_inverse=True)
        mapped = np.empty(len(uniq), dtype=np.int64)
        for j, key in enumerate(uniq.tolist()):
            got = step_memo.get(key)
            if got is None:
                f, c = divmod(key, n_cls)
                vec = trans_ext[funcs[f], c]
                b = vec.tobytes()
                got = by_bytes.get(b)
                if got is None:
                    got = by_bytes[b] = len(funcs)
                    funcs.append(vec)
                step_memo[key] = got
            mapped[j] = got
        fid[:m] = mapped[inverse.ravel()]
    out = np.empty(len(seqs), dtype=np.int64)
    out[order] = fid
    return out, funcs


def _reachable(fmat: np.ndarray, start: int, dead: int) -> np.ndarray:
    seen = np.zeros(dead + 1, dtype=bool)
    seen[start] = True
    seen[dead] = True
    frontier = np.array([start])
    while len(frontier) and fmat.shape[0]:
        nxt = np.unique(fmat[:, frontier])
        nxt = nxt[~seen[nxt]]
        seen[nxt] = True
        frontier = nxt
    seen[dead] = False
    reach = np.flatnonzero(seen)
    # Start first, so block[0] below is the start's block.
    return np.concatenate([[start], reach[reach != start]]).astype(np.int64)


def _row_ids_first_order(rows: np.ndarray) -> np.ndarray:
    if rows.shape[0] == 0:
        return np.zeros(0, dtype=np.int64)
    rows = np.ascontiguousarray(rows.astype(np.int64))
    void = rows.view(np.dtype((np.void, 8 * rows.shape[1]))).ravel()
    _, first, inverse = np.unique(void, return_index=True, return_inverse=True)
    rank = np.empty(len(first), dtype=np.int64)
    rank[np.argsort(first, kind="stable")] = np.arange(len(first))
    return rank[inverse.ravel()]


def _bfs_order(class_rows: np.ndarray, start: int, n: int) -> np.ndarray:
    # Rows are classes; FINAL (index n) and rejects fall outside [0, n).
    return bfs_order(np.ascontiguousarray(class_rows[:, :n].T), start)


#: Rows with at least this many live classes search only the last
#: ``_FIT_WINDOW`` bases before the end of the filled part (see compress_next_state).
_WIDE_ROW = 8
_FIT_WINDOW = 2048


def compress_next_state(
    next_state: np.ndarray, reject: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Row displacement ("comb vector") of a (classes, states) next-state table.

    Returns ``row_base`` (states,), ``comb_next`` and ``comb_check`` (comb_size,):
    entry ``row_base[s] + c`` holds (next, s) for every class ``c`` with a
    transition from ``s``; a free entry holds (reject, reject), and reject is never
    a state.  ``comb_size = max(row_base) + classes``, so ``row_base[s] + c`` is in
    range for every class without a bound check.

    Rows go in decreasing order of live classes (ties: lower state first); each
    takes the lowest base where none of its live entries hits a used one (first
    fit), searching from the lowest free entry.  Rows with ``_WIDE_ROW`` or more
    live classes search only the last ``_FIT_WINDOW`` bases before the end of the
    filled part: exact first fit is within 6% on the financial-summary schema
    (1,355,537 entries against 1,436,359) but takes minutes instead of seconds."""
    num_classes, num_states = next_state.shape
    live = next_state != reject
    order = np.argsort(-live.sum(axis=0), kind="stable")
    occ = np.zeros(max(1024, 2 * int(live.sum()) + 4 * num_classes), dtype=bool)
    base = np.zeros(num_states, dtype=np.int64)
    first_free = 0
    top = 0  # every entry at or past `top` is free
    chunk = 2048
    for s in order.tolist():
        cols = np.flatnonzero(live[:, s])
        if len(cols) == 0:
            continue
        lo = max(0, first_free - int(cols[0]))
        hi = max(lo, top - int(cols[0]))  # the row always fits at hi
        if len(cols) >= _WIDE_ROW:
            lo = max(lo, hi - _FIT_WINDOW)
        while top + 2 * num_classes + chunk >= len(occ):
            occ = np.concatenate([occ, np.zeros(len(occ), dtype=bool)])
        b = hi
        for start in range(lo, hi, chunk):
            cand = np.arange(start, min(hi, start + chunk))
            hit = np.flatnonzero(~occ[cand[None, :] + cols[:, None]].any(axis=0))
            if len(hit):
                b = int(cand[hit[0]])
                break
        base[s] = b
        occ[b + cols] = True
        top = max(top, b + int(cols[-1]) + 1)
        while occ[first_free]:
            first_free += 1
    size = int(base.max(initial=0)) + num_classes
    comb_next = np.full(size, reject, dtype=np.int32)
    comb_check = np.full(size, reject, dtype=np.int32)
    cls, st = np.nonzero(live)
    comb_next[base[st] + cls] = next_state[cls, st]
    comb_check[base[st] + cls] = st
    return base.astype(np.int32), comb_next, comb_check


def expand_next_state(
    row_base: np.ndarray, comb_next: np.ndarray, comb_check: np.ndarray, num_classes: int,
    reject: int,
) -> np.ndarray:
    """The dense (classes, states) table a comb encodes (the inverse of compress)."""
    idx = row_base[None, :].astype(np.int64) + np.arange(num_classes)[:, None]
    states = np.arange(len(row_base))[None, :]
    hit = comb_check[idx] == states
    return np.where(hit, comb_next[idx], reject).astype(np.int32)


def _mask_rows(
    allowed_cls: np.ndarray, token_class: np.ndarray, vocab_size: int
) -> tuple[np.ndarray, np.ndarray]:
    """Per-state row index into deduplicated, non-empty token masks."""
    per_state = np.ascontiguousarray(allowed_cls.T)  # (states, classes)
    ids = (
        _row_ids_first_order(per_state.astype(np.int64))
        if per_state.size
        else np.zeros(per_state.shape[0], dtype=np.int64)
    )
    n_ids = int(ids.max()) + 1 if len(ids) else 0
    rep = np.zeros(n_ids, dtype=np.int64)
    rep[ids[::-1]] = np.arange(len(ids))[::-1]
    patterns = per_state[rep] if n_ids else np.zeros((0, allowed_cls.shape[0]), dtype=bool)
    nonempty = patterns.any(axis=1)
    row_of_id = np.full(n_ids, -1, dtype=np.int64)
    row_of_id[nonempty] = np.arange(int(nonempty.sum()))
    stored = patterns[nonempty]
    num_rows = stored.shape[0]
    empty_row = (1 << max(1, num_rows.bit_length())) - 1
    mask_index = np.where(row_of_id[ids] >= 0, row_of_id[ids], empty_row).astype(np.int32)
    words = (vocab_size + 31) // 32
    bits = stored[:, token_class]  # (rows, vocab)
    packed = np.packbits(bits, axis=1, bitorder="little")
    padded = np.zeros((num_rows, words * 4), dtype=np.uint8)
    padded[:, : packed.shape[1]] = packed
    return mask_index, padded.view("<u4").astype(np.uint32)


# ----------------------------------------------------------------------------
# CLI
# ----------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m models.token_fsm", description="Compile and check token-FSM table images."
    )
    sub = parser.add_subparsers(dest="cmd", required=True)
    comp = sub.add_parser("compile", help="regex or JSON schema -> table image + .hex files")
    src = comp.add_mutually_exclusive_group(required=True)
    src.add_argument("--regex", help="pattern in the dialect of docs/regex-dialect.md")
    src.add_argument("--schema", type=Path, help="JSON schema file (via models.json_schema)")
    comp.add_argument(
        "--vocab", default="gpt2", help="gpt2, or a .tiktoken / tokenizer.json / tekken .json path"
    )
    comp.add_argument("-o", "--out", type=Path, required=True, help="output directory")
    comp.add_argument("--name", default="fsm", help="image file stem (default: fsm)")
    comp.add_argument(
        "--banks", type=int, default=2, help="banks for the size report (default 2: one + spare)"
    )
    chk = sub.add_parser("check", help="validate a token sequence against an image")
    chk.add_argument("--image", type=Path, required=True)
    chk.add_argument(
        "--tokens", required=True, help="comma/space separated ids, or a file containing them"
    )
    args = parser.parse_args(argv)
    try:
        return _cmd_compile(args) if args.cmd == "compile" else _cmd_check(args)
    except (ValueError, OSError, RuntimeError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


def load_vocab(spec: str) -> Vocabulary:
    """``gpt2`` or a vocabulary file, recognised by name and content."""
    if spec == "gpt2":
        return Vocabulary.gpt2()
    path = Path(spec)
    if path.suffix == ".tiktoken":
        return Vocabulary.from_tiktoken(path)
    if path.suffix == ".json":
        head = json.loads(path.read_text(encoding="utf-8"))
        if "config" in head and "vocab" in head and isinstance(head["vocab"], list):
            return Vocabulary.from_tekken(path)
        return Vocabulary.from_hf_tokenizer_json(path)
    raise ValueError(f"unknown vocabulary {spec!r}: use gpt2, *.tiktoken or *.json")


def _cmd_compile(args: argparse.Namespace) -> int:
    from models.table_image import export_image, export_readmemh

    if args.schema is not None:
        try:
            from models.json_schema import schema_to_regex
        except ImportError as exc:  # it ships with the package: only a broken install
            raise RuntimeError(
                f"--schema needs models.json_schema.schema_to_regex, which failed to import ({exc})"
            ) from exc
        pattern = schema_to_regex(json.loads(args.schema.read_text(encoding="utf-8")))
    else:
        pattern = args.regex
    vocab = load_vocab(args.vocab)
    t0 = time.perf_counter()
    dfa = compile_regex(pattern)
    fsm = TokenFSM.build(dfa, vocab)
    seconds = time.perf_counter() - t0
    args.out.mkdir(parents=True, exist_ok=True)
    image = args.out / f"{args.name}.bin"
    sizes = export_image(fsm.tables, image)
    export_readmemh(fsm.tables, args.out)
    t = fsm.tables
    print(f"pattern      : {pattern}")
    print(f"vocabulary   : {vocab.name} ({len(vocab)} tokens, eos={vocab.eos_id})")
    print(f"byte DFA     : {dfa.num_states} states, {dfa.num_classes} byte classes")
    print(
        f"token FSM    : {t.num_states} states, {t.num_classes} classes, "
        f"{t.num_mask_rows} distinct mask rows, {int(t.forced_valid.sum())} forced states"
    )
    print(
        f"widths       : state {t.state_bits}, class {t.class_bits}, row {t.row_bits}, "
        f"token {t.token_bits} bits"
    )
    for name, nbytes in sizes.items():
        print(f"  {name:<13}: {nbytes:>10,} bytes")
    from models.fsm_sizes import format_report, report

    print(f"sizes        : {format_report(args.name, report(t, banks=args.banks))}")
    print(f"image        : {image} ({image.stat().st_size:,} bytes), built in {seconds:.3f} s")
    return 0


def _cmd_check(args: argparse.Namespace) -> int:
    from models.table_image import load_image

    text = args.tokens
    path = Path(text)
    if path.is_file():
        text = path.read_text(encoding="utf-8")
    tokens = [int(x) for x in text.replace(",", " ").split()]
    fsm = TokenFSM.from_tables(load_image(args.image))
    first = fsm.validate(tokens)
    print(first)
    return 0 if first < 0 else 1


if __name__ == "__main__":
    # Re-import by package name so classes are shared with models.table_image.
    from models.token_fsm import main as _main

    sys.exit(_main())
