# SPDX-License-Identifier: Apache-2.0
"""RadixCmd: one command, its encoded beats, and (after the driver) its response."""

from __future__ import annotations

from cocotb.triggers import Event
from pyuvm import uvm_sequence_item

from sglang_fpga.wire import radix_command_beats
from uvm_env.radix.protocol import OP_MATCH, OP_NAMES, ST_OK, RadixRsp


class RadixCmd(uvm_sequence_item):
    """Fields mirror the command header. For error injection, `kvcnt` may
    disagree with the tokens, and `beats_delta` shortens (<0) or lengthens
    (>0) the frame so that TLAST disagrees with the length."""

    def __init__(self, name: str = "radix_cmd", op: int = OP_MATCH, ns: int = 0,
                 tokens: list[int] | None = None, kvs: list[int] | None = None,
                 arg: int | None = None, kvcnt: int | None = None,
                 beats_delta: int = 0) -> None:
        super().__init__(name)
        self.op, self.ns = op, ns
        self.tokens = list(tokens or [])
        self.kvs = list(kvs or [])
        self.arg = len(self.tokens) if arg is None else arg
        self.kvcnt = len(self.kvs) if kvcnt is None else kvcnt
        self.beats_delta = beats_delta
        self.rsp: RadixRsp | None = None
        self.rsp_raw: list[int] = []    # the response frame's beats as received
        self.aborted = False            # a reset dropped it: no response will come
        self.data_w = 512           # set by the driver from the DUT
        self.done = Event()         # set when the response has been checked in
        self.t_sent = 0.0      # sim time (ns) the frame was queued, and its response ended
        self.t_done = 0.0

    def ok(self) -> bool:
        """Answered with status OK (False when refused or dropped by a reset)."""
        return self.rsp is not None and self.rsp.status == ST_OK

    def beats(self) -> list[int]:
        out = radix_command_beats(self.op, self.ns, self.tokens, self.kvs, self.arg,
                                  self.kvcnt, self.data_w)
        if self.beats_delta < 0:
            out = out[:max(1, len(out) + self.beats_delta)]
        out += [0] * max(0, self.beats_delta)
        return out

    def __str__(self) -> str:
        toks = self.tokens[:6]
        more = "..." if len(self.tokens) > 6 else ""
        return (f"{OP_NAMES.get(self.op, hex(self.op))}(ns={self.ns} arg={self.arg} "
                f"tokens={toks}{more} n={len(self.tokens)})")
