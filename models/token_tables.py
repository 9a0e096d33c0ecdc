# SPDX-License-Identifier: Apache-2.0
"""TokenTables: the token-FSM tables the RTL holds, and their compressed next-state table.

Kept apart from the builder (models.token_fsm) so that the table image reader and
writer (models.table_image) and the size report (models.fsm_sizes) depend on the
data, not on the compiler: docs/table-format.md has the layout.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

REJECT_CLASS = 0

#: Linked comb entries (image version 3, docs/table-format.md) are 32 bits: the
#: check field in the low ``CHECK_BITS`` bits, the payload above it.  The split is
#: fixed, not per image, so that the RTL takes the fields apart with wires.
CHECK_BITS = 12
PAYLOAD_BITS = 32 - CHECK_BITS
CHECK_MASK = (1 << CHECK_BITS) - 1
FREE_ENTRY = 0xFFFF_FFFF  # check field all ones: matches no class and no info column
MAX_LINKED_CLASSES = CHECK_MASK - 1  # the info column (= classes) must differ from free


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
    # The linked comb (image version 3), built on first use: packing the
    # financial-summary schema takes about a minute, and most users never need it.
    linked_comb: LinkedComb | None = None

    def __post_init__(self) -> None:
        if self.row_base is None:
            self.row_base, self.comb_next, self.comb_check = compress_next_state(
                self.next_state, self.reject
            )

    @property
    def comb_size(self) -> int:
        return int(self.comb_next.shape[0])

    @property
    def linked(self) -> LinkedComb:
        """The next-state table as a linked comb (see LinkedComb)."""
        if self.linked_comb is None:
            self.linked_comb = link_next_state(self.next_state, self.reject)
        return self.linked_comb

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


def interval_class_order(live: np.ndarray) -> np.ndarray:
    """A numbering of classes (the rows of ``live``, classes x states) under which
    each state's live classes lie in few contiguous runs, so that comb rows nest
    like intervals and leave few holes.

    Greedy ordered-partition refinement: distinct live sets, heaviest first (states
    sharing the set x its size), split every block into members and non-members;
    the members go next to the previous block's members when it ended with them, so
    a set already cut at a block edge stays one run.  On the financial-summary
    schema over GPT-2 the comb drops from 870,850 entries (classes by live-state
    count) to 680,957, against 641,579 live transitions."""
    num_classes = live.shape[0]
    if live.shape[1] == 0 or num_classes == 0:
        return np.arange(num_classes)
    cols = np.ascontiguousarray(live.T)
    void = cols.view(np.dtype((np.void, cols.shape[1]))).ravel()
    _, first, counts = np.unique(void, return_index=True, return_counts=True)
    sets = cols[first]
    weight = counts * sets.sum(axis=1)
    blocks = [np.arange(num_classes)]
    for k in np.lexsort((first, -weight)).tolist():
        member = sets[k]
        if not member.any():
            continue
        refined: list[np.ndarray] = []
        prev_in = False
        for b in blocks:
            inside, outside = b[member[b]], b[~member[b]]
            if len(inside) == 0 or len(outside) == 0:
                refined.append(b)
                prev_in = len(inside) > 0
            elif prev_in:
                refined += [inside, outside]
                prev_in = False
            else:
                refined += [outside, inside]
                prev_in = True
        blocks = refined
    return np.concatenate(blocks)


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


@dataclass(eq=False)
class LinkedComb:
    """Row displacement where an entry names where the next state's row is, not
    the next state: the walk from one token to the next needs no table keyed by
    state, so the RTL's same-slot loop is comb RAM -> select -> adder -> comb
    address.

    Every state has a distinct row base ``b``; its *info position* is
    ``i = b + classes`` (the info column, one past the last class), and a state
    is named by its info position throughout.  Entry ``b + c`` for a class
    ``c`` with a transition holds ``(info position of next << CHECK_BITS) | c``;
    entry ``i`` holds ``(state << CHECK_BITS) | classes``.  Because bases are
    distinct, the class in the check field identifies the row: the entry at
    ``b + c`` belongs to the state at base ``b`` exactly when its check is ``c``.
    Free entries are ``FREE_ENTRY``.  ``size = max(row_base) + classes + 1``, so
    every ``i - classes + c`` is in range."""

    num_classes: int
    row_base: np.ndarray  # (states,) int64, distinct
    entries: np.ndarray  # (size,) int64, 32-bit values

    @property
    def size(self) -> int:
        return int(self.entries.shape[0])

    @property
    def base_bits(self) -> int:
        return max(1, (self.size - 1).bit_length())

    def info(self, state: int) -> int:
        """Info position of ``state``: where the walk names it."""
        return int(self.row_base[state]) + self.num_classes

    def step(self, info: int, cls: int) -> int | None:
        """Info position of the next state, or None: no transition on ``cls``."""
        if not 0 <= cls < self.num_classes:
            return None
        e = int(self.entries[info - self.num_classes + cls])
        return e >> CHECK_BITS if e & CHECK_MASK == cls else None

    def state_at(self, info: int) -> int:
        """The state whose info entry is at ``info``."""
        e = int(self.entries[info])
        if e & CHECK_MASK != self.num_classes:
            raise ValueError(f"no info entry at {info}")
        return e >> CHECK_BITS

    def expand(self, reject: int) -> np.ndarray:
        """The dense (classes, states) next-state table this comb encodes."""
        c = self.num_classes
        check = self.entries & CHECK_MASK
        payload = self.entries >> CHECK_BITS
        state_of = np.full(self.size, reject, dtype=np.int64)
        state_of[self.row_base + c] = np.arange(len(self.row_base))
        idx = self.row_base[None, :] + np.arange(c)[:, None]
        hit = check[idx] == np.arange(c)[:, None]
        nxt = state_of[np.minimum(payload[idx], self.size - 1)]
        return np.where(hit, nxt, reject).astype(np.int32)


def link_next_state(next_state: np.ndarray, reject: int) -> LinkedComb:
    """Pack a (classes, states) next-state table as a LinkedComb.

    As compress_next_state (rows by decreasing live classes, first fit from the
    lowest free entry, wide rows in a window near the end), with two more rules:
    every row also takes its info column, and no two rows share a base.  Both cost
    entries: 752,384 against 680,957 on the financial-summary schema over GPT-2,
    37,896 against 33,578 on the summary/sentiment regex (measured by
    ``python -m models.token_fsm compile``).  Raises ValueError when the classes,
    the states or the comb outgrow the fixed entry fields."""
    num_classes, num_states = next_state.shape
    if num_classes > MAX_LINKED_CLASSES:
        raise ValueError(
            f"{num_classes} classes: a linked comb entry holds at most {MAX_LINKED_CLASSES}"
        )
    if num_states > 1 << PAYLOAD_BITS:
        raise ValueError(
            f"{num_states} states: a linked comb entry holds {PAYLOAD_BITS}-bit states"
        )
    live = next_state != reject
    order = np.argsort(-live.sum(axis=0), kind="stable")
    occ = np.zeros(max(1024, 2 * int(live.sum()) + 2 * num_states + 4 * num_classes), dtype=bool)
    used = np.zeros_like(occ)  # bases taken
    base = np.zeros(num_states, dtype=np.int64)
    first_free = 0
    top = 0  # every entry at or past `top` is free, and every base below it is past
    chunk = 2048
    for s in order.tolist():
        cols = np.append(np.flatnonzero(live[:, s]), num_classes)
        lo = max(0, first_free - int(cols[0]))
        if len(cols) > _WIDE_ROW:
            lo = max(lo, top - int(cols[0]) - _FIT_WINDOW)
        while top + num_classes + 2 * chunk >= len(occ):
            grow = np.zeros(len(occ), dtype=bool)
            occ, used = np.concatenate([occ, grow]), np.concatenate([used, grow])
        b = top  # always fits: nothing at or past top is taken
        for start in range(lo, top, chunk):
            cand = np.arange(start, min(top, start + chunk))
            ok = ~occ[cand[None, :] + cols[:, None]].any(axis=0) & ~used[cand]
            hit = np.flatnonzero(ok)
            if len(hit):
                b = int(cand[hit[0]])
                break
        base[s] = b
        used[b] = True
        occ[b + cols] = True
        top = max(top, b + int(cols[-1]) + 1)
        while occ[first_free]:
            first_free += 1
    size = int(base.max(initial=0)) + num_classes + 1
    if size > 1 << PAYLOAD_BITS:
        raise ValueError(f"linked comb of {size} entries: bases need more than {PAYLOAD_BITS} bits")
    entries = np.full(size, FREE_ENTRY, dtype=np.int64)
    cls, st = np.nonzero(live)
    entries[base[st] + cls] = ((base[next_state[cls, st]] + num_classes) << CHECK_BITS) | cls
    entries[base + num_classes] = (np.arange(num_states) << CHECK_BITS) | num_classes
    return LinkedComb(num_classes, base, entries)
