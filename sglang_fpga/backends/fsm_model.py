# SPDX-License-Identifier: Apache-2.0
"""The token-FSM validator in process: ``models.token_fsm`` on the tables a LOAD carries,
behind the core's slots and refusal rules (docs/fsm-protocol.md), answering the result
beats and mask beats the kernel would.

One simplification, stated: an image the model's loader refuses is answered LD_DIMS,
whatever the reason; the RTL loader names the first failing check (magic, version, CRC,
...). Both raise ``FsmLoadError`` in the driver."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..models.token_fsm import TokenFSM
from ..wire import (
    M32,
    NO_VIOLATION,
    FsmCommand,
    FsmOp,
    FsmRsp,
    FsmStatus,
    TableImageError,
    load_image,
)


@dataclass(frozen=True)
class FsmGeometry:
    """The validator's build parameters that decide what fits and what is in range.
    The defaults are the VCK5000 configuration (scripts/boards/vck5000.toml)."""

    vocab_max: int = 50257
    state_w: int = 14
    class_w: int = 9
    ns_cap: int = 753664
    row_cap: int = 204
    n_slots: int = 8
    n_grammars: int = 2
    mask_w: int = 512

    @classmethod
    def from_params(cls, params: dict[str, int]) -> FsmGeometry:
        names = {"vocab_max": "VocabMax", "state_w": "StateW", "class_w": "ClassW",
                 "ns_cap": "NsCap", "row_cap": "RowCap", "n_slots": "NSlots",
                 "n_grammars": "NGrammars"}
        return cls(**{k: int(params[v]) for k, v in names.items() if v in params})

    def to_params(self) -> dict[str, int]:
        return {"VocabMax": self.vocab_max, "StateW": self.state_w, "ClassW": self.class_w,
                "NsCap": self.ns_cap, "RowCap": self.row_cap, "NSlots": self.n_slots,
                "NGrammars": self.n_grammars}


@dataclass
class _Slot:
    grammar: int
    state: int
    violated: bool = False
    pos: int = 0


class FsmModelBackend:
    def __init__(self, geometry: FsmGeometry) -> None:
        self.geo = geometry
        self.grammars: dict[int, TokenFSM] = {}
        self.slots: dict[int, _Slot] = {}

    def close(self) -> None:
        pass

    def execute(self, cmds: list[FsmCommand], image: bytes | None = None
                ) -> tuple[list[FsmRsp], list[int]]:
        """Results in command order, and the mask beats of the OK mask results, in order."""
        rsps: list[FsmRsp] = []
        masks: list[int] = []
        for c in cmds:
            slots = (c.slots or [c.slot]) if c.op == FsmOp.MASK_BATCH else [c.slot]
            for slot in slots:
                rsp = self._one(c, slot, image)
                rsps.append(rsp)
                if rsp.status == FsmStatus.OK and c.op in (FsmOp.MASK, FsmOp.MASK_BATCH):
                    masks += self._mask(self.slots[slot])
        return rsps, masks

    # ---- one command ----------------------------------------------------------------
    def _one(self, c: FsmCommand, slot: int, image: bytes | None) -> FsmRsp:
        op = c.op
        if op == FsmOp.LOAD:
            return self._load(c.grammar, image or b"")
        if op not in set(FsmOp):
            return FsmRsp.error(op & 0xFF, FsmStatus.OPCODE, slot & 0xFFFF)
        if slot >= self.geo.n_slots:
            return FsmRsp.error(op, FsmStatus.SLOT, slot)
        if op == FsmOp.BIND:
            if c.grammar not in self.grammars:
                return FsmRsp.error(op, FsmStatus.GRAMMAR, slot)
            s = self.slots[slot] = _Slot(c.grammar, self.grammars[c.grammar].start)
            return self._report(op, slot, s)
        s = self.slots.get(slot)
        if s is None:
            return FsmRsp.error(op, FsmStatus.GRAMMAR, slot)
        fsm = self.grammars[s.grammar]
        if op == FsmOp.RESET_SLOT:
            s = self.slots[slot] = _Slot(s.grammar, fsm.start)
            return self._report(op, slot, s)
        if op in (FsmOp.MASK, FsmOp.MASK_BATCH, FsmOp.QUERY):
            return self._report(op, slot, s)
        tokens = [c.token] if op == FsmOp.ADVANCE else list(c.tokens)
        if s.violated:
            return FsmRsp.error(op, FsmStatus.VIOLATED, slot)
        if any(t >= fsm.vocab_size for t in tokens):
            return FsmRsp.error(op, FsmStatus.TOKEN, slot)
        first = NO_VIOLATION
        for i, tok in enumerate(tokens):
            nxt = fsm.advance(s.state, tok)
            if nxt is None:
                s.violated, first = True, i
                break
            s.state, s.pos = nxt, s.pos + 1
        ok = first == NO_VIOLATION
        return self._report(op, slot, s, accepted=ok,
                            aux=first if op == FsmOp.VALIDATE else None)

    def _report(self, op: int, slot: int, s: _Slot, accepted: bool = False,
                aux: int | None = None) -> FsmRsp:
        fsm = self.grammars[s.grammar]
        forced = fsm.forced_token(s.state)
        return FsmRsp(op=op, status=FsmStatus.OK, grammar=s.grammar, accepted=accepted,
                      accepting=fsm.is_accepting(s.state), forced_valid=forced is not None,
                      violated=s.violated, slot=slot, state=s.state,
                      forced=forced if forced is not None else 0,
                      aux=s.pos if aux is None else aux)

    def _mask(self, s: _Slot) -> list[int]:
        """Allowed tokens of the slot's state; the EOS bit says "accepting"."""
        fsm = self.grammars[s.grammar]
        bits = fsm.allowed(s.state).copy()
        eos = fsm.tables.eos_id
        if eos is not None:
            bits[eos] = fsm.is_accepting(s.state)
        value = int.from_bytes(np.packbits(bits, bitorder="little").tobytes(), "little")
        w = self.geo.mask_w
        return [(value >> (m * w)) & ((1 << w) - 1)
                for m in range((fsm.vocab_size + w - 1) // w)]

    def _load(self, grammar: int, image: bytes) -> FsmRsp:
        status: int = FsmStatus.OK
        if grammar >= self.geo.n_grammars:
            status = FsmStatus.GRAMMAR
        else:
            try:
                fsm = TokenFSM.from_tables(load_image(image))
            except (TableImageError, ValueError):
                status = FsmStatus.LD_DIMS
            else:
                t = fsm.tables
                if (t.vocab_size > self.geo.vocab_max or t.state_bits > self.geo.state_w
                        or t.class_bits > self.geo.class_w
                        or t.linked.size > self.geo.ns_cap
                        or t.num_mask_rows > self.geo.row_cap):
                    status = FsmStatus.LD_CAPACITY
        if status == FsmStatus.OK:
            self.grammars[grammar] = fsm
            self.slots = {k: s for k, s in self.slots.items() if s.grammar != grammar}
        return FsmRsp(op=FsmOp.LOAD, status=status, grammar=grammar & 0xFF, accepted=False,
                      accepting=False, forced_valid=False, violated=False, slot=0, state=0,
                      forced=0, aux=len(image) & M32)
