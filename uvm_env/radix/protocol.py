# SPDX-License-Identifier: Apache-2.0
"""Beat formats of the radix controller's streams (docs/radix-protocol.md).

Mirrors rtl/radix/radix_pkg.sv; tests/scripts/test_radix_protocol.py keeps the two equal.
"""

from __future__ import annotations

from dataclasses import dataclass, field

OP_MATCH, OP_INSERT, OP_EVICT, OP_LOCK, OP_UNLOCK, OP_SIZES, OP_RESET = range(1, 8)
OP_NAMES = {OP_MATCH: "MATCH", OP_INSERT: "INSERT", OP_EVICT: "EVICT", OP_LOCK: "LOCK",
            OP_UNLOCK: "UNLOCK", OP_SIZES: "SIZES", OP_RESET: "RESET"}

ST_OK, ST_OPCODE, ST_LENGTH, ST_FRAMING, ST_KVCOUNT = 0, 1, 2, 3, 4
ST_CAPACITY, ST_UNDERFLOW, ST_HANDLE, ST_NAMESPACE, ST_OVERFLOW = 5, 6, 7, 8, 9
ST_NAMES = {ST_OK: "OK", ST_OPCODE: "OPCODE", ST_LENGTH: "LENGTH", ST_FRAMING: "FRAMING",
            ST_KVCOUNT: "KVCOUNT", ST_CAPACITY: "CAPACITY", ST_UNDERFLOW: "UNDERFLOW",
            ST_HANDLE: "HANDLE", ST_NAMESPACE: "NAMESPACE", ST_OVERFLOW: "OVERFLOW"}

CSR = {name: i for i, name in enumerate((
    "ID", "CTRL", "STATUS", "IRQ_STATUS", "NODE_CAP", "TOKEN_CAP", "MAX_LEN", "PAGE_SIZE",
    "EVICTABLE", "PROTECTED", "TOTAL", "FREE_NODES", "FREE_SLOTS", "LOOKUPS", "QUERIED", "HIT",
    "INSERTS", "INSERTED", "SPLITS", "EVICTED_NODES", "EVICTED_TOKENS", "ERRORS",
    "BUSY_CYCLES", "LAST_ERROR", "NUM_NS", "WALK_CYCLES", "WALK_NODES"))}

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


def header(op: int, ns: int = 0, kvcnt: int = 0, arg: int = 0) -> int:
    return (op & 0xFF) | (ns & 0xFF) << 8 | (kvcnt & 0xFFFF) << 16 | (arg & M32) << 32


def pack_pairs(words: list[int]) -> list[int]:
    """Two 32-bit words per 64-bit beat, the earlier one in the low half."""
    padded = list(words) + [0] * (len(words) % 2)
    return [(padded[i] & M32) | (padded[i + 1] & M32) << 32 for i in range(0, len(padded), 2)]


def decode_rsp(beats: list[int], kv_count: int) -> RadixRsp:
    """Data beats (kv_count KV indices, two per beat) then two trailer beats."""
    if len(beats) < 2:
        raise ValueError(f"response of {len(beats)} beats: no trailer")
    t0, t1 = beats[-2], beats[-1]
    kvs = [w for b in beats[:-2] for w in (b & M32, b >> 32)][:kv_count]
    return RadixRsp(op=t0 & 0xFF, status=(t0 >> 8) & 0xFF, a=t0 >> 32,
                    b=t1 & M32, c=t1 >> 32, kvs=kvs)


def to_signed32(x: int) -> int:
    return x - (1 << 32) if x & 0x8000_0000 else x
