# SPDX-License-Identifier: Apache-2.0
"""The bytes on the wire, in one place: radix and token-FSM command and response beats,
the Vitis kernels' command/response/mask buffers, their argument blocks, and table images.

The host driver encodes with these functions and the simulation benches (uvm_env) drive
the RTL with the same ones, so every simulation of the cores and kernels tests this module.
Formats: docs/radix-protocol.md, docs/fsm-protocol.md, docs/kernels.md,
docs/table-format.md. Beats are Python ints, the earliest word in the lowest bits.
"""

from __future__ import annotations

import struct
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import IntEnum

from .models.table_image import TableImageError, image_bytes, load_image

__all__ = ["TableImageError", "image_bytes", "load_image"]  # table images, as the models write

M32 = 0xFFFF_FFFF
M64 = (1 << 64) - 1

# ---- radix controller streams (docs/radix-protocol.md) ------------------------------------
class RadixOp(IntEnum):
    MATCH = 1
    INSERT = 2
    EVICT = 3
    LOCK = 4
    UNLOCK = 5
    SIZES = 6
    RESET = 7


class RadixStatus(IntEnum):
    OK = 0
    OPCODE = 1
    LENGTH = 2
    FRAMING = 3
    KVCOUNT = 4
    CAPACITY = 5
    UNDERFLOW = 6
    HANDLE = 7
    NAMESPACE = 8
    OVERFLOW = 9
    MEMORY = 10


RADIX_OP_NAMES = {int(o): o.name for o in RadixOp}
RADIX_ST_NAMES = {int(s): s.name for s in RadixStatus}
TRAILER_BITS = 128  # {c, b, a, 16'h0, status, op}, split over beats when DataW < 128
KERNEL_DATA_W = 512  # the kernels' core streams


@dataclass
class RadixRsp:
    op: int
    status: int
    a: int
    b: int
    c: int
    kvs: list[int] = field(default_factory=list)

    def fields(self) -> dict[str, object]:
        return {"op": RADIX_OP_NAMES.get(self.op, self.op),
                "status": RADIX_ST_NAMES.get(self.status),
                "a": self.a, "b": self.b, "c": self.c, "kvs": self.kvs}


def handle(slot: int, gen: int) -> int:
    """{4'h0, generation[7:0], slot[19:0]}."""
    return (gen & 0xFF) << 20 | (slot & 0xF_FFFF)


def header(op: int, ns: int = 0, kvcnt: int = 0, arg: int = 0) -> int:
    return (op & 0xFF) | (ns & 0xFF) << 8 | (kvcnt & 0xFFFF) << 16 | (arg & M32) << 32


def pack_words(words: Sequence[int], data_w: int) -> list[int]:
    """data_w/32 words per beat, the earliest in the lowest lane; the last beat zero-padded."""
    lanes = data_w // 32
    out = []
    for i in range(0, len(words), lanes):
        beat = 0
        for j, w in enumerate(words[i:i + lanes]):
            beat |= (int(w) & M32) << (32 * j)
        out.append(beat)
    return out


def radix_command_beats(op: int, ns: int = 0, tokens: Sequence[int] = (),
                        kvs: Sequence[int] = (), arg: int | None = None,
                        kvcnt: int | None = None, data_w: int = KERNEL_DATA_W) -> list[int]:
    """One command frame: header, then token beats (MATCH, INSERT) and KV beats (INSERT)."""
    arg = len(tokens) if arg is None else arg
    kvcnt = len(kvs) if kvcnt is None else kvcnt
    out = [header(op, ns, kvcnt if op == RadixOp.INSERT else 0, arg)]
    if op in (RadixOp.MATCH, RadixOp.INSERT):
        out += pack_words(tokens, data_w)
        if op == RadixOp.INSERT:
            out += pack_words(kvs, data_w)
    return out


@dataclass
class RadixCommand:
    """One radix command as the host sends it (fields as in the header and payload)."""

    op: int
    ns: int = 0
    tokens: list[int] = field(default_factory=list)
    kvs: list[int] = field(default_factory=list)
    arg: int | None = None     # None: the token count (MATCH, INSERT)

    def beats(self, data_w: int = KERNEL_DATA_W) -> list[int]:
        return radix_command_beats(self.op, self.ns, self.tokens, self.kvs, self.arg,
                                   data_w=data_w)


