# SPDX-License-Identifier: Apache-2.0
"""Read signatures of the radix controller's walk contexts, bit for bit as
rtl/radix/radix_read_sig.sv computes them (docs/radix-concurrency.md).

A signature is a Bloom filter of ``sig_bits`` bits; a key sets ``num_hash`` of them, each
an H3 hash (the XOR of the key bits one row of a fixed pseudo-random matrix selects).
The matrix comes from one xorshift32 stream, exactly as the RTL's ``h3_row``.

Key encoding (``key_of``): bits [31:30] the kind, [29:0] its operand.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

KIND_CHILD = 0   # a child-table bucket: a lookup read it, a new child or split writes it
KIND_EDGE = 1    # a node's edge (key and value span): compared by a walk, cut by a split
KIND_PARENT = 2  # a node's parent pointer: read going up by LOCK/UNLOCK, moved by a split
KEY_W = 32
_OPERAND_W = 30
_MASK32 = 0xFFFF_FFFF
_SEED = 0x9E37_79B9


def key_of(kind: int, operand: int) -> int:
    """The 32-bit key of a table item."""
    if not 0 <= kind < 4:
        raise ValueError(f"kind {kind}: expected 0..3")
    if not 0 <= operand < 1 << _OPERAND_W:
        raise ValueError(f"operand {operand:#x}: expected {_OPERAND_W} bits")
    return kind << _OPERAND_W | operand


def child_operand(ns: int, parent: int, page: int, node_w: int, page_bits: int) -> int:
    """The operand of a child-index entry's key, as radix_core's ``sig_fold``: the
    entry's key {page, parent, ns} folded into 30 bits by XOR."""
    v = ns | parent << 8 | page << (8 + node_w)
    out = 0
    for i in range(0, 8 + node_w + page_bits, _OPERAND_W):
        out ^= (v >> i) & ((1 << _OPERAND_W) - 1)
    return out


def _xorshift(x: int) -> int:
    x ^= (x << 13) & _MASK32
    x ^= x >> 17
    x ^= (x << 5) & _MASK32
    return x


@cache
def h3_row(h: int, b: int) -> int:
    """Row (h, b) of the H3 matrix, 64 bits: the xorshift32 stream from a fixed seed,
    row r = 64 h + b taking states 2r + 1 (low word) and 2r + 2 (high word).

    One stream, not a seed per row: xorshift is linear, so rows seeded with nearby
    integers would span a space of a few dimensions and the hashes would collide.
    Consecutive states of the full-period generator are linearly independent, so the
    rows of one key width are too (tests/models/test_radix_signature.py checks it)."""
    x = _SEED
    for _ in range(2 * (64 * h + b) + 1):
        x = _xorshift(x)
    return _xorshift(x) << 32 | x


def key_indices(key: int, sig_bits: int = 256, num_hash: int = 3,
                key_w: int = KEY_W) -> tuple[int, ...]:
    """The signature bit each hash of `key` selects."""
    if sig_bits < 2 or sig_bits & (sig_bits - 1):
        raise ValueError(f"sig_bits {sig_bits}: expected a power of two")
    idx_w = sig_bits.bit_length() - 1
    key &= (1 << key_w) - 1
    return tuple(sum((((key & h3_row(h, b)).bit_count()) & 1) << b for b in range(idx_w))
                 for h in range(num_hash))


def key_mask(key: int, sig_bits: int = 256, num_hash: int = 3, key_w: int = KEY_W) -> int:
    """The key's bits as a signature."""
    return sum({1 << i for i in key_indices(key, sig_bits, num_hash, key_w)})


@dataclass
class ReadSignature:
    """One context's signature, with the exact set beside it (for a test's false-negative
    check and a study's false-positive count)."""

    sig_bits: int = 256
    num_hash: int = 3
    key_w: int = KEY_W
    bits: int = 0
    keys: set[int] = field(default_factory=set)

    def clear(self) -> None:
        self.bits = 0
        self.keys.clear()

    def add(self, key: int) -> None:
        self.bits |= key_mask(key, self.sig_bits, self.num_hash, self.key_w)
        self.keys.add(key & ((1 << self.key_w) - 1))

    def may_hold(self, key: int) -> bool:
        m = key_mask(key, self.sig_bits, self.num_hash, self.key_w)
        return self.bits & m == m

    def holds(self, key: int) -> bool:
        return key & ((1 << self.key_w) - 1) in self.keys
