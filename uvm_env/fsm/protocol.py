# SPDX-License-Identifier: Apache-2.0
"""Beat formats of the token-FSM validator's streams (docs/fsm-protocol.md).

Mirrors rtl/fsm/fsm_pkg.sv; tests/scripts/test_fsm_protocol.py keeps the two equal.
"""

from __future__ import annotations

from dataclasses import dataclass

# The register map is generated from rtl/fsm/fsm_regs.yml (make regs).
from uvm_env.fsm.csr_regs import CSR, CSR_ERR_BASE, CSR_WORDS, FSM_ID  # noqa: F401

OP_BIND, OP_ADVANCE, OP_VALIDATE, OP_MASK, OP_RESET, OP_QUERY, OP_LOAD, OP_MASK_BATCH = \
    range(1, 9)
OP_NAMES = {OP_BIND: "BIND", OP_ADVANCE: "ADVANCE", OP_VALIDATE: "VALIDATE", OP_MASK: "MASK",
            OP_RESET: "RESET_SLOT", OP_QUERY: "QUERY", OP_LOAD: "LOAD",
            OP_MASK_BATCH: "MASK_BATCH"}
MASK_OPS = (OP_MASK, OP_MASK_BATCH)     # opcodes whose OK result comes with a mask frame
MAX_BATCH = 8                           # slots a MASK_BATCH names (a serving batch)

ST_OK = 0x00
ST_OPCODE, ST_SLOT, ST_GRAMMAR, ST_VIOLATED, ST_TOKEN = 0x01, 0x02, 0x03, 0x04, 0x05
ST_LD_LENGTH, ST_LD_MAGIC, ST_LD_VERSION, ST_LD_HDR_CRC = 0x08, 0x09, 0x0A, 0x0B
ST_LD_PAY_CRC, ST_LD_DIMS, ST_LD_CAPACITY = 0x0C, 0x0D, 0x0E
ST_NAMES = {ST_OK: "OK", ST_OPCODE: "OPCODE", ST_SLOT: "SLOT", ST_GRAMMAR: "GRAMMAR",
            ST_VIOLATED: "VIOLATED", ST_TOKEN: "TOKEN", ST_LD_LENGTH: "LD_LENGTH",
            ST_LD_MAGIC: "LD_MAGIC", ST_LD_VERSION: "LD_VERSION", ST_LD_HDR_CRC: "LD_HDR_CRC",
            ST_LD_PAY_CRC: "LD_PAY_CRC", ST_LD_DIMS: "LD_DIMS", ST_LD_CAPACITY: "LD_CAPACITY"}
CMD_ERRORS = (ST_OPCODE, ST_SLOT, ST_GRAMMAR, ST_VIOLATED, ST_TOKEN)
LOAD_ERRORS = (ST_LD_LENGTH, ST_LD_MAGIC, ST_LD_VERSION, ST_LD_HDR_CRC, ST_LD_PAY_CRC,
               ST_LD_DIMS, ST_LD_CAPACITY)
NUM_STATUS = 16

CMD_W = 64
RSP_W = 128
M32 = 0xFFFF_FFFF
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
        return {"op": OP_NAMES.get(self.op, hex(self.op)),
                "status": ST_NAMES.get(self.status, hex(self.status)),
                "grammar": self.grammar, "accepted": self.accepted, "accepting": self.accepting,
                "forced_valid": self.forced_valid, "violated": self.violated, "slot": self.slot,
                "state": self.state, "forced": self.forced, "aux": self.aux}


def mask_beats(vocab_size: int, mask_w: int) -> int:
    return (vocab_size + mask_w - 1) // mask_w


def mask_to_int(beats: list[int], mask_w: int) -> int:
    """Mask beats (bit i of beat m = token m*mask_w + i) as one integer over the vocabulary."""
    out = 0
    for m, b in enumerate(beats):
        out |= b << (m * mask_w)
    return out
