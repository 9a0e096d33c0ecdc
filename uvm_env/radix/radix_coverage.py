# SPDX-License-Identifier: Apache-2.0
"""RadixCoverage: operation x outcome, operation x every status it can have, operation x
the tree state it met (empty, node-full, slot-full, hash-full, locked path, partial),
tree state x response-sink stall, key-length classes, split position, walk depth x how
the walk ended, how a split tail and a new leaf in one bucket are placed, eviction
cascade, lock depth, why a handle was refused, commands in flight x response-FIFO level,
commands the intake took in while another ran."""

from __future__ import annotations

from cocotb_coverage.coverage import CoverCross, CoverPoint

from uvm_env.radix.protocol import OP_NAMES, ST_CAPACITY, ST_HANDLE, ST_NAMES
from uvm_env.radix.radix_item import RadixCmd
from uvm_env.radix.radix_predictor import RESERVED_SHIFT, SLOT_MASK, TREE_STATES

#: Every status each operation can answer (docs/radix-protocol.md, "Status codes"):
#: the bins of op_x_status. OVERFLOW is reached by radix_lock_overflow (make regress).
STATUSES_OF = {
    "MATCH": ("OK", "LENGTH", "NAMESPACE", "FRAMING", "CAPACITY"),
    "INSERT": ("OK", "LENGTH", "NAMESPACE", "KVCOUNT", "FRAMING", "CAPACITY"),
    "EVICT": ("OK", "FRAMING"),
    "LOCK": ("OK", "FRAMING", "HANDLE", "OVERFLOW"),
    "UNLOCK": ("OK", "FRAMING", "HANDLE", "UNDERFLOW"),
    "SIZES": ("OK", "FRAMING"),
    "RESET": ("OK", "FRAMING"),
    "bad": ("OPCODE",),
}
OP_STATUS_BINS = [(op, st) for op, sts in STATUSES_OF.items() for st in sts]
#: Operations crossed with the tree state; RESET has its own point (reset_from).
TREE_OPS = ["MATCH", "INSERT", "EVICT", "LOCK", "UNLOCK", "SIZES"]
KEY_LENGTHS = ["1", "odd", "even", "page-1", "MaxLen"]
SHARED_BUCKET = ["2 ways", "way + stash", "2 stash", "refused"]
#: Why a LOCK or UNLOCK was refused HANDLE: each is a check of its own in the RTL.
HANDLE_REFUSALS = ["reserved bits", "slot out of range", "stale generation"]


def handle_refusal(handle: int, node_cap: int) -> str:
    """The first of the handle checks that refuses handle (bits 31:28, then the slot's
    range, then slot and generation against the node table)."""
    if handle >> RESERVED_SHIFT:
        return "reserved bits"
    return "slot out of range" if handle & SLOT_MASK >= node_cap else "stale generation"


def _bucket(n: int, edges: tuple[int, ...]) -> str:
    for e in edges:
        if n <= e:
            return f"<={e}"
    return f">{edges[-1]}"


