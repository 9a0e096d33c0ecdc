# SPDX-License-Identifier: Apache-2.0
"""FsmCoverage: operations x outcomes, operation x every status it can have, operation x
slot (first, middle, last, out of range), x grammar bank and x result-sink stall (pairwise
crosses), error codes, forced tokens, masks, interrupts, the kinds of states entered and
of token classes used (counted bins), and per grammar the fraction of states visited and
of token classes used (logged)."""

from __future__ import annotations

from cocotb_coverage.coverage import CoverCross, CoverPoint

from models.token_fsm import TokenFSM
from uvm_env.fsm.fsm_item import FsmCmd
from uvm_env.fsm.fsm_predictor import Expected
from uvm_env.fsm.protocol import (
    CMD_ERRORS,
    LOAD_ERRORS,
    MASK_OPS,
    NO_VIOLATION,
    OP_ADVANCE,
    OP_BIND,
    OP_LOAD,
    OP_NAMES,
    OP_VALIDATE,
    ST_NAMES,
    ST_OK,
)

#: Every status each command can answer (docs/fsm-protocol.md): the bins of op_x_status.
#: LOAD's statuses are the err.load point.
STATUSES_OF = {
    "BIND": ("OK", "SLOT", "GRAMMAR"),
    "ADVANCE": ("OK", "SLOT", "GRAMMAR", "VIOLATED", "TOKEN"),
    "VALIDATE": ("OK", "SLOT", "GRAMMAR", "VIOLATED", "TOKEN"),
    "MASK": ("OK", "SLOT", "GRAMMAR"),
    "RESET_SLOT": ("OK", "SLOT", "GRAMMAR"),
    "QUERY": ("OK", "SLOT", "GRAMMAR"),
    "MASK_BATCH": ("OK", "SLOT", "GRAMMAR"),
    "bad": ("OPCODE",),
}
SLOT_OPS = [op for op in STATUSES_OF if op != "bad"]
SLOT_BINS = ["first", "middle", "last", "out of range"]
STATE_KINDS = ["start", "interior", "accepting", "forced", "final"]
CLASS_KINDS = ["reject", "eos", "content"]


def _bucket(n: int, edges: tuple[int, ...]) -> str:
    for e in edges:
        if n <= e:
            return f"<={e}"
    return f">{edges[-1]}"


