# SPDX-License-Identifier: Apache-2.0
"""FsmCoverage: operations x outcomes, error codes, forced tokens, masks, interrupts,
and per grammar the fraction of states visited and of token classes used."""

from __future__ import annotations

from cocotb_coverage.coverage import CoverCross, CoverPoint

from uvm_env.fsm.fsm_item import FsmCmd
from uvm_env.fsm.fsm_predictor import Expected
from uvm_env.fsm.protocol import (
    CMD_ERRORS,
    LOAD_ERRORS,
    MASK_OPS,
    NO_VIOLATION,
    OP_ADVANCE,
    OP_LOAD,
    OP_NAMES,
    OP_VALIDATE,
    ST_NAMES,
    ST_OK,
)


def _bucket(n: int, edges: tuple[int, ...]) -> str:
    for e in edges:
        if n <= e:
            return f"<={e}"
    return f">{edges[-1]}"


class FsmCoverage:
    """Cover points are named `<prefix>.*`; BaseTest reports their holes.

    Tests that must close a group set their coverage_prefix to it, e.g.
    `fsm.err.cmd` for the command errors or `fsm.irq` for the interrupt."""

    def __init__(self, prefix: str = "fsm") -> None:
        p = prefix
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

        self._op, self._cmd_err, self._load = sample_op, sample_cmd_err, sample_load
        self._adv, self._val, self._mask, self._irq = (sample_adv, sample_val, sample_mask,
                                                       sample_irq)

    # ---- sampling --------------------------------------------------------------
    def sample(self, cmd: FsmCmd, exp: Expected, grammar_key: str | None,
               num_states: int = 0, num_classes: int = 0, eos_id: int | None = None) -> None:
        self._op(cmd, exp)
        r = exp.rsp
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
