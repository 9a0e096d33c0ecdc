# SPDX-License-Identifier: Apache-2.0
"""The walk/commit overlap's counters in radix_core (Overlap = 1), read by hierarchy
and through their CSRs: the tests that run the overlapped core fail unless the overlap
(and, where the stimulus is built to collide, a replay) actually happened."""

from __future__ import annotations

from typing import Any

from cocotb_coverage.coverage import CoverCross, CoverPoint

from uvm_env.radix.conflict_chain import ConflictChain
from uvm_env.radix.core_states import S_DECIDE, S_L_START, WALKING, in_state
from uvm_env.radix.protocol import (
    OP_EVICT,
    OP_INSERT,
    OP_LOCK,
    OP_MATCH,
    OP_NAMES,
    OP_UNLOCK,
    ST_CAPACITY,
    ST_NAMES,
    ST_OK,
)

# counter name -> radix_core register
COUNTERS = {
    "walks overlapped": "ovl_walks_q",
    "replays": "replays_q",
    "hits by a split": "hits_split_q",
    "hits by a new leaf": "hits_leaf_q",
    "walk waited for the commit (cycles)": "wk_wait_q",
    "lookup waited for the commit (cycles)": "ix_wait_q",
    "walks stopped by a fault": "ovl_killed_q",
    "lone walks stopped by a fault": "wk_killed_q",
    "commands parked": "parked_q",
}
# counter name -> its CSR (the fault and park counts have none). "walks stopped by a fault" counts
# only a walk beside the command the fault cut short; a walk running alone (the
# sequencer idle or sending a trailer) counts as a lone walk.
CSRS = {
    "walks overlapped": "OVL_WALKS",
    "replays": "REPLAYS",
    "hits by a split": "CONFLICTS_SPLIT",
    "hits by a new leaf": "CONFLICTS_LEAF",
    "walk waited for the commit (cycles)": "WALK_WAIT_CYCLES",
    "lookup waited for the commit (cycles)": "LOOKUP_WAIT_CYCLES",
}


def _hits(counts: dict[str, int]) -> int:
    return counts["hits by a split"] + counts["hits by a new leaf"]


def overlap_counters(dut: Any) -> dict[str, int]:
    """Every overlap counter of the core under ``dut`` (a radix_top)."""
    core = dut.u_core
    if int(dut.Overlap.value) != 1:
        raise AssertionError("this test needs a radix_top build with Overlap = 1")
    return {name: int(getattr(core, sig).value) for name, sig in COUNTERS.items()}


def is_overlapped(dut: Any) -> bool:
    """The radix_top under ``dut`` is built with Overlap = 1."""
    return hasattr(dut, "Overlap") and int(dut.Overlap.value) == 1


async def read_overlap(test: Any, log: bool = True) -> dict[str, int]:
    """The counters, kept in the test's figures (and logged with ``log``); the CSRs
    must read them (called with nothing in flight, so neither moves)."""
    counts = overlap_counters(test.dut)
    if log:
        test.logger.info("overlap: %s", counts)
    sb = test.env.scoreboard
    csrs = {name: await test.env.read_csr(reg) for name, reg in CSRS.items()}
    sb.compare("overlap CSRs", {name: counts[name] for name in CSRS}, csrs)
    sb.check("CSR OVERLAP reads 1", await test.env.read_csr("OVERLAP") == 1)
    test.figures["overlap"] = counts
    return counts


