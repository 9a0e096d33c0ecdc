# SPDX-License-Identifier: Apache-2.0
"""krnl_radix buffer formats (docs/kernels.md): length-prefixed command frames in,
back-to-back response frames out. The core's 512-bit beats travel as 8 64-bit
words each, the earliest word in the lowest bits."""

from __future__ import annotations

import struct

from uvm_env.radix.protocol import OP_EVICT, OP_MATCH, RadixRsp, decode_rsp
from uvm_env.radix.radix_item import RadixCmd

DATA_W = 512
WORDS = DATA_W // 64
_M64 = (1 << 64) - 1


def _words(beat: int) -> list[int]:
    return [(beat >> (64 * i)) & _M64 for i in range(WORDS)]


def command_buffer(cmds: list[RadixCmd]) -> bytes:
    words: list[int] = []
    for cmd in cmds:
        cmd.data_w = DATA_W
        beats = cmd.beats()
        words += [len(beats) * WORDS, *(w for b in beats for w in _words(b))]
    return struct.pack(f"<{len(words)}Q", *words)


def split_responses(data: bytes, cmds: list[RadixCmd]) -> list[RadixRsp]:
    """Cut the response buffer into frames using only what the DUT wrote.

    A frame is k data beats then one trailer beat, WORDS words each; for
    MATCH/EVICT the trailer's field a says how many KV indices (k = ceil(a/16)),
    otherwise k = 0.
    """
    words = list(struct.unpack(f"<{len(data) // 8}Q", data))
    beats = [sum(w << (64 * i) for i, w in enumerate(words[j:j + WORDS]))
             for j in range(0, len(words) - WORDS + 1, WORDS)]
    out, pos = [], 0
    for cmd in cmds:
        k = 0
        if cmd.op in (OP_MATCH, OP_EVICT):
            while pos + k < len(beats):
                t0 = beats[pos + k]
                if t0 & 0xFF == cmd.op and -(-((t0 >> 32) & 0xFFFF_FFFF) // 16) == k:
                    break
                k += 1
        frame = beats[pos:pos + k + 1]
        pos += k + 1
        if len(frame) < 1 or pos > len(beats):
            out.append(RadixRsp(op=-1, status=-1, a=0, b=0, c=0))
            continue
        count = (frame[-1] >> 32) & 0xFFFF_FFFF if k else 0
        out.append(decode_rsp(frame, count, DATA_W))
    return out
