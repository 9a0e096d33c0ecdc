# SPDX-License-Identifier: Apache-2.0
"""Deliberately naive differential reference for models/radix_cache.py.

An uncompressed trie with one node per *page* (per token when page_size is 1), plain Python
lists, and no stamps or eviction. It shares no code with RadixCache, so agreement on match
lengths, returned values, insert prefix lengths, lock deltas and sizes is real evidence. Lock
counts are kept per page: locking a handle covers exactly the pages from the root to it, which
is what the compressed tree's node lock_refs add up to whatever its splits were.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(eq=False)
class NaivePage:
    tokens: tuple[int, ...]
    values: list[int]
    parent: NaivePage | None
    lock: int = 0
    children: dict[tuple[int, ...], NaivePage] = field(default_factory=dict)


class NaiveRadixCache:
    def __init__(self, page_size: int = 1) -> None:
        self.page_size = page_size
        self.root = NaivePage((), [], None)
        # One subtree per namespace under a shared root: namespaces never share pages.
        self.ns_roots: dict[int, NaivePage] = {}

    def match_prefix(
        self, tokens: list[int], namespace: int = 0
    ) -> tuple[int, list[int], NaivePage]:
        page = self.ns_roots.get(namespace)
        found: list[int] = []
        last = self.root
        for chunk in self._pages(tokens):
            if page is None or chunk not in page.children:
                break
            page = page.children[chunk]
            found.extend(page.values)
            last = page
        return len(found), found, last

    def insert(self, tokens: list[int], kv_indices: list[int], namespace: int = 0) -> int:
        if namespace not in self.ns_roots:
            self.ns_roots[namespace] = NaivePage((), [], self.root)
        page = self.ns_roots[namespace]
        present = 0
        still_present = True
        for i, chunk in enumerate(self._pages(tokens)):
            if chunk in page.children:
                # Existing values win.
                if still_present:
                    present += len(chunk)
            else:
                still_present = False
                start = i * self.page_size
                page.children[chunk] = NaivePage(
                    chunk, list(kv_indices[start : start + self.page_size]), page
                )
            page = page.children[chunk]
        return present

    def inc_lock_ref(self, page: NaivePage) -> int:
        delta = 0
        while page.parent is not None and page.tokens:
            if page.lock == 0:
                delta -= len(page.tokens)
            page.lock += 1
            page = page.parent
        return delta

    def dec_lock_ref(self, page: NaivePage) -> int:
        delta = 0
        while page.parent is not None and page.tokens:
            page.lock -= 1
            if page.lock == 0:
                delta += len(page.tokens)
            page = page.parent
        return delta

    def all_pages(self) -> list[NaivePage]:
        out: list[NaivePage] = []
        todo = list(self.ns_roots.values())
        while todo:
            page = todo.pop()
            out.extend(page.children.values())
            todo.extend(page.children.values())
        return out

    def total_size(self) -> int:
        return sum(len(p.tokens) for p in self.all_pages())

    def protected_size(self) -> int:
        return sum(len(p.tokens) for p in self.all_pages() if p.lock > 0)

    def evictable_size(self) -> int:
        return sum(len(p.tokens) for p in self.all_pages() if p.lock == 0)

    def _pages(self, tokens: list[int]) -> list[tuple[int, ...]]:
        usable = len(tokens) // self.page_size * self.page_size
        return [tuple(tokens[i : i + self.page_size]) for i in range(0, usable, self.page_size)]
