# SPDX-License-Identifier: Apache-2.0
"""krnl_radix buffer formats (docs/kernels.md): length-prefixed command frames in,
back-to-back response frames out."""

from __future__ import annotations

import struct

from uvm_env.radix.protocol import OP_EVICT, OP_MATCH, RadixRsp, decode_rsp
from uvm_env.radix.radix_item import RadixCmd


def command_buffer(cmds: list[RadixCmd]) -> bytes:
    words: list[int] = []
    for cmd in cmds:
        beats = cmd.beats()
        words += [len(beats), *beats]
    return struct.pack(f"<{len(words)}Q", *words)


def split_responses(data: bytes, cmds: list[RadixCmd]) -> list[RadixRsp]:
    """Cut the response buffer into frames using only what the DUT wrote.

    A frame is k data beats then two trailer beats; for MATCH/EVICT the first
    trailer's field a says how many KV indices (so k = ceil(a/2)), otherwise k = 0.
    """
    beats = list(struct.unpack(f"<{len(data) // 8}Q", data))
    out, pos = [], 0
    for cmd in cmds:
        k = 0
        if cmd.op in (OP_MATCH, OP_EVICT):
            while pos + k < len(beats):
                t0 = beats[pos + k]
                if t0 & 0xFF == cmd.op and ((t0 >> 32) + 1) // 2 == k:
                    break
                k += 1
        frame = beats[pos:pos + k + 2]
        pos += k + 2
        t0 = frame[-2] if len(frame) >= 2 else 0
        out.append(decode_rsp(frame, (t0 >> 32) if k else 0) if len(frame) >= 2 else
                   RadixRsp(op=-1, status=-1, a=0, b=0, c=0))
    return out
