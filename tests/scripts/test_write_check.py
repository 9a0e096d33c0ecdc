# SPDX-License-Identifier: Apache-2.0
"""uvm_env.radix.write_check on a scripted core: a commit's write beside a walk that
changes what a walk reads must be broadcast after the write and before the walk's
hand-over; writes no walk reads, or with no walk in flight, owe nothing."""

from __future__ import annotations

from types import SimpleNamespace

from models.radix_signature import KIND_CHILD, KIND_EDGE, child_operand, key_of
from uvm_env.radix.write_check import IX_INSERT, BroadcastCoverCheck

NODE_W, PAGE_BITS = 6, 32
# valid, gen, ns, parent, head, off, len (what a walk reads), then lock and stamp
FIELDS = [("valid", 1), ("gen", 8), ("ns", 8), ("parent", NODE_W), ("head", 8), ("off", 4),
          ("len", 9), ("lock", 16), ("stamp", 64)]
VISIBLE_W = 1 + 8 + 8 + NODE_W + 8 + 4 + 9
WORD_W = VISIBLE_W + 16 + 64


class _Sig:
    def __init__(self, value: int = 0, width: int = 1) -> None:
        self.value, self._w = value, width

    def __len__(self) -> int:
        return self._w


SIGNALS = {"ws_q": 3, "nd_we": 1, "nd_waddr": NODE_W, "nd_wdata": WORD_W,
           "ix_valid": 1, "ix_op": 2, "ix_ns": 8, "ix_parent": NODE_W, "ix_page": PAGE_BITS,
           "sig_bc": 1, "wk_done": 1, "replay_go": 1}


def _run(cycles: list[dict[str, int]]) -> BroadcastCoverCheck:
    """Steps the check once per cycle with these values (others 0; adv 1, a walk in
    flight: ws_q 2)."""
    core = SimpleNamespace(**{n: _Sig(0, w) for n, w in SIGNALS.items()})
    core.bc_key_q = [_Sig(0, 32)]
    check = BroadcastCoverCheck(core, FIELDS, on_chip=False)
    for cycle, values in enumerate(cycles, 1):
        for name in SIGNALS:
            getattr(core, name).value = values.get(name, {"ws_q": 2}.get(name, 0))
        core.bc_key_q[0].value = values.get("bc_key", 0)
        check.step(cycle, bool(values.get("adv", 1)))
    return check


def _write(addr: int, word: int, **more: int) -> dict[str, int]:
    return {"nd_we": 1, "nd_waddr": addr, "nd_wdata": word, **more}


EDGE = 0b1 | 5 << (1 + 8 + 8 + NODE_W + 8 + 4)        # valid, len 5
CUT = 0b1 | 2 << (1 + 8 + 8 + NODE_W + 8 + 4)         # the same node, len 2
STAMPED = EDGE | 77 << (VISIBLE_W + 16)               # only the stamp differs
NODE3 = key_of(KIND_EDGE, 3)
# The shadow learns node 3's word from a write with no walk in flight (ws_q 0).
SEEN = [_write(3, EDGE, ws_q=0)]


def test_cut_edge_broadcast_before_hand_over_passes() -> None:
    check = _run(SEEN + [_write(3, CUT), {"sig_bc": 1, "bc_key": NODE3}, {"wk_done": 1}])
    assert not check.errors
    assert check.covered == {"node": 1, "index": 0} and check.unjudged == 0


def test_an_unknown_old_word_beside_a_walk_fails() -> None:
    # no shadow word and no RAM to read (the L2 build): the change cannot be judged
    check = _run([_write(3, CUT), {"sig_bc": 1, "bc_key": NODE3}, {"wk_done": 1}])
    assert check.unjudged == 1 and len(check.errors) == 1 and "unknown" in check.errors[0]


def test_cut_edge_never_broadcast_fails_at_hand_over() -> None:
    check = _run(SEEN + [_write(3, CUT), {"sig_bc": 1, "bc_key": key_of(KIND_EDGE, 4)},
                         {"wk_done": 1}])
    assert len(check.errors) == 1 and "node 3" in check.errors[0]


def test_broadcast_must_follow_the_write() -> None:
    check = _run(SEEN + [{"sig_bc": 1, "bc_key": NODE3}, _write(3, CUT), {"wk_done": 1}])
    assert len(check.errors) == 1


def test_writes_no_walk_reads_or_with_no_walk_owe_nothing() -> None:
    check = _run(SEEN + [_write(3, STAMPED), _write(3, CUT, ws_q=0), {"wk_done": 1}])
    assert not check.errors and check.covered == {"node": 0, "index": 0}


def test_frozen_cycles_are_not_steps() -> None:
    check = _run(SEEN + [_write(3, CUT, adv=0), {"wk_done": 1}])
    assert not check.errors


def test_index_insert_needs_its_folded_key() -> None:
    insert = {"ix_valid": 1, "ix_op": IX_INSERT, "ix_ns": 1, "ix_parent": 9,
              "ix_page": 0xDEADBEEF}
    right = key_of(KIND_CHILD, child_operand(1, 9, 0xDEADBEEF, NODE_W, PAGE_BITS))
    ok = _run([insert, {"sig_bc": 1, "bc_key": right}, {"wk_done": 1}])
    assert not ok.errors and ok.covered["index"] == 1
    wrong = key_of(KIND_CHILD, child_operand(1, 8, 0xDEADBEEF, NODE_W, PAGE_BITS))
    bad = _run([insert, {"sig_bc": 1, "bc_key": wrong}, {"wk_done": 1}])
    assert len(bad.errors) == 1 and "parent 9" in bad.errors[0]


def test_a_replay_or_a_stopped_walk_drops_what_it_owed() -> None:
    assert not _run(SEEN + [_write(3, CUT), {"replay_go": 1}, {"wk_done": 1}]).errors
    assert not _run(SEEN + [_write(3, CUT), {"ws_q": 0}, {"wk_done": 1}]).errors


def test_child_operand_folds_30_bit_chunks() -> None:
    # {page, parent, ns} is 46 bits here: bits 0-29 XOR bits 30-45
    v = 0x12 | 0x2A << 8 | 0xDEADBEEF << 14
    assert child_operand(0x12, 0x2A, 0xDEADBEEF, NODE_W, PAGE_BITS) == \
        (v & (2**30 - 1)) ^ (v >> 30)
