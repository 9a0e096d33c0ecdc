# SPDX-License-Identifier: Apache-2.0
"""RadixPredictor: what the controller must answer, from models.radix_cache.

The golden model has no capacities, namespaces limit or wire format; this
class adds exactly those hardware rules (docs/radix-protocol.md) around it
and otherwise defers to the model. A refused command changes nothing, so
the model is not called for it.
"""

from __future__ import annotations

from dataclasses import dataclass

from models.radix_cache import Node, RadixCache, WalkPlan
from models.radix_hw import HwGeometry, RadixHw
from uvm_env.radix.capacity_oracle import oracle_fits
from uvm_env.radix.protocol import (
    M32,
    OP_EVICT,
    OP_INSERT,
    OP_LOCK,
    OP_MATCH,
    OP_RESET,
    OP_SIZES,
    OP_UNLOCK,
    ST_CAPACITY,
    ST_FRAMING,
    ST_HANDLE,
    ST_KVCOUNT,
    ST_LENGTH,
    ST_MEMORY,
    ST_NAMESPACE,
    ST_OK,
    ST_OPCODE,
    ST_OVERFLOW,
    ST_UNDERFLOW,
    RadixRsp,
)
from uvm_env.radix.radix_item import RadixCmd

LOCK_MAX = 0xFFFF
# handle = {4'h0, generation[7:0], slot[19:0]} (docs/radix-protocol.md, "Handles")
SLOT_MASK = 0xF_FFFF
RESERVED_SHIFT = 28          # bits 31:28 of a handle must be zero
GEN_PERIOD = 256
#: Tree states a command can meet, in the order tree_state() tests them.
TREE_STATES = ("empty", "node-full", "slot-full", "hash-full", "locked path", "partial")


@dataclass(frozen=True)
class RadixParams(HwGeometry):
    """The DUT's parameters: the storage geometry the capacity mirror needs, plus the
    command limits and stream width the protocol checks need."""

    max_len: int = 1024
    num_ns: int = 16
    data_w: int = 512


@dataclass
class Prediction:
    rsp: RadixRsp
    node: Node | None = None       # the node whose handle the response must carry
    lock_depth: int = 0            # nodes a LOCK/UNLOCK walk touched
    split_at: int | None = None    # offset into the edge where a split happened
    evicted_nodes: int = 0
    walk_depth: int = 0            # MATCH: nodes its walk entered (a split's upper node too)
    walk_end: str = ""             # MATCH: "key ends", "no child" or "inside an edge"
    shared_bucket: str | None = None   # INSERT: RadixHw.shared_bucket before it ran


