# SPDX-License-Identifier: Apache-2.0
"""FsmScoreboard: every result and every mask against FsmPredictor (models.token_fsm)."""

from __future__ import annotations

import random

from pyuvm import uvm_subscriber

from uvm_env.common.config import env_int
from uvm_env.common.scoreboard_base import ScoreboardBase, accounting
from uvm_env.fsm.fsm_coverage import FsmCoverage
from uvm_env.fsm.fsm_item import FsmCmd
from uvm_env.fsm.fsm_predictor import Expected, FsmParams, FsmPredictor
from uvm_env.fsm.protocol import (
    MASK_OPS,
    NO_VIOLATION,
    OP_ADVANCE,
    OP_BIND,
    OP_LOAD,
    OP_MASK_BATCH,
    OP_RESET,
    OP_VALIDATE,
    ST_OK,
    FsmRsp,
    mask_to_int,
)
from uvm_env.fsm.regex_oracle import RegexOracle


class FsmScoreboard(ScoreboardBase):
    params: FsmParams

    def build_phase(self) -> None:
        super().build_phase()
        self.pred = FsmPredictor(self.params)
        self.cov = FsmCoverage("fsm", self.params.n_slots, self.params.n_grammars)
        self.sub = _CmdSubscriber("sub", self)
        self.analysis_export = self.sub.analysis_export
        self.history: list[str] = []        # recent commands, printed with a mismatch
        self.names: dict[int, str] = {}     # grammar id -> name of the tables loaded there
        self.n_masks = 0
        self.n_batches = 0
        # Independent oracle: regex.fullmatch on detokenised text (ORACLE_SAMPLE mask
        # bits per mask on a big vocabulary, every bit on a small one).
        self.oracle = RegexOracle(env_int("ORACLE_SAMPLE", 256), random.Random(1))
        self.masked_states: set[tuple[int, int]] = set()    # (grammar, state) masks compared
        self.visited_states: set[tuple[int, int]] = set()   # (grammar, state) entered
        self.mask_sink = None               # set by the env: stray masks are an error
        self.driver = None                  # set by the env: end-of-test accounting
        self.n_results = 0

    def write_cmd(self, cmd: FsmCmd) -> None:
        assert cmd.rsp is not None
        self.n_results += 1
        self.history = (self.history + [str(cmd)])[-8:]
        if cmd.op == OP_MASK_BATCH:
            # One result and (when OK) one mask frame per slot, in packet order.
            self.n_batches += 1
            exps = self.pred.predict_batch(cmd.slots)
            for i, (slot, exp) in enumerate(zip(cmd.slots, exps, strict=True)):
                self._check(cmd, f"{cmd} slot #{i} ({slot})", slot, exp, cmd.rsps[i],
                            cmd.masks[i])
            return
        exp = self.pred.predict(cmd.op, cmd.slot, cmd.grammar, cmd.token, cmd.tokens,
                                cmd.image, cmd.load_keep_last)
        self._check(cmd, str(cmd), cmd.slot, exp, cmd.rsp, cmd.mask)

    def _check(self, cmd: FsmCmd, what: str, slot_id: int, exp: Expected, rsp: FsmRsp,
               mask: list[int] | None) -> None:
        """Compare one result (and its mask) with the predictor's and with the regex
        oracle; coverage and bookkeeping."""
        self._oracle(cmd, what, slot_id, rsp, mask)
        ok = self.compare(f"{what} result", exp.rsp.fields(), rsp.fields())
        if exp.mask is not None or mask is not None:
            self.n_masks += 1
            ok &= self.compare(f"{what} mask (beats, bit i = token m*MaskW+i)",
                               [hex(b) for b in exp.mask or []],
                               [hex(b) for b in mask or []])
        if not ok:
            self.logger.error("last commands:\n  " + "\n  ".join(self.history))
            slot = self.pred.bound(slot_id)
            if slot is not None:
                fsm = self.pred.grammars[slot.grammar]
                self.logger.error(f"slot {slot_id}: {slot}\n{fsm.pretty_print(8)}")
        if exp.rsp.status == ST_OK and cmd.op != OP_LOAD:
            g = exp.rsp.grammar
            self.visited_states.update((g, v) for v in exp.visited)
            if exp.mask is not None:
                self.masked_states.add((g, exp.rsp.state))
        if cmd.op == OP_LOAD and exp.rsp.status == ST_OK:
            self.names[cmd.grammar] = getattr(cmd, "grammar_name", f"g{cmd.grammar}")
        key, ns, nc, eos = None, 0, 0, None
        slot = self.pred.bound(slot_id)
        if slot is not None and slot.grammar in self.pred.grammars:
            fsm = self.pred.grammars[slot.grammar]
            t = fsm.tables
            key = self.names.get(slot.grammar, f"g{slot.grammar}")
            ns, nc, eos = t.num_states, t.num_classes, t.eos_id
            if exp.rsp.status == ST_OK and cmd.op != OP_LOAD:
                self.cov.sample_kinds(fsm, exp)
        self.cov.sample(cmd, exp, key, ns, nc, eos, slot=slot_id)

    def _oracle(self, cmd: FsmCmd, what: str, slot: int, rsp: FsmRsp,
                mask: list[int] | None) -> None:
        """The core's verdicts and mask bits against regex.fullmatch (RegexOracle)."""
        orc = self.oracle
        if rsp.status != ST_OK:
            return
        if cmd.op == OP_LOAD:
            src = cmd.source
            orc.load(cmd.grammar, getattr(src, "pattern", None), getattr(src, "vocab", None))
        elif cmd.op in (OP_BIND, OP_RESET):
            orc.start(slot, rsp.grammar)
        elif not orc.tracks(slot):
            return
        elif cmd.op == OP_ADVANCE:
            ok = orc.allowed(slot, cmd.token)
            if ok is None:
                orc.skipped += 1
            else:
                orc.checks += 1
                self.compare(f"{what} oracle verdict (regex.fullmatch)", ok, rsp.accepted)
            if rsp.accepted if ok is None else ok:
                orc.take(slot, cmd.token)
        elif cmd.op == OP_VALIDATE:
            core = None if rsp.aux == NO_VIOLATION else rsp.aux
            first, decided = orc.first_violation(slot, cmd.tokens, core)
            orc.checks += len(cmd.tokens) if first is None else first + 1
            orc.skipped += int(not decided)
            self.compare(f"{what} oracle first violation (regex.fullmatch)", first, core)
            for tok in cmd.tokens[:len(cmd.tokens) if first is None else first]:
                orc.take(slot, tok)
        elif cmd.op in MASK_OPS and mask is not None:
            value = mask_to_int(mask, self.params.mask_w)
            ids = orc.mask_ids(slot, [i for i in range(value.bit_length()) if value >> i & 1])
            wrong = []
            for i in ids:
                ok = orc.allowed(slot, i)
                if ok is None:
                    orc.skipped += 1
                    continue
                orc.checks += 1
                if ok != bool(value >> i & 1):
                    wrong.append(i)
            self.compare(f"{what} oracle mask bits (regex.fullmatch, {len(ids)} checked): "
                         "tokens that differ", [], wrong[:16])

    def pending(self) -> list[str]:
        out = []
        if self.mask_sink is not None and not self.mask_sink.empty():
            out.append(f"{self.mask_sink.count()} mask frame(s) no MASK asked for")
        drv = self.driver
        if drv is not None:
            out += accounting(drv.inflight, drv.rsp_sink.count(), drv.sent, drv.completed,
                              drv.aborted, self.n_results)
        return out


class _CmdSubscriber(uvm_subscriber):
    def write(self, tt: FsmCmd) -> None:
        self.get_parent().write_cmd(tt)
