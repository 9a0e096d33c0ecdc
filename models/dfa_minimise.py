# SPDX-License-Identifier: Apache-2.0
"""DFA minimisation and numbering, shared by the byte DFA and the token FSM.

`refine_partition` is the coarsest-partition step both levels use
(models.regex_dfa minimises byte DFAs with it, models.token_fsm merges token
states); `bfs_order` gives both their deterministic breadth-first numbering.
"""

from __future__ import annotations

import numpy as np

DEAD = -1


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
    cols = trans[:, np.unique(row_ids(trans.T), return_index=True)[1]] if trans.size else trans
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
        ids = row_ids(rows)
        canon[group] = ids + next_id
        next_id += int(ids.max()) + 1
    return canon[:n]


def minimise(trans: np.ndarray, accepting: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
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
            new_block = row_ids(np.column_stack([block, succ]))
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


def row_ids(rows: np.ndarray) -> np.ndarray:
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


def renumber_bfs(trans: np.ndarray, accepting: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Breadth-first order from the start: start = 0, deterministic numbering."""
    n = trans.shape[0]
    order_arr = bfs_order(trans, 0)
    inv = np.full(n + 1, DEAD, dtype=np.int32)
    inv[order_arr] = np.arange(n, dtype=np.int32)
    return inv[trans[order_arr]], accepting[order_arr]
