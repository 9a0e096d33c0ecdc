# SPDX-License-Identifier: Apache-2.0
"""Draw strings from a ByteDFA: accepted strings, live prefixes, shortest matches.

Used by the regex and JSON-schema tests to get positive examples without a
hand-written generator.  Walks choose uniformly among live byte *classes*
(not bytes), so rare branches such as a closing quote are visited as often as
bulk content, then a uniform byte inside the class.
"""

from __future__ import annotations

import random
from collections import deque

import numpy as np

from .regex_dfa import DEAD, ByteDFA


class DfaSampler:
    """Precomputed per-DFA tables for repeated sampling."""

    def __init__(self, dfa: ByteDFA) -> None:
        self.dfa = dfa
        self.class_bytes = [dfa.class_bytes(c) for c in range(dfa.num_classes)]
        self.live = [
            np.flatnonzero(dfa.transitions[s] >= 0).tolist() for s in range(dfa.num_states)
        ]
        self.distance = distance_to_accept(dfa)

    def accepted(
        self, rng: random.Random, max_len: int = 64, stop_prob: float = 0.25
    ) -> bytes | None:
        """A random accepted string; past ``max_len`` bytes it heads for the nearest
        accepting state, so the result can exceed max_len by that distance.
        None if the language is empty."""
        dfa = self.dfa
        state = dfa.start
        if self.distance[state] < 0:
            return None
        out = bytearray()
        while True:
            if dfa.accepting[state] and (not self.live[state] or rng.random() < stop_prob):
                return bytes(out)
            classes = self.live[state]
            if len(out) >= max_len:
                if dfa.accepting[state]:
                    return bytes(out)
                best = min(self.distance[dfa.transitions[state, c]] for c in classes)
                classes = [c for c in classes if self.distance[dfa.transitions[state, c]] == best]
            c = rng.choice(classes)
            out.append(rng.choice(self.class_bytes[c]))
            state = int(dfa.transitions[state, c])

    def prefix(self, rng: random.Random, length: int) -> bytes:
        """A random live prefix of at most ``length`` bytes (shorter only when it
        reaches a state with no way out)."""
        dfa = self.dfa
        state = dfa.start
        out = bytearray()
        while len(out) < length and state >= 0 and self.live[state]:
            c = rng.choice(self.live[state])
            out.append(rng.choice(self.class_bytes[c]))
            state = int(dfa.transitions[state, c])
        return bytes(out)


def sample_accepted(dfa: ByteDFA, rng: random.Random | int, max_len: int = 64) -> bytes | None:
    """One random accepted byte string (see DfaSampler.accepted)."""
    return DfaSampler(dfa).accepted(_rng(rng), max_len)


def sample_many(dfa: ByteDFA, n: int, seed: int = 0, max_len: int = 64) -> list[bytes]:
    """``n`` accepted strings (possibly repeated); empty list for an empty language."""
    sampler = DfaSampler(dfa)
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        s = sampler.accepted(rng, max_len)
        if s is None:
            return []
        out.append(s)
    return out


def sample_texts(dfa: ByteDFA, n: int, seed: int = 0, max_len: int = 64) -> list[str]:
    """Accepted strings decoded as UTF-8 (the DFA only accepts well-formed UTF-8)."""
    return [s.decode("utf-8") for s in sample_many(dfa, n, seed, max_len)]


def random_prefix(dfa: ByteDFA, rng: random.Random | int, length: int) -> bytes:
    """A random live prefix (every prefix it returns can still be completed)."""
    return DfaSampler(dfa).prefix(_rng(rng), length)


def shortest_accepted(dfa: ByteDFA) -> bytes | None:
    """A shortest accepted string (smallest bytes first), None if none."""
    reps = [dfa.class_bytes(c)[0] for c in range(dfa.num_classes)]
    order = sorted(range(dfa.num_classes), key=lambda c: reps[c])
    seen = {dfa.start: b""}
    queue = deque([dfa.start])
    while queue:
        s = queue.popleft()
        if dfa.accepting[s]:
            return seen[s]
        for c in order:
            t = int(dfa.transitions[s, c])
            if t != DEAD and t not in seen:
                seen[t] = seen[s] + bytes([reps[c]])
                queue.append(t)
    return None


def enumerate_accepted(dfa: ByteDFA, max_len: int, limit: int = 10_000) -> list[bytes]:
    """Accepted strings up to ``max_len`` bytes, one representative byte per class,
    breadth-first, at most ``limit`` of them."""
    reps = [dfa.class_bytes(c)[0] for c in range(dfa.num_classes)]
    out: list[bytes] = []
    queue = deque([(dfa.start, b"")])
    while queue and len(out) < limit:
        s, text = queue.popleft()
        if dfa.accepting[s]:
            out.append(text)
        if len(text) < max_len:
            for c in range(dfa.num_classes):
                t = int(dfa.transitions[s, c])
                if t != DEAD:
                    queue.append((t, text + bytes([reps[c]])))
    return out


def distance_to_accept(dfa: ByteDFA) -> np.ndarray:
    """Bytes from each state to the nearest accepting state (-1: none)."""
    preds: list[list[int]] = [[] for _ in range(dfa.num_states)]
    for s, c in zip(*np.nonzero(dfa.transitions >= 0), strict=True):
        preds[int(dfa.transitions[s, c])].append(int(s))
    dist = np.full(dfa.num_states, -1, dtype=np.int64)
    queue = deque(int(s) for s in np.flatnonzero(dfa.accepting))
    for s in queue:
        dist[s] = 0
    while queue:
        s = queue.popleft()
        for p in preds[s]:
            if dist[p] < 0:
                dist[p] = dist[s] + 1
                queue.append(p)
    return dist


def _rng(rng: random.Random | int) -> random.Random:
    return rng if isinstance(rng, random.Random) else random.Random(rng)
