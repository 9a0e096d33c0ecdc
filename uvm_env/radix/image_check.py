# SPDX-License-Identifier: Apache-2.0
"""Read the radix controller's memories through the simulator and compare the stored
tree with the model (models.radix_image). Only while the core is idle: a command in
flight leaves the tables half written."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from models.radix_image import ImageLayout, RadixImage, compare, decode
from sglang_fpga.l2_layout import L2Layout, Table
from uvm_env.radix.radix_predictor import RadixPredictor


def ram_array(ram: Any) -> Any:
    """The word array of an on-chip table: a radix_table (on-chip branch), a radix_ram or
    a common_ram_sdp, whichever RamStyle branch built it."""
    for wrapper in ("g_chip", "u_ram", "u_ram"):
        try:
            ram = getattr(ram, wrapper)
        except AttributeError:
            continue
    for branch in ("g_ultra", "g_block", "g_dist", "g_auto"):
        try:
            return getattr(ram, branch).mem_q
        except AttributeError:
            continue
    raise AttributeError(f"no memory array under {ram._path}")


class _Words(Mapping[int, int]):
    """A RAM's words, read from the simulator when first asked for: the decoder only
    follows the lines that edges use, so a large token store is not read whole."""

    # Element handles by RAM path, kept across checks: finding a handle costs far more
    # than reading its value, and a random test checks hundreds of times.
    _handles: dict[str, dict[int, Any]] = {}

    def __init__(self, ram: Any, depth: int) -> None:
        self._arr, self._depth, self._seen = ram_array(ram), depth, {}
        self._elems = self._handles.setdefault(ram._path, {})

    def __getitem__(self, addr: int) -> int:
        if not 0 <= addr < self._depth:
            raise KeyError(addr)
        if addr not in self._seen:
            elem = self._elems.get(addr)
            if elem is None:
                elem = self._elems[addr] = self._arr[addr]
            v = elem.value
            # Icarus keeps X where nothing was written: a word never written reads as
            # 0 (invalid), and so does a field written from an X source, such as a
            # line's second link when the free list had no line to offer.
            self._seen[addr] = int(v) if v.is_resolvable else int(
                str(v).lower().replace("x", "0").replace("z", "0"), 2)
        return self._seen[addr]

    def __iter__(self) -> Iterator[int]:
        return iter(range(self._depth))

    def __len__(self) -> int:
        return self._depth


class _DdrWords(Mapping[int, int]):
    """A table's words from its region in the DDR model (the L2 build, after a flush):
    entry i is entry_bytes little-endian bytes at region + i * entry_bytes."""

    def __init__(self, ddr: Any, address: int, table: Table) -> None:
        self._ddr, self._addr, self._t = ddr, address, table
        self._mask = (1 << table.width) - 1

    def __getitem__(self, addr: int) -> int:
        if not 0 <= addr < self._t.depth:
            raise KeyError(addr)
        eb = self._t.entry_bytes
        raw = self._ddr.peek(self._addr + addr * eb, eb)
        return int.from_bytes(raw, "little") & self._mask

    def __iter__(self) -> Iterator[int]:
        return iter(range(self._t.depth))

    def __len__(self) -> int:
        return self._t.depth


@dataclass(frozen=True)
class L2Source:
    """Where the L2 build keeps its tables: the DDR model, the region base, the layout."""
    ddr: Any
    base: int
    layout: L2Layout


def read_image(dut: Any, lay: ImageLayout, l2: L2Source | None = None) -> RadixImage:
    """The stored tree's memories; with l2, every table in DDR is read from the DDR
    model, which is the whole truth only after a flush has written the L1 caches back."""
    core = dut.u_core

    def words(name: str, ram: Any, depth: int) -> Mapping[int, int]:
        if l2 is not None and l2.layout.table(name).in_ddr:
            t = l2.layout.table(name)
            return _DdrWords(l2.ddr, l2.base + t.offset, t)
        return _Words(ram, depth)

    geo = lay.geo
    idx = core.u_index
    stash = []
    valid = int(idx.st_valid_q.value)
    for s in range(geo.stash_depth):
        if valid >> s & 1:
            key = int(idx.st_key_q[s].value)
            val = (int(idx.st_len_q[s].value) << lay.node_w) | int(idx.st_child_q[s].value)
            stash.append((s, key, val))
    free = {}
    for name, stack, depth in (("nodes", core.u_free_nodes, geo.node_cap),
                               ("lines", core.u_free_lines, geo.line_cap)):
        stored = words(f"free_{name}", stack.u_ram, depth)
        free[name] = [stored[i] for i in range(int(stack.count_q.value))]
    return RadixImage(
        nodes=words("node", core.u_node, geo.node_cap),
        ltok=words("ltok", core.u_ltok, geo.line_cap), lkv=words("lkv", core.u_lkv, geo.line_cap),
        llink=words("llink", core.u_llink, geo.line_cap),
        lnext=words("lnext", core.u_lnext, geo.node_cap),
        buckets=words("index", idx.u_buckets, geo.hash_buckets), stash=stash,
        lru_head=int(core.lru_head_q.value), lru_tail=int(core.lru_tail_q.value),
        free_nodes=free["nodes"], free_lines=free["lines"])


def check_image(dut: Any, pred: RadixPredictor,
                l2: L2Source | None = None) -> tuple[list[str], int]:
    """Differences between the DUT's stored tree and the predictor's model, and how many
    stored nodes were compared."""
    lay = ImageLayout(pred.p, pred.p.max_len)
    tree = decode(read_image(dut, lay, l2), lay)
    return compare(tree, pred.model, lay, pred.handle_of), len(tree.nodes)