class FsmCoverage:
    """Cover points are named `<prefix>.*`; BaseTest reports their holes.

    Tests that must close a group set their coverage_prefix to it, e.g.
    `fsm.err.cmd` for the command errors or `fsm.irq` for the interrupt."""

    def __init__(self, prefix: str = "fsm", n_slots: int = 64, n_grammars: int = 4) -> None:
        p = prefix
        self.n_slots, self.n_grammars = n_slots, n_grammars
        self.visited: dict[str, set[int]] = {}    # grammar key -> states entered
        self.classes: dict[str, set[int]] = {}    # grammar key -> token classes used
        self.totals: dict[str, tuple[int, int]] = {}

        @CoverPoint(f"{p}.op", xf=lambda c, e: OP_NAMES.get(c.op, "bad"),
                    bins=list(OP_NAMES.values()) + ["bad"])
        @CoverPoint(f"{p}.outcome", xf=lambda c, e: "OK" if e.rsp.status == ST_OK else "error",
                    bins=["OK", "error"])
        @CoverCross(f"{p}.op_x_outcome", items=[f"{p}.op", f"{p}.outcome"],
                    ign_bins=[("bad", "OK")])
        def sample_op(cmd: FsmCmd, exp: Expected) -> None:
            pass

        @CoverPoint(f"{p}.op_x_status", xf=lambda op, st: (op, st),
                    bins=[(op, st) for op, sts in STATUSES_OF.items() for st in sts])
        def sample_status(op: str, status: str) -> None:
            pass

        @CoverPoint(f"{p}.slot_op", xf=lambda op, slot, bank, stall: op, bins=SLOT_OPS)
        @CoverPoint(f"{p}.slot", xf=lambda op, slot, bank, stall: slot, bins=SLOT_BINS)
        @CoverPoint(f"{p}.bank", xf=lambda op, slot, bank, stall: bank,
                    bins=list(range(self.n_grammars)))
        @CoverPoint(f"{p}.sink", xf=lambda op, slot, bank, stall: stall,
                    bins=["stalled", "flowing"])
        @CoverCross(f"{p}.op_x_slot", items=[f"{p}.slot_op", f"{p}.slot"])
        @CoverCross(f"{p}.op_x_bank", items=[f"{p}.slot_op", f"{p}.bank"])
        @CoverCross(f"{p}.op_x_sink", items=[f"{p}.slot_op", f"{p}.sink"])
        def sample_where(op: str, slot: str, bank: int | None, stall: str) -> None:
            pass

        @CoverPoint(f"{p}.state_kind", xf=lambda k: k, bins=STATE_KINDS)
        def sample_state(kind: str) -> None:
            pass

        @CoverPoint(f"{p}.class_kind", xf=lambda k: k, bins=CLASS_KINDS)
        def sample_class(kind: str) -> None:
            pass

        @CoverPoint(f"{p}.err.cmd", xf=lambda s: ST_NAMES.get(s, "?"),
                    bins=[ST_NAMES[s] for s in CMD_ERRORS])
        def sample_cmd_err(status: int) -> None:
            pass

        @CoverPoint(f"{p}.err.load", xf=lambda s: ST_NAMES.get(s, "?"),
                    bins=["OK"] + [ST_NAMES[s] for s in LOAD_ERRORS])
        def sample_load(status: int) -> None:
            pass

        @CoverPoint(f"{p}.adv.result", xf=lambda r: r,
                    bins=["accepted", "rejected", "accepting", "forced", "final_eos"])
        def sample_adv(result: str) -> None:
            pass

        @CoverPoint(f"{p}.validate", xf=lambda r: r,
                    bins=["clean", "violation_first", "violation_mid", "empty", "error"])
        def sample_val(result: str) -> None:
            pass

        @CoverPoint(f"{p}.mask.beats", xf=lambda n, k: _bucket(n, (1, 2, 4, 16)),
                    bins=["<=1", "<=2", "<=4", "<=16", ">16"])
        @CoverPoint(f"{p}.mask.kind", xf=lambda n, k: k,
                    bins=["empty", "eos_set", "eos_clear", "single"])
        def sample_mask(n: int, kind: str) -> None:
            pass

        @CoverPoint(f"{p}.irq", xf=lambda e: e,
                    bins=["raised", "cleared", "masked", "held_while_pending"])
        def sample_irq(event: str) -> None:
            pass

        self._status, self._where = sample_status, sample_where
        self._state, self._class = sample_state, sample_class
        self._op, self._cmd_err, self._load = sample_op, sample_cmd_err, sample_load
        self._adv, self._val, self._mask, self._irq = (sample_adv, sample_val, sample_mask,
                                                       sample_irq)

    # ---- sampling --------------------------------------------------------------
    def slot_bin(self, slot: int) -> str:
        if slot >= self.n_slots:
            return "out of range"
        return "first" if slot == 0 else "last" if slot == self.n_slots - 1 else "middle"

    def sample_kinds(self, fsm: TokenFSM, exp: Expected) -> None:
        """The kind of every state entered and of every token class used (counted bins)."""
        for state in exp.visited:
            self._state("final" if fsm.is_final(state) else "start" if state == fsm.start
                        else "forced" if fsm.forced_token(state) is not None
                        else "accepting" if fsm.is_accepting(state) else "interior")
        eos = fsm.tables.eos_id
        eos_class = int(fsm.tables.token_class[eos]) if eos is not None else -1
        for c in exp.classes:
            self._class("reject" if c == 0 else "eos" if c == eos_class else "content")

    def sample(self, cmd: FsmCmd, exp: Expected, grammar_key: str | None,
               num_states: int = 0, num_classes: int = 0, eos_id: int | None = None,
               slot: int | None = None) -> None:
        self._op(cmd, exp)
        r = exp.rsp
        op = OP_NAMES.get(cmd.op, "bad")
        if r.op != OP_LOAD:
            self._status(op, ST_NAMES.get(r.status, "?"))
        if op in SLOT_OPS and slot is not None and hasattr(cmd, "sink_stalled"):
            bank = cmd.grammar if cmd.op == OP_BIND else r.grammar if r.status == ST_OK else None
            self._where(op, self.slot_bin(slot), bank,
                        "stalled" if cmd.sink_stalled else "flowing")
        if r.op == OP_LOAD:
            self._load(r.status)
        elif r.status != ST_OK:
            self._cmd_err(r.status)
            if cmd.op == OP_VALIDATE:
                self._val("error")
            return
        if grammar_key is not None:
            self.visited.setdefault(grammar_key, set()).update(exp.visited)
            self.classes.setdefault(grammar_key, set()).update(exp.classes)
            self.totals[grammar_key] = (num_states, num_classes)
        if cmd.op == OP_ADVANCE:
            self._adv("accepted" if r.accepted else "rejected")
            if r.accepting:
                self._adv("accepting")
            if r.forced_valid:
                self._adv("forced")
            if r.accepted and eos_id is not None and cmd.token == eos_id:
                self._adv("final_eos")
        elif cmd.op == OP_VALIDATE:
            if not cmd.tokens:
                self._val("empty")
            elif r.aux == NO_VIOLATION:
                self._val("clean")
            else:
                self._val("violation_first" if r.aux == 0 else "violation_mid")
        elif cmd.op in MASK_OPS and exp.mask is not None:
            total = sum(bin(b).count("1") for b in exp.mask)
            kind = ("empty" if total == 0 else "single" if total == 1 else
                    "eos_set" if r.accepting else "eos_clear")
            self._mask(len(exp.mask), kind)

    def sample_irq(self, event: str) -> None:
        self._irq(event)

    def report(self) -> list[str]:
        lines = []
        for key in sorted(self.visited):
            ns, nc = self.totals.get(key, (0, 0))
            lines.append(f"grammar {key}: states visited {len(self.visited[key])}/{ns}, "
                         f"classes used {len(self.classes.get(key, ()))}/{nc}")
        return lines
