# SPDX-License-Identifier: Apache-2.0
"""Read the radix controller's memories through the simulator and compare the stored
tree with the model (models.radix_image). Only while the core is idle: a command in
flight leaves the tables half written."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from models.radix_image import ImageLayout, RadixImage, compare, decode
from uvm_env.radix.radix_predictor import RadixPredictor


def _mem(ram: Any) -> Any:
    """The word array of a common_ram_sdp, whichever RamStyle branch built it."""
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
        self._arr, self._depth, self._seen = _mem(ram), depth, {}
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


def read_image(dut: Any, lay: ImageLayout) -> RadixImage:
    core = dut.u_core
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
        words = _Words(stack.u_ram, depth)
        free[name] = [words[i] for i in range(int(stack.count_q.value))]
    return RadixImage(
        nodes=_Words(core.u_node, geo.node_cap),
        ltok=_Words(core.u_ltok, geo.line_cap), lkv=_Words(core.u_lkv, geo.line_cap),
        llink=_Words(core.u_llink, geo.line_cap), lnext=_Words(core.u_lnext, geo.node_cap),
        buckets=_Words(idx.u_buckets, geo.hash_buckets), stash=stash,
        lru_head=int(core.lru_head_q.value), lru_tail=int(core.lru_tail_q.value),
        free_nodes=free["nodes"], free_lines=free["lines"])


def check_image(dut: Any, pred: RadixPredictor) -> tuple[list[str], int]:
    """Differences between the DUT's stored tree and the predictor's model, and how many
    stored nodes were compared."""
    lay = ImageLayout(pred.p, pred.p.max_len)
    tree = decode(read_image(dut, lay), lay)
    return compare(tree, pred.model, lay, pred.handle_of), len(tree.nodes)
