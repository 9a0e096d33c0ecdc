# SPDX-License-Identifier: Apache-2.0
"""The host side of the Vitis kernels (docs/kernels.md), on any card: one batch of commands
per run. A card gives buffers in the kernel's memory and runs the kernel to completion;
the simulated card (``sim``) and XRT (``xrt``) are the two implementations.

Every answer is checked before it is returned: the kernel's status bits, one response
per command, each echoing its command's opcode. A fault raises; nothing is guessed."""

from __future__ import annotations

from typing import Protocol

from ..errors import KernelError, ResponseError
from ..l2_layout import L2Layout
from ..wire import (
    FSM_OUTS,
    FSM_RSP_W,
    FSM_STATUS_BITS,
    KERNEL_DATA_W,
    RADIX_OUTS,
    RADIX_STATUS_BITS,
    WORDS_PER_BEAT,
    FsmCommand,
    FsmOp,
    FsmRsp,
    RadixCommand,
    RadixOp,
    RadixRsp,
    data_beats,
    fsm_command_buffer,
    fsm_mask_beats,
    fsm_results,
    radix_command_buffer,
    radix_split_responses,
)


class Buffer(Protocol):
    """A buffer in the card's memory; write and read include the sync to and from it."""

    def write(self, data: bytes) -> None: ...
    def read(self, nbytes: int) -> bytes: ...


class Card(Protocol):
    """One kernel on one card."""

    params: dict[str, int]      # the kernel's build parameters

    def buffer(self, name: str, nbytes: int, arg: int) -> Buffer: ...
    def run(self, args: list[int | Buffer]) -> list[int]: ...
    def close(self) -> None: ...


def _check_status(status: int, bits: dict[int, str]) -> None:
    if status:
        what = ", ".join(name for bit, name in bits.items() if status >> bit & 1)
        raise KernelError(f"kernel status {status:#x}: {what or 'unknown bit'}", status)


class RadixKernelBackend:
    """krnl_radix: command frames in, response frames out, one run per batch.

    With ``L2`` (the kernel's default) the tables live in one DDR region that the first
    run binds for good (docs/kernels.md): it is allocated here, once, and passed to
    every run."""

    # krnl_radix's RTL default: a card that reports no L2 parameter runs the L2 build.
    L2_DEFAULT = 1

    def __init__(self, card: Card) -> None:
        self.card = card
        self.params = card.params
        self.l2: Buffer | None = None
        if int(self.params.get("L2", self.L2_DEFAULT)):
            # Absent parameters take radix_top's defaults, each at least krnl_radix's,
            # so the region is never too small.
            self.l2 = card.buffer("l2", L2Layout.of_params(self.params).total, 4)

    def execute(self, cmds: list[RadixCommand]) -> list[RadixRsp]:
        if not cmds:
            return []
        buf = radix_command_buffer(c.beats() for c in cmds)
        cap = sum(self._max_beats(c) for c in cmds) * WORDS_PER_BEAT
        cmd_bo = self.card.buffer("cmd", len(buf), 0)
        rsp_bo = self.card.buffer("rsp", cap * 8, 2)
        cmd_bo.write(buf)
        l2: int | Buffer = self.l2 if self.l2 is not None else 0
        rsp_words, status = self.card.run([cmd_bo, len(buf) // 8, rsp_bo, cap,
                                           l2])[:RADIX_OUTS]
        _check_status(status, RADIX_STATUS_BITS)
        rsps = radix_split_responses(rsp_bo.read(rsp_words * 8), [c.op for c in cmds])
        for i, (c, r) in enumerate(zip(cmds, rsps, strict=True)):
            if r.op != (c.op & 0xFF):
                raise ResponseError(f"response {i} echoes op {r.op:#x}, command was "
                                    f"{c.op:#x}: the response buffer is out of step",
                                    r.status, c.op, i)
        return rsps

    def close(self) -> None:
        self.card.close()

    def _max_beats(self, c: RadixCommand) -> int:
        """Beats the answer can take: the trailer, plus KV beats for MATCH and EVICT."""
        if c.op == RadixOp.MATCH:
            return 1 + data_beats(len(c.tokens), KERNEL_DATA_W)
        if c.op == RadixOp.EVICT:   # whole nodes go, so up to everything cached
            return 1 + data_beats(int(self.params.get("TokenCap", 1 << 16)), KERNEL_DATA_W)
        return 1


class FsmKernelBackend:
    """krnl_fsm: commands (and an optional table image) in, results and masks out."""

    def __init__(self, card: Card) -> None:
        self.card = card
        self.params = card.params
        self.mask_w = 512

    def execute(self, cmds: list[FsmCommand], image: bytes | None = None
                ) -> tuple[list[FsmRsp], list[int]]:
        """Results in command order and the mask beats of every OK mask result, in order
        (the caller knows each grammar's vocabulary, so it splits them)."""
        if not cmds:
            return [], []
        n_results = sum(c.results() for c in cmds)
        vocab = int(self.params.get("VocabMax", 50257))
        per_mask = -(-vocab // self.mask_w) * (self.mask_w // 64)
        n_masks = sum(c.results() for c in cmds if c.op in (FsmOp.MASK, FsmOp.MASK_BATCH))
        buf = fsm_command_buffer(c.beats() for c in cmds)
        rsp_cap = n_results * FSM_RSP_W // 64
        mask_cap = max(1, n_masks * per_mask)
        table = image or b""
        bos = [self.card.buffer("cmd", len(buf), 0), self.card.buffer("rsp", rsp_cap * 8, 2),
               self.card.buffer("mask", mask_cap * 8, 4),
               self.card.buffer("table", max(64, len(table)), 6)]
        bos[0].write(buf)
        if table:
            bos[3].write(table)
        outs = self.card.run([bos[0], len(buf) // 8, bos[1], rsp_cap, bos[2], mask_cap,
                              bos[3], len(table)])
        rsp_words, mask_words, status = outs[:FSM_OUTS]
        _check_status(status, FSM_STATUS_BITS)
        rsps = fsm_results(bos[1].read(rsp_words * 8))
        if len(rsps) != n_results:
            raise ResponseError(f"{len(rsps)} results for {n_results} expected", status)
        return rsps, fsm_mask_beats(bos[2].read(mask_words * 8), self.mask_w)

    def close(self) -> None:
        self.card.close()

