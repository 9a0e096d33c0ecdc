# SPDX-License-Identifier: Apache-2.0
"""The overlapped core's walk adds, checked against the reads the walk issues.

Conflict detection on the Overlap = 1 core is a chain: every key a walk reads is added
to its signature (this check), every key a commit changes beside it is broadcast
(write_check.py), and every broadcast of an added key hits and the walk runs again
(sig_check.py). This is the first link, taken from the memories' inputs rather than
from the core's add requests:

* a child-index LOOKUP the walker sends (the lookup FSM going from PF_PAGE to PF_LWAIT
  issues it) must find the key of (namespace, parent, page) the index is given already
  added to the walk's signature;
* a node word read the walker issues (nr_go: the child it found) must find that node's
  key added.

The add may come in the cycle the read is on the memory's port (for a lookup, the one
after the walker issues it, when ix_valid holds its key), not later: that is what this
check samples (radix_read_sig's ordering contract). A walk whose reads are not all in
its signature would miss a conflict only when a commit beside it wrote that very key,
which random traffic may never do."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from models.radix_signature import KIND_CHILD, KIND_EDGE, ReadSignature, child_operand, key_of
from uvm_env.common.error_log import log_error
from uvm_env.radix.core_states import PF_LWAIT, PF_PAGE

#: radix_pkg's child-index opcode IX_LOOKUP.
IX_LOOKUP = 0
_log = logging.getLogger("radix.read_check")


@dataclass
class WalkReadCheck:
    """Stepped once per clock cycle (registers settled) by the ConflictChain, after the
    SignatureCheck that owns ``sig`` has applied this cycle's clear and add."""

    core: Any
    sig: ReadSignature
    lookups: int = 0
    node_reads: int = 0
    errors: list[str] = field(default_factory=list)
    _pf_before: int = -1

    def __post_init__(self) -> None:
        self._node_w, self._page_bits = len(self.core.ix_parent), len(self.core.ix_page)

    def _need(self, cycle: int, key: int, what: str) -> None:
        if not self.sig.holds(key):
            log_error(self.errors, f"cycle {cycle}: the walk read {what} without adding "
                                   f"its key {key:#010x}", _log)

    def reset(self) -> None:
        self._pf_before = -1

    def step(self, cycle: int, adv: bool, synced: bool) -> None:
        """``adv``: the core advanced this cycle (no L1 miss froze it). ``synced``: the
        signature model has seen a clear, so it is the core's."""
        core = self.core
        if not adv:
            return
        pf = int(core.pf_state_q.value)
        issued = self._pf_before == PF_PAGE and pf == PF_LWAIT
        self._pf_before = pf
        if not synced or int(core.ws_q.value) == 0:
            return
        if issued:
            if not int(core.ix_valid.value) or int(core.ix_op.value) != IX_LOOKUP:
                log_error(self.errors, f"cycle {cycle}: the walker's lookup is not on "
                                       "the index port", _log)
                return
            ns, par, pg = (int(core.ix_ns.value), int(core.ix_parent.value),
                           int(core.ix_page.value))
            self.lookups += 1
            self._need(cycle, key_of(KIND_CHILD, child_operand(ns, par, pg, self._node_w,
                                                        self._page_bits)),
                       f"index entry (ns {ns}, parent {par})")
        if int(core.nr_go.value):
            node = int(core.nr_child_q.value)
            self.node_reads += 1
            self._need(cycle, key_of(KIND_EDGE, node), f"node {node}")

    def summary(self) -> dict[str, int]:
        return {"walker lookups": self.lookups, "walker node reads": self.node_reads}