class RadixCoverage:
    """Cover points are named `<prefix>.*`; BaseTest reports their holes."""

    def __init__(self, prefix: str) -> None:
        p = prefix
        ops = list(OP_NAMES.values())
        outcomes = ["OK", "error"]

        @CoverPoint(f"{p}.op", xf=lambda c, e: OP_NAMES.get(c.op, "bad"), bins=ops + ["bad"])
        @CoverPoint(f"{p}.outcome", xf=lambda c, e: "OK" if e.rsp.status == 0 else "error",
                    bins=outcomes)
        @CoverCross(f"{p}.op_x_outcome", items=[f"{p}.op", f"{p}.outcome"],
                    ign_bins=[("SIZES", "error"), ("RESET", "error"), ("bad", "OK")])
        @CoverPoint(f"{p}.error", xf=lambda c, e: ST_NAMES[e.rsp.status],
                    bins=[s for s in ST_NAMES.values() if s not in ("OK", "OVERFLOW")])
        @CoverPoint(f"{p}.op_x_status",
                    xf=lambda c, e: (OP_NAMES.get(c.op, "bad"), ST_NAMES[e.rsp.status]),
                    bins=OP_STATUS_BINS)
        def sample(cmd: RadixCmd, exp: object) -> None:
            pass

        @CoverPoint(f"{p}.tree_op", xf=lambda c: OP_NAMES.get(c.op, "bad"), bins=TREE_OPS)
        @CoverPoint(f"{p}.tree_state", xf=lambda c: c.tree_state, bins=list(TREE_STATES))
        @CoverCross(f"{p}.op_x_tree_state", items=[f"{p}.tree_op", f"{p}.tree_state"])
        @CoverPoint(f"{p}.sink", xf=lambda c: "stalled" if c.sink_stalled else "flowing",
                    bins=["stalled", "flowing"])
        @CoverCross(f"{p}.tree_state_x_sink", items=[f"{p}.tree_state", f"{p}.sink"])
        def sample_tree(cmd: RadixCmd) -> None:
            pass

        @CoverPoint(f"{p}.reset_from", xf=lambda c: c.tree_state, bins=list(TREE_STATES))
        def sample_reset(cmd: RadixCmd) -> None:
            pass

        # MATCH/INSERT key lengths: one token, odd, even, one short of a page multiple
        # (PageSize > 1 only), and MaxLen.
        @CoverPoint(f"{p}.key_len", xf=lambda n, page, max_len: (
            "MaxLen" if n == max_len else "1" if n == 1
            else "page-1" if page > 1 and n % page == page - 1
            else "odd" if n % 2 else "even"), bins=KEY_LENGTHS)
        def sample_key(n: int, page: int, max_len: int) -> None:
            pass

        @CoverPoint(f"{p}.split_at", xf=lambda off: _bucket(off, (1, 4, 16, 64)),
                    bins=["<=1", "<=4", "<=16", "<=64", ">64"])
        def sample_split(off: int) -> None:
            pass

        # An INSERT whose split tail and new leaf hash to one bucket takes two entries
        # there at once: the free ways, the stash, or a refusal (docs/radix-protocol.md).
        @CoverPoint(f"{p}.shared_bucket", xf=lambda room: room, bins=SHARED_BUCKET)
        def sample_shared(room: str) -> None:
            pass

        @CoverPoint(f"{p}.evict_cascade", xf=lambda n: _bucket(n, (0, 1, 3)),
                    bins=["<=0", "<=1", "<=3", ">3"])
        def sample_evict(n: int) -> None:
            pass

        @CoverPoint(f"{p}.lock_depth", xf=lambda d: _bucket(d, (0, 1, 3)),
                    bins=["<=0", "<=1", "<=3", ">3"])
        def sample_lock(d: int) -> None:
            pass

        @CoverPoint(f"{p}.in_flight", xf=lambda c: _bucket(c.in_flight_at_send, (0, 1, 3, 7)),
                    bins=["<=0", "<=1", "<=3", "<=7"])
        @CoverPoint(f"{p}.rsp_level", xf=lambda c: _bucket(c.rsp_level_at_send, (0, 2, 8)),
                    bins=["<=0", "<=2", "<=8", ">8"])
        @CoverCross(f"{p}.in_flight_x_rsp_level", items=[f"{p}.in_flight", f"{p}.rsp_level"],
                    ign_bins=[("<=0", "<=2"), ("<=0", "<=8"), ("<=0", ">8")])
        def sample_pipe(cmd: RadixCmd) -> None:
            pass

        # The intake: commands taken in while an earlier one ran (INTAKE_AHEAD), per
        # stretch between two CSR checkpoints.
        @CoverPoint(f"{p}.intake_ahead", xf=lambda n: "none" if n == 0 else "some",
                    bins=["none", "some"])
        def sample_intake(n: int) -> None:
            pass

        # IN_FLIGHT_HIST: each occupancy bin the window of 8 reaches (1, 2, 3-4, 5-8)
        # held commands for some cycles; sampled once per bin and CSR checkpoint.
        @CoverPoint(f"{p}.in_flight_bin", xf=lambda b: b, bins=[0, 1, 2, 3])
        def sample_in_flight_bin(b: int) -> None:
            pass

        # The walker and the streamer: how deep a MATCH went and how its walk ended
        # (the streamer found a mismatch, the walker found no child, or the key ran out).
        @CoverPoint(f"{p}.walk_depth", xf=lambda d, e: _bucket(d, (0, 1, 3, 15)),
                    bins=["<=0", "<=1", "<=3", "<=15", ">15"])
        @CoverPoint(f"{p}.walk_end", xf=lambda d, e: e,
                    bins=["key ends", "no child", "inside an edge"])
        @CoverCross(f"{p}.walk_depth_x_end", items=[f"{p}.walk_depth", f"{p}.walk_end"],
                    # Depth 0 ends only at a missing child: an empty key is refused
                    # (LENGTH), and a key shorter than a page never starts a walk.
                    ign_bins=[("<=0", "inside an edge"), ("<=0", "key ends")])
        def sample_walk(depth: int, end: str) -> None:
            pass

        @CoverPoint(f"{p}.handle_refused", xf=lambda why: why, bins=HANDLE_REFUSALS)
        def sample_handle(why: str) -> None:
            pass

        self._handle = sample_handle
        self._sample, self._split, self._evict, self._lock = (
            sample, sample_split, sample_evict, sample_lock)
        self._walk = sample_walk
        self._shared = sample_shared
        self._pipe = sample_pipe
        self.sample_intake = sample_intake
        self.sample_in_flight_bin = sample_in_flight_bin
        self._tree, self._reset, self._key = sample_tree, sample_reset, sample_key
        # set by the scoreboard from the DUT
        self.page_size, self.max_len, self.node_cap = 1, 0, 0

    def sample(self, cmd: RadixCmd, exp: object) -> None:
        from uvm_env.radix.protocol import (
            OP_EVICT,
            OP_INSERT,
            OP_LOCK,
            OP_MATCH,
            OP_RESET,
            OP_UNLOCK,
        )
        self._sample(cmd, exp)
        if hasattr(cmd, "in_flight_at_send"):
            self._pipe(cmd)
        if hasattr(cmd, "tree_state") and hasattr(cmd, "sink_stalled"):
            if cmd.op == OP_RESET:
                self._reset(cmd)
            elif OP_NAMES.get(cmd.op) in TREE_OPS:
                self._tree(cmd)
        if cmd.op in (OP_MATCH, OP_INSERT) and exp.rsp.status == 0:
            self._key(len(cmd.tokens), self.page_size, self.max_len)
        room = getattr(exp, "shared_bucket", None)
        # Sampled only when the status is the one the index alone decides: an INSERT
        # refused for want of lines or slots says nothing about its two entries.
        if room is not None and exp.rsp.status == (ST_CAPACITY if room == "refused" else 0):
            self._shared(room)
        if cmd.op in (OP_LOCK, OP_UNLOCK) and exp.rsp.status == ST_HANDLE:
            self._handle(handle_refusal(cmd.arg, self.node_cap))
        if exp.rsp.status != 0:
            return
        if exp.split_at is not None:
            self._split(exp.split_at)
        if cmd.op == OP_MATCH:
            self._walk(exp.walk_depth, exp.walk_end)
        if cmd.op == OP_EVICT:
            self._evict(exp.evicted_nodes)
        if cmd.op in (OP_LOCK, OP_UNLOCK):
            self._lock(exp.lock_depth)
