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

The tables themselves are ``models.token_tables.TokenTables`` (re-exported
here); the command line is ``python -m models.token_fsm_cli compile|check``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from .regex_dfa import ByteDFA, bfs_order, compile_regex, refine_partition
from .token_tables import (
    REJECT_CLASS,
    TokenTables,
    compress_next_state,
    expand_next_state,
    interval_class_order,
)
from .vocab import Vocabulary

__all__ = [
    "REJECT_CLASS",
    "BuildInfo",
    "TokenFSM",
    "TokenTables",
    "compress_next_state",
    "expand_next_state",
]


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

    # 6. Token classes: functions equal on the merged states form one class.
    #    Classes are numbered so that each state's live classes form few
    #    contiguous runs (interval_class_order; ties start from the classes live
    #    in more states, then the lowest token id using them): rows of the
    #    row-displaced next-state table then nest and leave few holes (870,850 ->
    #    680,957 comb entries on the financial-summary schema over GPT-2, with
    #    641,579 live transitions; 1,436,359 in token-id order).  Functions that
    #    are dead on every reachable state join the reject class.
    has_eos = vocab.eos_id is not None
    first = 2 if has_eos else 1
    row_id = _row_ids_first_order(qsucc)
    usable = token_func >= 0
    func_live = (qsucc >= 0).any(axis=1)
    usable[usable] = func_live[token_func[usable]]
    tok_key = row_id[token_func[usable]]
    keys, first_pos = np.unique(tok_key, return_index=True)
    func_of_key = np.zeros(int(row_id.max()) + 1 if len(row_id) else 0, dtype=np.int64)
    func_of_key[row_id[::-1]] = np.arange(len(row_id))[::-1]
    live_states = (qsucc[func_of_key[keys]] >= 0).sum(axis=1)
    ranked = keys[np.lexsort((first_pos, -live_states))]
    ranked = ranked[interval_class_order(qsucc[func_of_key[ranked]] >= 0)]
    class_of_key = np.full(len(func_of_key), -1, dtype=np.int64)
    class_of_key[ranked] = np.arange(len(ranked))
    token_class = np.full(len(vocab), REJECT_CLASS, dtype=np.int64)
    token_class[usable] = class_of_key[tok_key] + first
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


if __name__ == "__main__":
    # The command line lives in models.token_fsm_cli (it imports the image writer
    # and the size report, which import this module); `python -m models.token_fsm`
    # stays a working name for it. runpy, not an import: no import cycle.
    import runpy

    runpy.run_module("models.token_fsm_cli", run_name="__main__", alter_sys=True)
