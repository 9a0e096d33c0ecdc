# SPDX-License-Identifier: Apache-2.0
"""Beat formats of the radix controller's streams (docs/radix-protocol.md).

Mirrors rtl/radix/radix_pkg.sv; tests/scripts/test_radix_protocol.py keeps the two equal.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from uvm_env.radix.csr_regs import CSR  # noqa: F401  (generated from rtl/radix/radix_regs.yml)

OP_MATCH, OP_INSERT, OP_EVICT, OP_LOCK, OP_UNLOCK, OP_SIZES, OP_RESET = range(1, 8)
OP_NAMES = {OP_MATCH: "MATCH", OP_INSERT: "INSERT", OP_EVICT: "EVICT", OP_LOCK: "LOCK",
            OP_UNLOCK: "UNLOCK", OP_SIZES: "SIZES", OP_RESET: "RESET"}

ST_OK, ST_OPCODE, ST_LENGTH, ST_FRAMING, ST_KVCOUNT = 0, 1, 2, 3, 4
ST_CAPACITY, ST_UNDERFLOW, ST_HANDLE, ST_NAMESPACE, ST_OVERFLOW = 5, 6, 7, 8, 9
ST_NAMES = {ST_OK: "OK", ST_OPCODE: "OPCODE", ST_LENGTH: "LENGTH", ST_FRAMING: "FRAMING",
            ST_KVCOUNT: "KVCOUNT", ST_CAPACITY: "CAPACITY", ST_UNDERFLOW: "UNDERFLOW",
            ST_HANDLE: "HANDLE", ST_NAMESPACE: "NAMESPACE", ST_OVERFLOW: "OVERFLOW"}

M32 = 0xFFFF_FFFF


@dataclass
class RadixRsp:
    op: int
    status: int
    a: int
    b: int
    c: int
    kvs: list[int] = field(default_factory=list)

    def fields(self) -> dict[str, object]:
        return {"op": OP_NAMES.get(self.op, self.op), "status": ST_NAMES.get(self.status),
                "a": self.a, "b": self.b, "c": self.c, "kvs": self.kvs}


TRAILER_BITS = 128  # {c, b, a, 16'h0, status, op}, split over beats when DataW < 128


def handle(slot: int, gen: int) -> int:
    """{4'h0, generation[7:0], slot[19:0]}."""
    return (gen & 0xFF) << 20 | (slot & 0xF_FFFF)


def header(op: int, ns: int = 0, kvcnt: int = 0, arg: int = 0) -> int:
    return (op & 0xFF) | (ns & 0xFF) << 8 | (kvcnt & 0xFFFF) << 16 | (arg & M32) << 32


def pack_words(words: list[int], data_w: int) -> list[int]:
    """data_w/32 words per beat, the earliest in the lowest lane; the last beat zero-padded."""
    lanes = data_w // 32
    out = []
    for i in range(0, len(words), lanes):
        beat = 0
        for j, w in enumerate(words[i:i + lanes]):
            beat |= (w & M32) << (32 * j)
        out.append(beat)
    return out


def trailer_beats(data_w: int) -> int:
    return -(-TRAILER_BITS // data_w)


def decode_rsp(beats: list[int], kv_count: int, data_w: int) -> RadixRsp:
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
    """The exact frame the DUT must send for rsp: data beats with zero-padded unused lanes,
    then the trailer with every reserved bit zero."""
    trailer = ((rsp.op & 0xFF) | (rsp.status & 0xFF) << 8 | (rsp.a & M32) << 32
               | (rsp.b & M32) << 64 | (rsp.c & M32) << 96)
    mask = (1 << data_w) - 1
    tail = [(trailer >> (data_w * i)) & mask for i in range(trailer_beats(data_w))]
    return pack_words(rsp.kvs, data_w) + tail


def data_beats(kv_count: int, data_w: int) -> int:
    return -(-kv_count // (data_w // 32))


def to_signed32(x: int) -> int:
    return x - (1 << 32) if x & 0x8000_0000 else x
