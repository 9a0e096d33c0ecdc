# SPDX-License-Identifier: Apache-2.0
"""krnl_fsm buffer formats (docs/kernels.md): length-prefixed command frames in;
128-bit results (two words each) and 512-bit mask beats (eight words each) out."""

from __future__ import annotations

import struct
from dataclasses import dataclass, field

from uvm_env.fsm.protocol import OP_VALIDATE, FsmRsp, cmd_beat, token_beat


@dataclass
class FsmCmd:
    op: int
    slot: int = 0
    grammar: int = 0
    token: int = 0
    tokens: list[int] = field(default_factory=list)   # VALIDATE's token beats

    def beats(self) -> list[int]:
        head = cmd_beat(self.op, self.slot, self.grammar, self.token)
        if self.op == OP_VALIDATE:
            return [head, *(token_beat(t) for t in self.tokens)]
        return [head]


def command_buffer(cmds: list[FsmCmd]) -> bytes:
    words: list[int] = []
    for cmd in cmds:
        beats = cmd.beats()
        words += [len(beats), *beats]
    return struct.pack(f"<{len(words)}Q", *words)


def results(data: bytes) -> list[FsmRsp]:
    words = struct.unpack(f"<{len(data) // 8}Q", data)
    return [FsmRsp.decode(words[i] | words[i + 1] << 64) for i in range(0, len(words) - 1, 2)]


def mask_beats(data: bytes, mask_w: int = 512) -> list[int]:
    words = struct.unpack(f"<{len(data) // 8}Q", data)
    per = mask_w // 64
    return [sum(w << (64 * k) for k, w in enumerate(words[i:i + per]))
            for i in range(0, len(words) - per + 1, per)]
