# SPDX-License-Identifier: Apache-2.0
"""FsmCmd: one command, its beats, and (once the driver has it) its result and mask."""

from __future__ import annotations

from cocotb.triggers import Event
from pyuvm import uvm_sequence_item

from uvm_env.fsm.protocol import (
    OP_ADVANCE,
    OP_LOAD,
    OP_MASK_BATCH,
    OP_NAMES,
    OP_VALIDATE,
    FsmRsp,
    fsm_command_beats,
)


class FsmCmd(uvm_sequence_item):
    """A command as the host would send it.

    ``tokens`` are VALIDATE's token beats; ``image`` is the table image a LOAD
    streams on the load port (possibly corrupted on purpose); ``load_keep_last``
    overrides the last load beat's TKEEP for framing errors. ``expect_mask`` is
    set by the driver from the predictor-independent rule "a MASK that the core
    accepts streams a mask", so the driver knows which results carry one."""

    def __init__(self, name: str = "fsm_cmd", op: int = OP_ADVANCE, slot: int = 0,
                 grammar: int = 0, token: int = 0, tokens: list[int] | None = None,
                 image: bytes | None = None, load_keep_last: int | None = None,
                 slots: list[int] | None = None) -> None:
        super().__init__(name)
        self.op, self.slot, self.grammar, self.token = op, slot, grammar, token
        # MASK_BATCH: the slots in packet order (slot = the first); one result each.
        self.slots = list(slots) if slots else [slot]
        self.rsps: list[FsmRsp] = []
        self.masks: list[list[int] | None] = []
        self.tokens = list(tokens or [])
        self.image = image
        self.load_keep_last = load_keep_last
        self.source: object | None = None   # LOAD: the Grammar whose image this is, if intact
        self.tag = ""                  # free text for logs (which sequence made it)
        self.rsp: FsmRsp | None = None
        self.mask: list[int] | None = None   # mask beats, when the result says OK
        self.done = Event()
        self.aborted = False   # a reset dropped it: no result will come
        self.seq_no = -1
        # Simulation times (ns) of the handshakes, for the benchmark.
        self.t_cmd = 0.0
        self.t_rsp = 0.0

    def beats(self) -> list[int]:
        return fsm_command_beats(self.op, self.slot, self.grammar, self.token, self.tokens,
                                 self.slots)

    def __str__(self) -> str:
        name = OP_NAMES.get(self.op, f"op{self.op:#x}")
        if self.op == OP_VALIDATE:
            toks = self.tokens[:6]
            more = "..." if len(self.tokens) > 6 else ""
            return (f"#{self.seq_no} VALIDATE(slot={self.slot} tokens={toks}{more} "
                    f"n={len(self.tokens)})")
        if self.op == OP_MASK_BATCH:
            return f"#{self.seq_no} MASK_BATCH(slots={self.slots})"
        if self.op == OP_LOAD:
            size = len(self.image) if self.image is not None else 0
            return f"#{self.seq_no} LOAD(grammar={self.grammar} bytes={size} {self.tag})"
        return f"#{self.seq_no} {name}(slot={self.slot} grammar={self.grammar} token={self.token})"