def trailer_beats(data_w: int) -> int:
    return -(-TRAILER_BITS // data_w)


def data_beats(kv_count: int, data_w: int) -> int:
    return -(-kv_count // (data_w // 32))


def decode_rsp(beats: Sequence[int], kv_count: int, data_w: int) -> RadixRsp:
    """Data beats (kv_count KV indices, data_w/32 per beat) then the trailer beat(s)."""
    nt = trailer_beats(data_w)
    if len(beats) < nt:
        raise ValueError(f"response of {len(beats)} beats: no trailer")
    trailer = 0
    for i, b in enumerate(beats[len(beats) - nt:]):
        trailer |= b << (data_w * i)
    lanes = data_w // 32
    kvs = [(b >> (32 * j)) & M32 for b in beats[:len(beats) - nt] for j in range(lanes)]
    return RadixRsp(op=trailer & 0xFF, status=(trailer >> 8) & 0xFF, a=(trailer >> 32) & M32,
                    b=(trailer >> 64) & M32, c=(trailer >> 96) & M32, kvs=kvs[:kv_count])


def encode_rsp(rsp: RadixRsp, data_w: int) -> list[int]:
    """The exact frame a core sends for `rsp`: data beats with zero-padded unused lanes,
    then the trailer with every reserved bit zero (the scoreboards compare frames with it)."""
    trailer = ((rsp.op & 0xFF) | (rsp.status & 0xFF) << 8 | (rsp.a & M32) << 32
               | (rsp.b & M32) << 64 | (rsp.c & M32) << 96)
    mask = (1 << data_w) - 1
    tail = [(trailer >> (data_w * i)) & mask for i in range(trailer_beats(data_w))]
    return pack_words(rsp.kvs, data_w) + tail


def to_signed32(x: int) -> int:
    return x - (1 << 32) if x & 0x8000_0000 else x


# ---- token-FSM validator streams (docs/fsm-protocol.md) -----------------------------------
class FsmOp(IntEnum):
    BIND = 1
    ADVANCE = 2
    VALIDATE = 3
    MASK = 4
    RESET_SLOT = 5
    QUERY = 6
    LOAD = 7
    MASK_BATCH = 8


class FsmStatus(IntEnum):
    OK = 0x00
    OPCODE = 0x01
    SLOT = 0x02
    GRAMMAR = 0x03
    VIOLATED = 0x04
    TOKEN = 0x05
    LD_LENGTH = 0x08
    LD_MAGIC = 0x09
    LD_VERSION = 0x0A
    LD_HDR_CRC = 0x0B
    LD_PAY_CRC = 0x0C
    LD_DIMS = 0x0D
    LD_CAPACITY = 0x0E


FSM_OP_NAMES = {int(o): o.name for o in FsmOp}
FSM_ST_NAMES = {int(s): s.name for s in FsmStatus}
MASK_OPS = (FsmOp.MASK, FsmOp.MASK_BATCH)  # opcodes whose OK result comes with a mask frame
MAX_BATCH = 8                              # slots a MASK_BATCH names (a serving batch)
FSM_CMD_ERRORS = (FsmStatus.OPCODE, FsmStatus.SLOT, FsmStatus.GRAMMAR, FsmStatus.VIOLATED,
                  FsmStatus.TOKEN)
FSM_LOAD_ERRORS = tuple(s for s in FsmStatus if s.name.startswith("LD_"))
FSM_NUM_STATUS = 16
FSM_CMD_W = 64
FSM_RSP_W = 128
NO_VIOLATION = M32          # VALIDATE aux when every token was allowed


def cmd_beat(op: int, slot: int = 0, grammar: int = 0, token: int = 0) -> int:
    """[7:0] opcode, [15:8] grammar, [31:16] slot, [63:32] token."""
    return (op & 0xFF) | (grammar & 0xFF) << 8 | (slot & 0xFFFF) << 16 | (token & M32) << 32


def slot_beat(slot: int) -> int:
    """A later MASK_BATCH beat: only the slot field [31:16] is read."""
    return (slot & 0xFFFF) << 16


def token_beat(token: int) -> int:
    """A VALIDATE token beat: only [63:32] is read."""
    return (token & M32) << 32


@dataclass(frozen=True)
class FsmRsp:
    """One result beat, decoded."""

    op: int
    status: int
    grammar: int
    accepted: bool
    accepting: bool
    forced_valid: bool
    violated: bool
    slot: int
    state: int
    forced: int
    aux: int

    @classmethod
    def decode(cls, beat: int) -> FsmRsp:
        return cls(op=beat & 0xFF, status=(beat >> 8) & 0xFF, grammar=(beat >> 16) & 0xFF,
                   accepted=bool(beat >> 24 & 1), accepting=bool(beat >> 25 & 1),
                   forced_valid=bool(beat >> 26 & 1), violated=bool(beat >> 27 & 1),
                   slot=(beat >> 32) & 0xFFFF, state=(beat >> 48) & 0xFFFF,
                   forced=(beat >> 64) & M32, aux=(beat >> 96) & M32)

    def encode(self) -> int:
        return (self.op | self.status << 8 | self.grammar << 16 | int(self.accepted) << 24
                | int(self.accepting) << 25 | int(self.forced_valid) << 26
                | int(self.violated) << 27 | self.slot << 32 | self.state << 48
                | self.forced << 64 | self.aux << 96)

    @classmethod
    def error(cls, op: int, status: int, slot: int = 0, grammar: int = 0, aux: int = 0) -> FsmRsp:
        return cls(op=op, status=status, grammar=grammar, accepted=False, accepting=False,
                   forced_valid=False, violated=False, slot=slot, state=0, forced=0, aux=aux)

    def fields(self) -> dict[str, object]:
        return {"op": FSM_OP_NAMES.get(self.op, hex(self.op)),
                "status": FSM_ST_NAMES.get(self.status, hex(self.status)),
                "grammar": self.grammar, "accepted": self.accepted, "accepting": self.accepting,
                "forced_valid": self.forced_valid, "violated": self.violated, "slot": self.slot,
                "state": self.state, "forced": self.forced, "aux": self.aux}


def fsm_command_beats(op: int, slot: int = 0, grammar: int = 0, token: int = 0,
                      tokens: Sequence[int] = (), slots: Sequence[int] = ()) -> list[int]:
    """One command frame: the command beat, then VALIDATE's token beats, or MASK_BATCH's
    beats for the slots after the first (``slots`` names every slot of the batch)."""
    if op == FsmOp.VALIDATE:
        return [cmd_beat(op, slot, grammar), *map(token_beat, tokens)]
    if op == FsmOp.MASK_BATCH:
        slots = list(slots) or [slot]
        return [cmd_beat(op, slots[0]), *map(slot_beat, slots[1:])]
    return [cmd_beat(op, slot, grammar, token)]


@dataclass
class FsmCommand:
    """One token-FSM command as the host sends it (fields as in the command beat)."""

    op: int
    slot: int = 0
    grammar: int = 0
    token: int = 0
    tokens: list[int] = field(default_factory=list)   # VALIDATE's token beats
    slots: list[int] = field(default_factory=list)    # MASK_BATCH's slots

    def beats(self) -> list[int]:
        return fsm_command_beats(self.op, self.slot, self.grammar, self.token, self.tokens,
                                 self.slots)

    def results(self) -> int:
        """Results the core answers it with: one per slot of a MASK_BATCH, else one."""
        return max(1, len(self.slots)) if self.op == FsmOp.MASK_BATCH else 1


def mask_beats(vocab_size: int, mask_w: int) -> int:
    return (vocab_size + mask_w - 1) // mask_w


def mask_to_int(beats: Iterable[int], mask_w: int) -> int:
    """Mask beats (bit i of beat m = token m*mask_w + i) as one integer over the vocabulary."""
    out = 0
    for m, b in enumerate(beats):
        out |= b << (m * mask_w)
    return out


# ---- Vitis kernel buffers and control (docs/kernels.md) -----------------------------------
AP_START, AP_DONE, AP_IDLE = 0x1, 0x2, 0x4
REG_CTRL, REG_GIE, REG_IER, REG_ISR, REG_ARGS = 0x00, 0x04, 0x08, 0x0C, 0x10
# cmd_ptr, cmd_words, rsp_ptr, rsp_capacity, l2_ptr | rsp_words, status
RADIX_ARGS, RADIX_OUTS = 5, 2
FSM_ARGS, FSM_OUTS = 8, 3        # ..., mask_ptr/capacity, table_ptr/bytes | +mask_words
RADIX_ST_OVERFLOW, RADIX_ST_MISALIGNED, RADIX_ST_L2_MOVED = 0, 1, 2   # status bits
RADIX_STATUS_BITS = {RADIX_ST_OVERFLOW: "response buffer overflow",
                     RADIX_ST_MISALIGNED: "misaligned buffer",
                     RADIX_ST_L2_MOVED: "L2 region moved (l2_ptr differs from the bound region)"}
FSM_STATUS_BITS = {0: "result buffer overflow", 1: "mask buffer overflow",
                   2: "misaligned buffer"}
WORDS_PER_BEAT = KERNEL_DATA_W // 64


def arg_writes(args: Sequence[int]) -> list[tuple[int, int]]:
    """The control-register writes that set 64-bit arguments: (offset, 32-bit value),
    low word first."""
    out = []
    for i, value in enumerate(args):
        out += [(REG_ARGS + 8 * i, value & M32), (REG_ARGS + 8 * i + 4, (value >> 32) & M32)]
    return out


def result_offsets(num_args: int, num_outs: int) -> list[int]:
    """Offsets of the 32-bit read-only results, right after the arguments."""
    return [REG_ARGS + 8 * num_args + 4 * i for i in range(num_outs)]


def frame_buffer(frames: Iterable[Sequence[int]], words_per_beat: int = 1) -> bytes:
    """Command buffer: each frame as a length word (64-bit words that follow) and its beats,
    ``words_per_beat`` 64-bit words each, lowest first."""
    words: list[int] = []
    for beats in frames:
        words.append(len(beats) * words_per_beat)
        words += [(b >> (64 * i)) & M64 for b in beats for i in range(words_per_beat)]
    return struct.pack(f"<{len(words)}Q", *words)


def buffer_beats(data: bytes, words_per_beat: int) -> list[int]:
    """Whole beats of ``words_per_beat`` 64-bit words each (a partial tail is dropped)."""
    words = struct.unpack(f"<{len(data) // 8}Q", data[:len(data) // 8 * 8])
    return [sum(w << (64 * i) for i, w in enumerate(words[j:j + words_per_beat]))
            for j in range(0, len(words) - words_per_beat + 1, words_per_beat)]


def radix_command_buffer(frames: Iterable[Sequence[int]]) -> bytes:
    """krnl_radix command buffer from 512-bit command frames."""
    return frame_buffer(frames, WORDS_PER_BEAT)


def radix_split_responses(data: bytes, ops: Sequence[int]) -> list[RadixRsp]:
    """Cut a krnl_radix response buffer into one response per command (``ops`` in order),
    using only what the kernel wrote: MATCH and EVICT frames have k data beats before
    their trailer, where the trailer's field a (KV count) gives k = ceil(a/16); every other
    frame is its trailer alone. A response the buffer does not hold comes back with
    op = status = -1."""
    beats = buffer_beats(data, WORDS_PER_BEAT)
    lanes = KERNEL_DATA_W // 32
    out, pos = [], 0
    for op in ops:
        k = 0
        if op in (RadixOp.MATCH, RadixOp.EVICT):
            while pos + k < len(beats):
                t0 = beats[pos + k]
                if t0 & 0xFF == op and -(-((t0 >> 32) & M32) // lanes) == k:
                    break
                k += 1
        frame = beats[pos:pos + k + 1]
        pos += k + 1
        if len(frame) < 1 or pos > len(beats):
            out.append(RadixRsp(op=-1, status=-1, a=0, b=0, c=0))
            continue
        count = (frame[-1] >> 32) & M32 if k else 0
        out.append(decode_rsp(frame, count, KERNEL_DATA_W))
    return out


def fsm_command_buffer(frames: Iterable[Sequence[int]]) -> bytes:
    """krnl_fsm command buffer from 64-bit command frames."""
    return frame_buffer(frames, 1)


def fsm_results(data: bytes) -> list[FsmRsp]:
    """A krnl_fsm result buffer: one 128-bit result (two words, low first) per command."""
    return [FsmRsp.decode(b) for b in buffer_beats(data, FSM_RSP_W // 64)]


def fsm_mask_beats(data: bytes, mask_w: int = 512) -> list[int]:
    """A krnl_fsm mask buffer: mask beats of mask_w bits, eight words per 512 bits."""
    return buffer_beats(data, mask_w // 64)
