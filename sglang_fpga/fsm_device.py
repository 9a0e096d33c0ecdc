# SPDX-License-Identifier: Apache-2.0
"""FsmDevice: the token-FSM validator behind one API, on any back end.

    dev = FsmDevice("model")
    dev.load(0, image)                # a table image (sglang_fpga.compiler)
    dev.bind(slot=3, grammar=0)
    allowed = dev.mask(3)             # numpy bool per token; EOS allowed iff accepting
    step = dev.advance(3, token)      # step.accepted False: the token broke the grammar

A token the grammar does not allow is an answer (``accepted`` False, the slot is then
``violated``); a command the core refuses raises the typed ``FsmError`` for its status."""

from __future__ import annotations

import struct
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .backends import open_card
from .backends.fsm_model import FsmGeometry, FsmModelBackend
from .errors import ResponseError, fsm_error
from .wire import MASK_OPS, NO_VIOLATION, FsmCommand, FsmOp, FsmRsp, FsmStatus

_VOCAB_OFFSET = 12   # the image header's vocabulary size (docs/table-format.md)


@dataclass(frozen=True)
class SlotState:
    slot: int
    grammar: int
    state: int
    accepted: bool          # ADVANCE / VALIDATE: every token was allowed
    accepting: bool         # the text so far is a complete match
    forced: int | None      # the only token allowed here, if there is exactly one
    violated: bool
    position: int           # tokens accepted since BIND / RESET_SLOT

    @classmethod
    def of(cls, r: FsmRsp) -> SlotState:
        return cls(r.slot, r.grammar, r.state, r.accepted, r.accepting,
                   r.forced if r.forced_valid else None, r.violated,
                   r.aux if r.op != FsmOp.VALIDATE else -1)


@dataclass
class FsmCounters:
    calls: int = 0
    commands: int = 0
    advances: int = 0
    masks: int = 0
    violations: int = 0


class FsmDevice:
    def __init__(self, backend: str = "model", *, geometry: FsmGeometry | None = None,
                 xclbin: str | Path | None = None, device_index: int = 0,
                 root: str | Path | None = None) -> None:
        if backend == "model":
            self.geometry = geometry or FsmGeometry()
            self._be: object = FsmModelBackend(self.geometry)
        elif backend in ("sim", "xrt"):
            from .backends.kernel import FsmKernelBackend
            card = open_card(backend, "fsm", geometry and geometry.to_params(), xclbin,
                             device_index, root)
            self.geometry = geometry or FsmGeometry.from_params(card.params)  # type: ignore
            self._be = FsmKernelBackend(card)  # type: ignore[arg-type]
        else:
            raise ValueError(f"backend {backend!r}: one of model, sim, xrt")
        self.backend = backend
        self.vocab: dict[int, int] = {}     # grammar -> vocabulary size of its image
        self.counters = FsmCounters()

    # ---- batches -------------------------------------------------------------------
    def execute(self, cmds: Sequence[FsmCommand], image: bytes | None = None,
                check: bool = True) -> tuple[list[FsmRsp], list[np.ndarray]]:
        """Run ``cmds`` in one call; returns the results (one per slot of a MASK_BATCH)
        and the masks of the OK mask results, in order, as bool arrays."""
        cmds = list(cmds)
        rsps, beats = self._be.execute(cmds, image)  # type: ignore[attr-defined]
        want = sum(c.results() for c in cmds)
        if len(rsps) != want:
            raise ResponseError(f"{len(rsps)} results for {want} expected", -1)
        masks = self._split_masks(rsps, beats)
        self._count(rsps)
        if check:
            ops = [c.op for c in cmds for _ in range(c.results())]
            for i, (op, r) in enumerate(zip(ops, rsps, strict=True)):
                if r.status:
                    raise fsm_error(r.status, op, i)
        return rsps, masks

    # ---- single commands -----------------------------------------------------------
    def load(self, grammar: int, image: bytes) -> None:
        """Load a table image into a grammar bank; slots bound to that bank are unbound."""
        self.execute([FsmCommand(FsmOp.LOAD, grammar=grammar)], image=bytes(image))
        self.vocab[grammar] = struct.unpack_from("<I", image, _VOCAB_OFFSET)[0]

    def bind(self, slot: int, grammar: int) -> SlotState:
        return self._state(FsmCommand(FsmOp.BIND, slot=slot, grammar=grammar))

    def advance(self, slot: int, token: int) -> SlotState:
        return self._state(FsmCommand(FsmOp.ADVANCE, slot=slot, token=int(token)))

    def validate(self, slot: int, tokens: Sequence[int]) -> tuple[int | None, SlotState]:
        """Advance through ``tokens``; returns the index of the first refused one (None
        if all were allowed) and the slot's state after them."""
        r = self.execute([FsmCommand(FsmOp.VALIDATE, slot=slot,
                                     tokens=[int(t) for t in tokens])])[0][0]
        return (None if r.aux == NO_VIOLATION else r.aux), SlotState.of(r)

    def query(self, slot: int) -> SlotState:
        return self._state(FsmCommand(FsmOp.QUERY, slot=slot))

    def reset_slot(self, slot: int) -> SlotState:
        return self._state(FsmCommand(FsmOp.RESET_SLOT, slot=slot))

    def mask(self, slot: int) -> np.ndarray:
        return self.execute([FsmCommand(FsmOp.MASK, slot=slot)])[1][0]

    def mask_batch(self, slots: Sequence[int]) -> list[np.ndarray]:
        """One MASK_BATCH command: the masks of up to 8 slots in one packet."""
        return self.execute([FsmCommand(FsmOp.MASK_BATCH, slots=list(slots))])[1]

    def close(self) -> None:
        self._be.close()  # type: ignore[attr-defined]

    def __enter__(self) -> FsmDevice:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ---- helpers -------------------------------------------------------------------
    def _state(self, cmd: FsmCommand) -> SlotState:
        return SlotState.of(self.execute([cmd])[0][0])

    def _split_masks(self, rsps: list[FsmRsp], beats: list[int]) -> list[np.ndarray]:
        """Cut the mask beats by each result's grammar's vocabulary."""
        w = self.geometry.mask_w
        out, pos = [], 0
        for r in rsps:
            if r.status != FsmStatus.OK or r.op not in MASK_OPS:
                continue
            vocab = self.vocab.get(r.grammar)
            if vocab is None:
                raise ResponseError(f"a mask for grammar {r.grammar}, which this driver "
                                    "did not load", r.status, r.op)
            n = -(-vocab // w)
            if pos + n > len(beats):
                raise ResponseError(f"mask beats end after {len(beats)}", r.status, r.op)
            value = 0
            for m, b in enumerate(beats[pos:pos + n]):
                value |= b << (m * w)
            pos += n
            raw = value.to_bytes(n * w // 8, "little")
            out.append(np.unpackbits(np.frombuffer(raw, np.uint8),
                                     bitorder="little")[:vocab].astype(bool))
        if pos != len(beats):
            raise ResponseError(f"{len(beats) - pos} mask beats left over", -1)
        return out

    def _count(self, rsps: list[FsmRsp]) -> None:
        k = self.counters
        k.calls += 1
        k.commands += len(rsps)
        for r in rsps:
            k.advances += r.op == FsmOp.ADVANCE and r.status == FsmStatus.OK
            k.masks += r.op in MASK_OPS and r.status == FsmStatus.OK
            k.violations += r.op in (FsmOp.ADVANCE, FsmOp.VALIDATE) and not r.accepted \
                and r.status == FsmStatus.OK
