# SPDX-License-Identifier: Apache-2.0
"""L1TagModel: which lines radix_l1_cache holds, from its documented policy alone.

The data scoreboard cannot see a replacement bug: a cache that evicts the wrong line,
or never updates its recency bits, still returns the right data and only misses more.
This model follows the policy the RTL header states (write-back, write-allocate,
Ways-way sets, tree pseudo-LRU touched by read hits and fills, a fill takes the lowest
invalid way first) and predicts each request's hits, misses and write-backs, which
the scoreboard compares with the cache's counters request by request.

Order within one request, as the header gives it: the read and the write are looked
up together; a read hit touches the recency bits, a write hit marks its line dirty;
then a missing read is filled, then a missing write (which hits if the read just
brought its line), then a flush writes back every dirty line.
"""

from __future__ import annotations

from dataclasses import dataclass

LINE_BYTES = 64


@dataclass
class Outcome:
    hits: int = 0
    misses: int = 0
    wbs: int = 0


class L1TagModel:
    def __init__(self, sets: int, ways: int, entry_bytes: int) -> None:
        if ways not in (1, 2, 4, 8) or sets < 2 or sets & (sets - 1):
            raise ValueError(f"unsupported geometry: {sets} sets x {ways} ways")
        self.sets, self.ways = sets, ways
        self.per_line = LINE_BYTES // entry_bytes
        self.levels = ways.bit_length() - 1
        self.clear()

    def clear(self) -> None:
        self.tag: list[list[int | None]] = [[None] * self.ways for _ in range(self.sets)]
        self.dirty = [[False] * self.ways for _ in range(self.sets)]
        self.plru = [[0] * max(1, self.ways - 1) for _ in range(self.sets)]

    # Tree pseudo-LRU: node n's bit points at the half to evict next; node n's
    # children are 2n+1 (lower half) and 2n+2 (upper half).
    def _touch(self, s: int, way: int) -> None:
        bits, n = self.plru[s], 0
        for lv in range(self.levels):
            half = (way >> (self.levels - 1 - lv)) & 1
            bits[n] = 1 - half
            n = 2 * n + 1 + half

    def _victim(self, s: int) -> int:
        bits, n, way = self.plru[s], 0, 0
        for _ in range(self.levels):
            way = (way << 1) | bits[n]
            n = 2 * n + 1 + bits[n]
        return way

    def _where(self, addr: int) -> tuple[int, int]:
        line = addr // self.per_line
        return line % self.sets, line // self.sets

    def _find(self, addr: int) -> tuple[int, int | None]:
        s, t = self._where(addr)
        for w in range(self.ways):
            if self.tag[s][w] == t:
                return s, w
        return s, None

    def _fill(self, addr: int, write: bool, out: Outcome) -> None:
        s, t = self._where(addr)
        invalid = [w for w in range(self.ways) if self.tag[s][w] is None]
        way = invalid[0] if invalid else self._victim(s)
        if self.tag[s][way] is not None and self.dirty[s][way]:
            out.wbs += 1
        self.tag[s][way], self.dirty[s][way] = t, write
        self._touch(s, way)
        out.misses += 1

    def access(self, *, re: bool, raddr: int, we: bool, waddr: int, flush: bool) -> Outcome:
        """One request that acted (not a clear): its hits, misses and write-backs."""
        out = Outcome()
        r_way = w_way = None
        if re:
            rs, r_way = self._find(raddr)
            if r_way is not None:
                self._touch(rs, r_way)
                out.hits += 1
        if we:
            ws, w_way = self._find(waddr)
            if w_way is not None:
                self.dirty[ws][w_way] = True
                out.hits += 1
        if re and r_way is None:
            self._fill(raddr, False, out)
        if we and w_way is None:
            ws, w_way = self._find(waddr)   # the read may have brought the line
            if w_way is not None:
                self.dirty[ws][w_way] = True
                out.hits += 1
            else:
                self._fill(waddr, True, out)
        if flush:
            for s in range(self.sets):
                for w in range(self.ways):
                    if self.tag[s][w] is not None and self.dirty[s][w]:
                        out.wbs += 1
                        self.dirty[s][w] = False
        return out