async def check_overlap(test: Any, need_replay: bool,
                        cov: OverlapCoverage | None = None,
                        need_lock_split: bool = False) -> dict[str, int]:
    """read_overlap, and fail unless walks overlapped commits (and, with
    ``need_replay``, a broadcast hit a walk and it ran again) and ``cov``'s monitor saw
    every hit the core counted (and, with ``need_lock_split``, a walk beside a LOCK
    decided a split of a node that LOCK had just locked)."""
    counts = overlap_counters(test.dut)
    if test.figures.get("overlap") == counts:
        # The base test's last checkpoint has just compared these very counts with the
        # CSRs; reading them again would only repeat that.
        test.logger.info("overlap: %s", counts)
    else:
        counts = await read_overlap(test)
    sb = test.env.scoreboard
    sb.check("a walk ran beside a commit", counts["walks overlapped"] > 0,
             "no MATCH or INSERT was dispatched while another committed")
    if need_replay:
        hits = _hits(counts)
        sb.check("a commit's broadcast hit a walk, which ran again",
                 counts["replays"] > 0 and hits > 0, f"counters {counts}")
    if cov is not None:
        cov.chain.observers.remove(cov.observe)
        test.logger.info("refusals answered while a walk ran: %s", cov.refused)
        test.logger.info("decisions of walks beside a LOCK or UNLOCK: %s", cov.beside_lock)
        # The links' errors fail every overlapped test (RadixBaseTest.check_phase);
        # these tests must also have exercised each link.
        chain = cov.chain
        test.logger.info("conflict detection checked: %s", chain.summary())
        test.figures["conflict chain"] = chain.summary()
        sb.check("the read-signature check saw broadcasts answered", chain.sig.asked > 0,
                 f"{chain.summary()}")
        sb.check("the read check saw the walker's lookups and node reads",
                 chain.reads.lookups > 0 and chain.reads.node_reads > 0, f"{chain.summary()}")
        sb.check("the write check saw a changed node broadcast beside a walk",
                 chain.writes.covered["node"] > 0, f"{chain.summary()}")
        if need_lock_split:
            # The decision must read the cut node's lock count again: the walk's copy
            # predates the LOCK it ran beside.
            sb.check("a walk beside a LOCK split a node that LOCK had just locked",
                     cov.beside_lock.get(BESIDE_LOCK[0], 0) > 0, f"{cov.beside_lock}")
        # The core's counters run from reset; the monitor's from start_coverage.
        sb.check("the coverage monitor saw every hit the core counted",
                 cov.hits == _hits(counts) - cov.hits_before,
                 f"monitor {cov.hits} (core had {cov.hits_before} before), counters {counts}")
        sb.check("the coverage monitor saw every overlapped walk the core counted",
                 cov.walks == counts["walks overlapped"] - cov.walks_before,
                 f"monitor {cov.walks} (core had {cov.walks_before} before), "
                 f"counters {counts}")
        sb.check("every walk was dispatched beside a MATCH, INSERT, LOCK or UNLOCK and "
                 "was itself a MATCH or INSERT", not cov.odd,
                 f"(sequencer opcode, walk opcode) pairs: {cov.odd[:8]}")
        if int(test.dut.L2.value):
            # The L2 build's point: a miss freezes the core mid-overlap, and the walk and
            # the commit must both resume exactly where they were.
            test.logger.info("frozen cycles with a walk beside a commit: %d",
                             cov.frozen_overlapped)
            sb.check("an L1 miss froze the core while a walk ran beside a commit",
                     cov.frozen_overlapped > 0, "no frozen cycle met an overlapped walk")
        sb.check("every hit and every refusal beside a walk had opcodes and an occupancy "
                 "the design allows", not cov.odd_hits, "; ".join(cov.odd_hits[:4]))
    return counts


#: What wrote the key whose broadcast hit a walk: a split by a MATCH or an INSERT, or an
#: INSERT's new leaf (a MATCH never adds a leaf).
WRITERS = ("split by MATCH", "split by INSERT", "new leaf")
WALK_OPS = ("MATCH", "INSERT")
WALK_OP_NAMES = {OP_MATCH: "MATCH", OP_INSERT: "INSERT"}
#: Commands accepted and not yet answered when the hit was taken (radix_occupancy's count):
#: the committing command and the walking one, and maybe more: one in the descriptor or
#: the intake, and a parked one ahead of it.
OCCUPANCY = ("2", "3+")
#: What the sequencer runs when a walk is dispatched beside it: a MATCH or INSERT past
#: its hand-over, or a LOCK or UNLOCK (which writes nothing a walk reads).
BESIDE = {OP_MATCH: "MATCH", OP_INSERT: "INSERT", OP_LOCK: "LOCK", OP_UNLOCK: "UNLOCK"}
#: What parks (waits in the parked slot while the intake loads the next command): a
#: LOCK, UNLOCK or EVICT, or a command the intake refused (SIZES and RESET park too).
PARKED = ("LOCK", "UNLOCK", "EVICT", "refused")
#: The hand-over (S_DECIDE) of a walk dispatched beside a LOCK or UNLOCK: did its
#: decision split a node whose lock count that command had just written? The decision
#: reads the cut node's word again for exactly this case (the walk's copy of the lock
#: count is stale), so "split a node it locked" is the bin that matters.
BESIDE_LOCK = ("split a node it locked", "split a node it unlocked", "split another node",
               "no split")


