# SPDX-License-Identifier: Apache-2.0
"""L2Layout: where radix_core (L2 = 1) keeps each table in its DDR region.

The host sizes the region it hands krnl_radix with it (``L2Layout.of_params(...).total``);
the testbench decodes a flushed DDR image with it. Mirrors the core's L2 section:
tables in a fixed order, each entry in the next power of two of its width in bytes,
each region rounded up to 4 KiB; a table under 4 x L1Ways 64-byte lines stays on chip.
docs/radix-protocol.md has the same table.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

LANES = 16
# radix_top's defaults for the parameters the layout depends on.
RTL_DEFAULTS = {"NodeCap": 1024, "TokenCap": 16384, "MaxLen": 1024, "PageSize": 1,
                "HashBuckets": 256, "HashWays": 4, "StashDepth": 4, "L1Ways": 2}


def clog2(n: int) -> int:
    return max(0, (n - 1).bit_length())


def entry_bytes(width: int) -> int:
    return 1 << clog2((width + 7) // 8)


@dataclass(frozen=True)
class Table:
    name: str
    width: int
    depth: int
    offset: int
    in_ddr: bool

    @property
    def entry_bytes(self) -> int:
        return entry_bytes(self.width)


@dataclass(frozen=True)
class L2Layout:
    tables: tuple[Table, ...]
    total: int

    @classmethod
    def of(cls, node_cap: int, token_cap: int, max_len: int, page_size: int,
           hash_buckets: int, hash_ways: int, stash_depth: int, l1_ways: int) -> L2Layout:
        node_w, line_cap = clog2(node_cap), token_cap // LANES
        line_w, len_w = clog2(line_cap), clog2(max_len + 1)
        bucket_w, way_w = clog2(hash_buckets), max(1, clog2(hash_ways))
        stash_w = max(1, clog2(stash_depth))
        loc_w = 1 + max(bucket_w + way_w, stash_w)
        # {hloc, nchild, stamp, lock, len, off, head, parent, ns, gen, valid}
        node_word_w = 1 + 8 + 8 + node_w + line_w + 4 + len_w + 16 + 64 + (node_w + 1) + loc_w
        ix_row_w = hash_ways * (1 + 8 + node_w + 32 * page_size + len_w + node_w)
        shapes = (("node", node_word_w, node_cap), ("lnext", node_w, node_cap),
                  ("lprev", node_w, node_cap), ("free_nodes", node_w, node_cap),
                  ("ltok", 512, line_cap), ("lkv", 512, line_cap),
                  ("llink", 2 * line_w, line_cap), ("free_lines", line_w, line_cap),
                  ("index", ix_row_w, hash_buckets))
        tables, off = [], 0
        for name, width, depth in shapes:
            size = depth * entry_bytes(width)
            lines = (size + 63) // 64
            tables.append(Table(name, width, depth, off, lines >= 4 * l1_ways))
            off += (size + 4095) // 4096 * 4096
        return cls(tuple(tables), off)

    @classmethod
    def of_params(cls, params: Mapping[str, int]) -> L2Layout:
        """From build parameters by their RTL names; an absent one takes radix_top's default."""
        p = {**RTL_DEFAULTS, **params}
        return cls.of(p["NodeCap"], p["TokenCap"], p["MaxLen"], p["PageSize"], p["HashBuckets"],
                      p["HashWays"], p["StashDepth"], p["L1Ways"])

    @classmethod
    def of_dut(cls, dut: object) -> L2Layout:
        return cls.of_params({name: int(getattr(dut, name).value) for name in RTL_DEFAULTS})

    def table(self, name: str) -> Table:
        return next(t for t in self.tables if t.name == name)