class RadixPredictor:
    def __init__(self, params: RadixParams) -> None:
        self.p = params
        self.power_on()

    #: The golden model's class: radix_concurrent swaps in models.radix_conflicts'
    #: RecordingCache, which also records each command's reads and writes. Its
    #: overrides only run the model's side-effect-free walk before calling the parent
    #: method; tests/models/test_radix_conflicts.py compares the two on a trace.
    model_cls: type[RadixCache] = RadixCache

    def power_on(self) -> None:
        """The state after rst_ni: empty tree, all counters (ERRORS too) zero. Handles
        from before are forgotten, not kept as dead: the DUT's generations restart, so
        an old handle may name a live node again."""
        self.model = self.model_cls(self.p.page_size)
        self.hw = RadixHw(self.p)
        self.errors = 0
        self.commands = 0      # answered since power-on (a RESET command does not clear it)
        self.last_error = 0    # LAST_ERROR: the latest refusal's code (kept across RESET)
        self.by_handle: dict[int, Node] = {}
        self.handle_of: dict[int, int] = {}     # model node id -> DUT handle
        # Dead handle -> (its slot's known generation bumps, frees of unknown slot) when it
        # died: a handle may come back only when its slot's 8-bit generation wraps.
        self.dead_handles: dict[int, tuple[int, int]] = {}
        self.slot_bumps: dict[int, int] = {}    # frees of nodes whose slot is known
        self.resets = 0                         # RESET commands: every slot bumps once
        self.unknown_frees = 0                  # frees of nodes whose handle was never seen
        self.oracle_checks = 0
        self.oracle_disagreements: list[str] = []
        self.faulted = False    # the L2 tier failed: only RESET runs until it comes
        self.onset_op: int | None = None   # the command the latest fault cut short
        self.faults = 0         # fault onsets seen

    # ---- L2 faults (docs/radix-protocol.md, "L2 faults")
    def fault_onset(self, cmd: RadixCmd) -> Prediction:
        """The DUT answered MEMORY while the model saw no fault: the L2 tier failed
        during or before this command (when, only the DUT knows; the bench checks
        that a fault was injected). The command is refused: its data beats, if any,
        are undefined, the model is not touched, and it counts as a refusal."""
        self.commands += 1
        self.faulted = True
        self.faults += 1
        self.onset_op = cmd.op
        return self._refuse(cmd, ST_MEMORY)

    def _refuse(self, cmd: RadixCmd, status: int) -> Prediction:
        self.errors += 1
        self.last_error = status
        return Prediction(RadixRsp(cmd.op & 0xFF, status, 0, 0, 0))

    def _reset_after_fault(self) -> None:
        """RESET after a fault re-initialises the tables with generations from 0, as
        at power-on: handles from before are forgotten, counters other than ERRORS,
        BUSY_CYCLES and LAST_ERROR clear as for any RESET."""
        keep = (self.errors, self.commands, self.last_error, self.faults)
        self.power_on()
        self.errors, self.commands, self.last_error, self.faults = keep

    # ---- capacities the hardware has and the model does not
    def free_nodes(self) -> int:
        return self.p.node_cap - 1 - self.model.num_nodes()

    def free_slots(self) -> int:
        """Token slots in free lines (a line is never shared between two leaves)."""
        return 16 * self.hw.free_lines

    # ---- the prediction
    def predict(self, cmd: RadixCmd) -> Prediction:
        self.commands += 1
        if self.faulted and cmd.op != OP_RESET:
            return self._refuse(cmd, ST_MEMORY)
        status, plan = self._verdict(cmd)
        # Coverage's shared-bucket room, from the plan the verdict walked, before the run.
        room = (self.hw.shared_bucket(plan, cmd.ns, True)
                if plan is not None and cmd.op == OP_INSERT else None)
        exp = self._refuse(cmd, status) if status != ST_OK else self._run(cmd)
        exp.shared_bucket = room
        return exp

    def _run(self, cmd: RadixCmd) -> Prediction:
        """Apply an accepted command to the model and say what it answers."""
        if self.faulted:
            self._reset_after_fault()
            return Prediction(RadixRsp(cmd.op, ST_OK, 0, 0, 0))
        m = self.model
        split_at = None
        if cmd.op in (OP_MATCH, OP_INSERT):
            split_at = m.split_point(cmd.tokens, cmd.ns) or None
        if cmd.op == OP_MATCH:
            r = m.match_prefix(cmd.tokens, cmd.ns)
            self.hw.commit(m, cmd.ns)
            n = len(cmd.tokens) - len(cmd.tokens) % self.p.page_size
            end = ("inside an edge" if split_at else
                   "key ends" if r.length == n else "no child")
            return Prediction(RadixRsp(cmd.op, ST_OK, r.length, 0, 0,
                                       [int(x) for x in r.kv_indices]), r.node,
                              split_at=split_at,
                              walk_depth=self._depth(r.node) if r.node is not None else 0,
                              walk_end=end)
        if cmd.op == OP_INSERT:
            prefix = m.insert(cmd.tokens, cmd.kvs, cmd.ns)
            self.hw.commit(m, cmd.ns)
            return Prediction(RadixRsp(cmd.op, ST_OK, prefix, 0, 0), m.locate(cmd.tokens, cmd.ns),
                              split_at=split_at)
        if cmd.op == OP_EVICT:
            freed = [int(x) for x in m.evict(cmd.arg)]
            self.hw.evicted(m.last_evicted)
            for nid in m.last_evicted:
                handle = self.handle_of.pop(nid, None)
                if handle is None:
                    self.unknown_frees += 1
                    continue
                self.by_handle.pop(handle, None)
                slot = handle & SLOT_MASK
                self.slot_bumps[slot] = self.slot_bumps.get(slot, 0) + 1
                self._bury(handle)
            n = len(m.last_evicted)
            return Prediction(RadixRsp(cmd.op, ST_OK, len(freed), n, 0, freed), evicted_nodes=n)
        if cmd.op in (OP_LOCK, OP_UNLOCK):
            node = self.by_handle[cmd.arg]
            depth = self._depth(node)
            delta = m.inc_lock_ref(node) if cmd.op == OP_LOCK else m.dec_lock_ref(node)
            return Prediction(RadixRsp(cmd.op, ST_OK, delta & M32, 0, 0), lock_depth=depth)
        if cmd.op == OP_SIZES:
            return Prediction(RadixRsp(cmd.op, ST_OK, m.evictable_size(), m.protected_size(),
                                       m.total_size()))
        # OP_RESET
        m.reset()
        self.hw.reset()
        self.resets += 1
        for handle in self.by_handle:
            self._bury(handle)
        self.by_handle.clear()
        self.handle_of.clear()
        return Prediction(RadixRsp(cmd.op, ST_OK, 0, 0, 0))

    def learn_handle(self, node: Node, handle: int) -> str | None:
        """Bind a DUT handle to a model node; a conflict is a stable-handle violation."""
        nid = self.model.node_id(node)
        known = self.handle_of.get(nid)
        if known is not None:
            return None if known == handle else (
                f"node #{nid} had handle {known:#x}, now {handle:#x}")
        other = self.by_handle.get(handle)
        if other is not None and other is not node:
            return f"handle {handle:#x} given to node #{nid} but held by another live node"
        if handle in self.dead_handles:
            problem = self._resurrection(handle)
            if problem:
                return f"node #{nid}: {problem}"
            del self.dead_handles[handle]
        self.handle_of[nid] = handle
        self.by_handle[handle] = node
        return None

    def tree_state(self, cmd: RadixCmd) -> str:
        """What a command meets before it runs (coverage): the first of TREE_STATES that
        holds. "locked path": a node the command's key walks through (MATCH/INSERT), or
        on its node's path (LOCK/UNLOCK), is locked; for other commands, any node."""
        m = self.model
        if m.num_nodes() == 0:
            return "empty"
        if self.free_nodes() == 0:
            return "node-full"
        if self.hw.free_lines == 0:
            return "slot-full"
        if self.hw.stash_used >= self.p.stash_depth:
            return "hash-full"
        return "locked path" if self._path_locked(cmd) else "partial"

    def shared_bucket(self, cmd: RadixCmd) -> str | None:
        """RadixHw.shared_bucket for ``cmd`` run next: how an INSERT whose split tail and
        new leaf land in one bucket places the two index entries (a directed sequence
        checks it built the case it meant; coverage reads Prediction.shared_bucket)."""
        if (cmd.op != OP_INSERT or not 0 < len(cmd.tokens) <= self.p.max_len
                or cmd.ns >= self.p.num_ns):
            return None
        return self.hw.shared_bucket(self.model.walk_plan(cmd.tokens, cmd.ns), cmd.ns, True)

    def _path_locked(self, cmd: RadixCmd) -> bool:
        if cmd.op in (OP_MATCH, OP_INSERT):
            if not 0 < len(cmd.tokens) <= self.p.max_len or cmd.ns >= self.p.num_ns:
                return False
            return any(n.lock_ref > 0 for n in self.model.path_nodes(cmd.tokens, cmd.ns))
        if cmd.op in (OP_LOCK, OP_UNLOCK):
            node = self.by_handle.get(cmd.arg)
            return node is not None and any(r > 0 for r in self._path_refs(node))
        return self.model.protected_size() > 0

    def _bumps(self, slot: int) -> int:
        return self.slot_bumps.get(slot, 0) + self.resets

    def _bury(self, handle: int) -> None:
        self.dead_handles[handle] = (self._bumps(handle & SLOT_MASK), self.unknown_frees)

    def _resurrection(self, handle: int) -> str | None:
        """A dead handle is given out again: legal only if its slot's generation has made
        a whole turn since (255 more bumps after the one that killed it). Frees of nodes
        whose handle the bench never saw are counted as possible bumps of any slot."""
        slot = handle & SLOT_MASK
        known, unknown = self.dead_handles[handle]
        least = self._bumps(slot) - known
        most = least + self.unknown_frees - unknown
        if most >= least + (GEN_PERIOD - 1 - least) % GEN_PERIOD:
            return None
        return (f"dead handle {handle:#x} given out again {least}..{most} generation bumps "
                f"of slot {slot} after the one that freed it; it may come back only when its "
                f"{GEN_PERIOD}-value generation wraps ({GEN_PERIOD - 1} more)")

    def surely_dead_handles(self) -> list[int]:
        """Dead handles that cannot name a live node yet: their slot's generation cannot
        have wrapped since they died (a handle comes back after 256 bumps, and a bump of
        a slot the bench never saw may have been any slot's)."""
        out = []
        for handle, (known, unknown) in self.dead_handles.items():
            most = self._bumps(handle & SLOT_MASK) - known + self.unknown_frees - unknown
            if most < GEN_PERIOD - 1:
                out.append(handle)
        return out

    def live_handles(self) -> list[int]:
        return list(self.by_handle)

    def refusal(self, cmd: RadixCmd) -> int:
        """The status ``cmd`` would get if it ran next (ST_OK: accepted). Exact only when
        every earlier command has been predicted."""
        return self._verdict(cmd)[0]

    # ---- helpers
    def _verdict(self, cmd: RadixCmd) -> tuple[int, WalkPlan | None]:
        """The status ``cmd`` would get, and for a MATCH/INSERT that reaches the capacity
        check, the walk plan it was decided on (one walk serves the verdict, the oracle
        cross-check and coverage)."""
        status = self._refusal(cmd)
        if status != ST_OK or cmd.op not in (OP_MATCH, OP_INSERT):
            return status, None
        plan = self.model.walk_plan(cmd.tokens, cmd.ns)
        ok = self.hw.fits(self.model, plan, cmd.ns, cmd.op == OP_INSERT)
        self._cross_check(cmd, ok)
        return (ST_OK if ok else ST_CAPACITY), plan

    def _refusal(self, cmd: RadixCmd) -> int:
        """Every check but capacity, in the RTL's order."""
        op, n_beats = cmd.op, len(cmd.beats())
        if op in (OP_MATCH, OP_INSERT):
            if cmd.arg == 0 or cmd.arg > self.p.max_len:
                return ST_LENGTH
            if cmd.ns >= self.p.num_ns:
                return ST_NAMESPACE
            if op == OP_INSERT and cmd.kvcnt != cmd.arg:
                return ST_KVCOUNT
            lanes = self.p.data_w // 32
            want = 1 + -(-cmd.arg // lanes) * (2 if op == OP_INSERT else 1)
            return ST_FRAMING if n_beats != want else ST_OK
        if op in (OP_EVICT, OP_LOCK, OP_UNLOCK, OP_SIZES, OP_RESET):
            if n_beats != 1:
                return ST_FRAMING
            if op in (OP_LOCK, OP_UNLOCK):
                node = self.by_handle.get(cmd.arg)
                if node is None:
                    return ST_HANDLE
                refs = self._path_refs(node)
                if op == OP_UNLOCK and any(r < 1 for r in refs):
                    return ST_UNDERFLOW
                if op == OP_LOCK and any(r >= LOCK_MAX for r in refs):
                    return ST_OVERFLOW
            return ST_OK
        return ST_OPCODE

    def _cross_check(self, cmd: RadixCmd, fits: bool) -> None:
        """The capacity verdict against capacity_oracle (no WalkPlan): the scoreboard
        fails the test on a disagreement."""
        other = oracle_fits(self.model, self.hw, cmd.tokens, cmd.kvs, cmd.ns,
                            cmd.op == OP_INSERT)
        if other is None:
            return
        self.oracle_checks += 1
        if other != fits:
            self.oracle_disagreements.append(
                f"{cmd}: walk_plan + fits() says {'fits' if fits else 'CAPACITY'}, "
                f"applying it to a copy says {'fits' if other else 'CAPACITY'}")

    def _path_refs(self, node: Node) -> list[int]:
        refs = []
        while node is not self.model.root:
            refs.append(node.lock_ref)
            node = node.parent
        return refs

    def _depth(self, node: Node) -> int:
        return len(self._path_refs(node))