def _parked_kind(op: int, status: int) -> str | None:
    if status != ST_OK:
        return "refused"
    return {OP_LOCK: "LOCK", OP_UNLOCK: "UNLOCK", OP_EVICT: "EVICT"}.get(op)




def _occupancy(n: int) -> str:
    return "2" if n == 2 else "3+"


def _pair_cross(prefix: str, first: str, first_bins: list[str], walk: str,
                cross: str) -> Any:
    """A sampler f(first, walk_op) for a point over first_bins, a point over the walking
    opcode (WALK_OPS) and their cross, named under prefix."""

    @CoverPoint(f"{prefix}.{first}", xf=lambda a, op: a, bins=first_bins)
    @CoverPoint(f"{prefix}.{walk}", xf=lambda a, op: op, bins=list(WALK_OPS))
    @CoverCross(f"{prefix}.{cross}", items=[f"{prefix}.{first}", f"{prefix}.{walk}"])
    def sample(a: str, op: str) -> None:
        pass

    return sample


class OverlapCoverage:
    """Samples every broadcast that hit a walk in the DUT (radix_core.sig_hit): the
    writer's kind crossed with the walking command's opcode and the commands in flight.
    The conflicts the core detected, not the races the stimulus offered
    (race_coverage.py measures those). Also every walk dispatched beside a command, and
    every capacity refusal answered while a walk ran."""

    def __init__(self, dut: Any, chain: ConflictChain, prefix: str = "radix.overlap") -> None:
        self.dut = dut
        self.core, self.occ = dut.u_core, dut.u_occupancy
        # the base test's per-cycle checks of conflict detection; it also calls
        # observe() every cycle, on the same edge
        self.chain = chain
        self.hits = 0
        self.walks = 0          # walks dispatched beside a command (odispatch)
        # node ids whose lock count the sequencer's LOCK or UNLOCK has written so far
        self._locked: set[int] = set()
        # the walk in flight was dispatched beside that LOCK (OP_LOCK) or UNLOCK: its
        # opcode and the node set, which keeps growing until the LOCK is done
        self._beside_lock: tuple[int, set[int]] | None = None
        # decisions of walks dispatched beside a LOCK or UNLOCK: BESIDE_LOCK bin -> count
        self.beside_lock: dict[str, int] = {}
        # frozen cycles (an L1 miss stalls the core) while a walk ran beside a commit
        self.frozen_overlapped = 0
        self.walks_before = 0   # the core's counts when sampling began
        self.hits_before = 0
        # (sequencer opcode, walk opcode) of dispatches outside the design's rule; the
        # RTL asserts the same, this catches it with assertions compiled out
        self.odd: list[tuple[int, int]] = []
        # hits and refusals whose opcodes or occupancy the design rules out
        self.odd_hits: list[str] = []
        # refusals answered while a walk ran: "STATUS OPCODE" -> count
        self.refused: dict[str, int] = {}

        @CoverPoint(f"{prefix}.writer", xf=lambda w, op, occ: w, bins=list(WRITERS))
        @CoverPoint(f"{prefix}.walk_op", xf=lambda w, op, occ: op, bins=list(WALK_OPS))
        @CoverPoint(f"{prefix}.occupancy", xf=lambda w, op, occ: occ, bins=list(OCCUPANCY))
        @CoverCross(f"{prefix}.conflict", items=[f"{prefix}.writer", f"{prefix}.walk_op"])
        @CoverCross(f"{prefix}.conflict_x_occupancy",
                    items=[f"{prefix}.writer", f"{prefix}.occupancy"])
        def sample(writer: str, op: str, occ: str) -> None:
            pass

        self._sample = sample

        @CoverPoint(f"{prefix}.parked", xf=lambda kind: kind, bins=list(PARKED))
        def sample_park(kind: str) -> None:
            pass

        self._sample_park = sample_park

        @CoverPoint(f"{prefix}.decision_beside_lock", xf=lambda kind: kind,
                    bins=list(BESIDE_LOCK))
        def sample_beside_lock(kind: str) -> None:
            pass

        self._sample_beside_lock = sample_beside_lock
        self._sample_walk = _pair_cross(prefix, "beside", list(BESIDE.values()),
                                        "walk_op_dispatched", "beside_x_walk_op")
        # A MATCH (whose split needs a node) or an INSERT refused for capacity while the
        # next MATCH or INSERT walks beside it.
        self._sample_refusal = _pair_cross(prefix, "capacity_refused", list(WALK_OPS),
                                           "walk_op_beside_refusal",
                                           "capacity_refusal_x_walk_op")

    def _track_locks(self, core: Any) -> None:
        """Collects the nodes a LOCK or UNLOCK writes, and classifies the decision of a
        walk dispatched beside one (called every cycle, registers settled)."""
        if not int(core.adv.value):
            return
        state = int(core.state_q.value)
        if in_state(state, S_L_START):
            self._locked = set()   # a new LOCK or UNLOCK (a walk beside the last keeps its set)
        elif int(core.nd_we.value):
            # op_q is unknown before the first command (the init sweep writes nodes) on
            # simulators that keep X
            op = core.op_q.value
            if op.is_resolvable and int(op) in (OP_LOCK, OP_UNLOCK):
                self._locked.add(int(core.nd_waddr.value))
        if not in_state(state, S_DECIDE) or self._beside_lock is None:
            return
        lock_op, nodes = self._beside_lock
        self._beside_lock = None
        if int(core.split_q.value) == 0:
            kind = "no split"
        elif int(core.cand_q.value) in nodes:
            kind = "split a node it locked" if lock_op == OP_LOCK else "split a node it unlocked"
        else:
            kind = "split another node"
        self.beside_lock[kind] = self.beside_lock.get(kind, 0) + 1
        self._sample_beside_lock(kind)

    def observe(self) -> None:
        """Every cycle out of reset, between edges (registers settled), called by the
        ConflictChain until check_overlap removes it."""
        core, occ = self.core, self.occ
        if (not int(core.adv.value) and int(core.cm_busy_q.value)
                and int(core.ws_q.value) in WALKING):
            self.frozen_overlapped += 1
        self._track_locks(core)
        if int(core.park.value):
            kind = _parked_kind(int(core.d_op_q.value), int(core.d_status_q.value))
            if kind is not None:
                self._sample_park(kind)
        if int(core.odispatch.value):
            self.walks += 1
            beside, walk = int(core.op_q.value), int(core.hd_op.value)
            self._beside_lock = ((beside, self._locked)
                                 if beside in (OP_LOCK, OP_UNLOCK) else None)
            if beside in BESIDE and walk in WALK_OP_NAMES:
                self._sample_walk(BESIDE[beside], WALK_OP_NAMES[walk])
            else:
                self.odd.append((beside, walk))
        if int(core.error_o.value) and int(core.ws_q.value) != 0:
            # A refusal answered while the next command walks: its walk must see the
            # tree as the refused command left it (unchanged), which the scoreboard
            # checks; this records that the case happened.
            status, refused, walk = (int(core.status_q.value), int(core.op_q.value),
                                     int(core.wk_op_q.value))
            key = f"{ST_NAMES.get(status, status)} {OP_NAMES.get(refused, refused)}"
            self.refused[key] = self.refused.get(key, 0) + 1
            if status == ST_CAPACITY and refused in (OP_MATCH, OP_INSERT):
                if walk in WALK_OP_NAMES:
                    self._sample_refusal(WALK_OP_NAMES[refused], WALK_OP_NAMES[walk])
                else:
                    self.odd_hits.append(f"refusal beside walking opcode {walk}")
        if not int(core.sig_hit.value):
            return
        self.hits += 1
        commit_op, walk_op = int(core.op_q.value), int(core.wk_op_q.value)
        in_flight = int(occ.count_q.value)
        split = bool(int(core.bc_ps_q.value) >> 1 & 1)
        # Only a MATCH or INSERT walks, only they split, only an INSERT adds a leaf,
        # and a hit needs the writer and the walker in flight: anything else is
        # recorded, not folded into a legal bin.
        if (walk_op not in WALK_OP_NAMES or in_flight < 2
                or commit_op not in ((OP_MATCH, OP_INSERT) if split else (OP_INSERT,))):
            self.odd_hits.append(f"hit: commit opcode {commit_op}, split {split}, "
                                 f"walk opcode {walk_op}, {in_flight} in flight")
            return
        writer = f"split by {WALK_OP_NAMES[commit_op]}" if split else "new leaf"
        self._sample(writer, WALK_OP_NAMES[walk_op], _occupancy(in_flight))


def start_coverage(test: Any) -> OverlapCoverage:
    """An OverlapCoverage sampling from now on (check_overlap stops it)."""
    cov = OverlapCoverage(test.dut, test.chain)
    counts = overlap_counters(test.dut)
    cov.walks_before, cov.hits_before = counts["walks overlapped"], _hits(counts)
    test.chain.observers.append(cov.observe)
    return cov
