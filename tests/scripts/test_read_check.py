# SPDX-License-Identifier: Apache-2.0
"""uvm_env.radix.read_check on a scripted core: every lookup and node read the walker
issues must find its key already in the walk's signature."""

from __future__ import annotations

from types import SimpleNamespace

from models.radix_signature import KIND_CHILD, KIND_EDGE, ReadSignature, child_operand, key_of
from uvm_env.radix.core_states import PF_LWAIT, PF_PAGE
from uvm_env.radix.read_check import IX_LOOKUP, WalkReadCheck

NODE_W, PAGE_BITS = 6, 32
WIDTHS = {"pf_state_q": 3, "ws_q": 3, "ix_valid": 1, "ix_op": 2, "ix_ns": 8,
          "ix_parent": NODE_W, "ix_page": PAGE_BITS, "nr_go": 1, "nr_child_q": NODE_W}
LOOKUP = {"ix_valid": 1, "ix_op": IX_LOOKUP, "ix_ns": 1, "ix_parent": 9, "ix_page": 77}
ENTRY = key_of(KIND_CHILD, child_operand(1, 9, 77, NODE_W, PAGE_BITS))


class _Sig:
    def __init__(self, width: int) -> None:
        self.value, self._w = 0, width

    def __len__(self) -> int:
        return self._w


def _run(cycles: list[dict[str, int]], added: tuple[int, ...] = (),
         synced: bool = True) -> WalkReadCheck:
    """Steps once per cycle (others 0; adv 1, a walk in flight: ws_q 2) with ``added``
    in the walk's signature."""
    core = SimpleNamespace(**{n: _Sig(w) for n, w in WIDTHS.items()})
    sig = ReadSignature()
    for key in added:
        sig.add(key)
    check = WalkReadCheck(core, sig)
    for cycle, values in enumerate(cycles, 1):
        for name in WIDTHS:
            getattr(core, name).value = values.get(name, {"ws_q": 2}.get(name, 0))
        check.step(cycle, bool(values.get("adv", 1)), synced)
    return check


ISSUE = [{"pf_state_q": PF_PAGE}, {"pf_state_q": PF_LWAIT, **LOOKUP}]


def test_lookup_with_its_key_added_passes() -> None:
    check = _run(ISSUE, added=(ENTRY,))
    assert not check.errors and check.lookups == 1


def test_lookup_without_its_key_fails() -> None:
    other = key_of(KIND_CHILD, child_operand(2, 9, 77, NODE_W, PAGE_BITS))
    check = _run(ISSUE, added=(other,))
    assert len(check.errors) == 1 and "parent 9" in check.errors[0]


def test_only_the_walkers_issue_counts() -> None:
    # The index port carries a LOOKUP (the sequencer's probe) with no PF_PAGE before it,
    # and a frozen cycle between PF_PAGE and PF_LWAIT does not break the issue.
    assert not _run([{"pf_state_q": PF_LWAIT, **LOOKUP}]).errors
    frozen = [ISSUE[0], {"pf_state_q": PF_PAGE, "adv": 0}, ISSUE[1]]
    assert len(_run(frozen).errors) == 1


def test_issue_must_be_on_the_index_port() -> None:
    check = _run([{"pf_state_q": PF_PAGE}, {"pf_state_q": PF_LWAIT}], added=(ENTRY,))
    assert len(check.errors) == 1 and "not on the index port" in check.errors[0]


def test_node_read_needs_its_key() -> None:
    read = [{"nr_go": 1, "nr_child_q": 5}]
    assert not _run(read, added=(key_of(KIND_EDGE, 5),)).errors
    assert len(_run(read, added=(key_of(KIND_EDGE, 4),)).errors) == 1


def test_no_check_before_the_model_is_synced_or_with_no_walk() -> None:
    read = [{"nr_go": 1, "nr_child_q": 5}]
    assert not _run(read, synced=False).errors
    assert not _run([{"nr_go": 1, "nr_child_q": 5, "ws_q": 0}]).errors
