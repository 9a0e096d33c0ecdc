# SPDX-License-Identifier: Apache-2.0
"""The overlapped core's broadcasts, checked against the writes it issues.

sig_check.py checks that each broadcast is answered as the walk's signature says; it
takes the core's list of keys to broadcast as given. This checks that list from the
other side, from the table writes themselves: a commit that changes something a walk
reads, while a walk is in flight, must broadcast that key after the write and before
the walk's hand-over. What a walk reads, as radix_core encodes it:

* kind 1, a node: the walk reads a node's word to compare its edge. A write counts as
  a change when a field the walk can read differs from the word it overwrites (valid,
  generation, namespace, parent, edge head, offset, length); lock counts, stamps,
  child counts and the index location are left out, since no walk reads them (the
  decision reads the lock count again, see overlap.py).
* kind 0, a child-index entry: the walk looks up (namespace, parent, page). An INSERT
  into the index makes such a lookup hit where it missed. A SETCHILD only redirects an
  existing entry to a new upper node; the walk that took the old child also added
  that child's node key, and the split rewrites that node's word, so the node rule
  above covers it. DELETE comes only from EVICT, a barrier: a walk beside it is itself
  an error here (its writes would be owed and never broadcast).

So conflict detection that skips a split's or a new leaf's keys (or broadcasts a wrong
key, or a LOCK that changes an edge) fails at the hand-over of the first walk it was
beside, whether or not that walk had read the key. The old word comes from the words
this check saw written, else (on-chip build) from the node RAM itself; on the L2 build
a node's first write since sampling began cannot be compared, which is an error when a
walk is in flight (the tests start sampling at reset, so the init sweep writes every
node first, with no walk)."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from models.radix_signature import KIND_CHILD, KIND_EDGE, child_operand, key_of
from uvm_env.common.error_log import log_error
from uvm_env.radix.image_check import ram_array

#: radix_pkg's child-index opcodes (IX_INSERT).
IX_INSERT = 1
#: The node word fields a walk reads: the low fields of the word, in this order.
WALK_VISIBLE = ("valid", "gen", "ns", "parent", "head", "off", "len")
_log = logging.getLogger("radix.write_check")


@dataclass
class BroadcastCoverCheck:
    """Stepped once per clock cycle (registers settled) by the ConflictChain; see the
    module doc.

    ``node_fields`` is the node word's layout, least significant first
    (models.radix_image.ImageLayout.node_fields)."""

    core: Any
    node_fields: list[tuple[str, int]]
    on_chip: bool
    covered: dict[str, int] = field(default_factory=lambda: {"node": 0, "index": 0})
    unjudged: int = 0
    errors: list[str] = field(default_factory=list)
    _owed: dict[int, str] = field(default_factory=dict)
    _shadow: dict[int, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        names = [n for n, _ in self.node_fields]
        if tuple(names[:len(WALK_VISIBLE)]) != WALK_VISIBLE:
            raise ValueError(f"node word layout {names} does not start with {WALK_VISIBLE}")
        word_w = sum(w for _, w in self.node_fields)
        if word_w != len(self.core.nd_wdata):
            raise ValueError(f"node word layout is {word_w} bits, nd_wdata "
                             f"{len(self.core.nd_wdata)}")
        self._visible = (1 << sum(w for _, w in self.node_fields[:len(WALK_VISIBLE)])) - 1
        self._node_w, self._page_bits = len(self.core.ix_parent), len(self.core.ix_page)
        self._ram = ram_array(self.core.u_node) if self.on_chip else None

    def _old_word(self, addr: int) -> int | None:
        if addr in self._shadow:
            return self._shadow[addr]
        if self._ram is None:
            return None
        v = self._ram[addr].value
        return int(v) if v.is_resolvable else None

    def reset(self) -> None:
        """rst_ni: no walk is in flight after it (the init sweep's writes, seen like any
        others, keep the shadow words true)."""
        self._owed.clear()

    def step(self, cycle: int, adv: bool) -> None:
        """``adv``: the core advanced this cycle (no L1 miss froze it)."""
        core = self.core
        if not adv:
            return
        walking = int(core.ws_q.value) != 0   # W_IDLE
        if int(core.nd_we.value):
            addr, word = int(core.nd_waddr.value), int(core.nd_wdata.value)
            old = self._old_word(addr)
            self._shadow[addr] = word
            if old is None:
                # On the L2 build the init sweep's first write of each node (no walk
                # then) is where this happens; beside a walk it could hide a change.
                if walking:
                    self.unjudged += 1
                    log_error(self.errors, f"cycle {cycle}: node {addr} written beside "
                                           "a walk with its old word unknown", _log)
            elif walking and (old ^ word) & self._visible:
                self._owed.setdefault(key_of(KIND_EDGE, addr), f"node {addr} (cycle {cycle})")
        if walking and int(core.ix_valid.value) and int(core.ix_op.value) == IX_INSERT:
            ns, par, pg = (int(core.ix_ns.value), int(core.ix_parent.value),
                           int(core.ix_page.value))
            key = key_of(KIND_CHILD, child_operand(ns, par, pg, self._node_w, self._page_bits))
            self._owed.setdefault(key, f"index entry (ns {ns}, parent {par}) "
                                       f"(cycle {cycle})")
        if int(core.sig_bc.value):
            key = int(core.bc_key_q[0].value)
            what = self._owed.pop(key, None)
            if what is not None:
                self.covered["node" if what.startswith("node") else "index"] += 1
        if int(core.wk_done.value) and self._owed:
            log_error(self.errors, f"cycle {cycle}: a walk was handed over with writes "
                                   f"beside it never broadcast: {sorted(self._owed.values())}",
                      _log)
            self._owed.clear()
        if int(core.replay_go.value) or not walking:
            # The walk runs again (or stopped): its new reads all follow these writes.
            self._owed.clear()

    def summary(self) -> dict[str, int]:
        return {"node writes broadcast": self.covered["node"],
                "index inserts broadcast": self.covered["index"],
                "unjudged node writes beside a walk": self.unjudged}
