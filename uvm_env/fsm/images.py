# SPDX-License-Identifier: Apache-2.0
"""Corrupted table images, one kind per refusal class of the loader.

Each corruption is aimed at one check (docs/fsm-protocol.md, "Table loading");
the predictor computes the status the loader must give, and the table-load
test checks the two agree with the aim and with models.table_image.load_image.
"""

from __future__ import annotations

import random
import struct
import zlib

from models.table_image import MASK_ROWS
from uvm_env.fsm.protocol import (
    ST_LD_CAPACITY,
    ST_LD_DIMS,
    ST_LD_HDR_CRC,
    ST_LD_LENGTH,
    ST_LD_MAGIC,
    ST_LD_PAY_CRC,
    ST_LD_VERSION,
)

HDR = 192           # version 3: 80-byte fixed header + 7 section entries
SECTIONS = 80       # where the section table starts
RESERVED = 0x4C     # a zero word the loader checks with the layout, before the CRC
N_SECTIONS = 7
CRC_OFF = 0x3C

#: corruption kind -> the status it is aimed at
KINDS = {
    "magic": ST_LD_MAGIC,
    "version": ST_LD_VERSION,
    "sections": ST_LD_VERSION,
    "hdr_crc": ST_LD_HDR_CRC,
    "pay_crc": ST_LD_PAY_CRC,
    "truncated": ST_LD_LENGTH,
    "cut_early": ST_LD_LENGTH,
    "short": ST_LD_LENGTH,
    "trailing": ST_LD_LENGTH,
    "keep": ST_LD_LENGTH,
    "dims": ST_LD_DIMS,
    "offset": ST_LD_DIMS,
    "count": ST_LD_DIMS,
    "comb_payload": ST_LD_DIMS,
}


def fix_header_crc(data: bytearray) -> None:
    """Recompute the header CRC so that only the field changed is wrong."""
    struct.pack_into("<I", data, CRC_OFF, 0)
    struct.pack_into("<I", data, CRC_OFF, zlib.crc32(bytes(data[:HDR])))


#: Header fields the "dims" fault breaks (byte offsets): the state, class, row, token
#: and comb-base widths, the reject code, the start state, the comb size, the start
#: state's info position, the final state and the EOS token. The start and final states
#: become S and the EOS token V: the first value past each range, so a bound checked
#: with <= instead of < lets the image through. The mask-row count and the words per
#: row get large random values (rows of 17 to 32 bits, words of 22 to 32), so the
#: loader's pipelined mask-row product (rows x padded words) runs with every partial
#: product non-zero; its assertion compares it with the plain product on each load.
DIMS_FIELDS = (0x34, 0x35, 0x36, 0x37, 0x3B, 0x2C, 0x20, 0x44, 0x48, 0x24, 0x28, 0x18,
               0x1C)


#: Kinds run once per field rather than once at random: "dims" per header field,
#: "count" per section (a rule that stopped checking one would pass a random pick).
PER_FIELD = {"dims": DIMS_FIELDS, "count": tuple(range(N_SECTIONS))}


def corrupt(image: bytes, kind: str, rng: random.Random, load_w: int,
            field: int | None = None) -> tuple[bytes, int | None]:
    """(bytes to stream, TKEEP override for the last beat or None). ``field`` picks
    the "dims" fault's field (one of DIMS_FIELDS) or the "count" fault's section
    (0..N_SECTIONS-1); by default a random one."""
    d = bytearray(image)
    lb = load_w // 8
    if kind == "magic":
        d[rng.randrange(4)] ^= 1 << rng.randrange(8)
    elif kind == "version":
        struct.pack_into("<H", d, 4, rng.choice([0, 1, 2, 4, 0xFFFF]))  # 2: the old format
        fix_header_crc(d)
    elif kind == "sections":
        if rng.random() < 0.5:
            struct.pack_into("<H", d, 0x38, rng.choice([N_SECTIONS - 1, N_SECTIONS + 1]))
        else:
            struct.pack_into("<H", d, 6, rng.choice([184, 216]))
        fix_header_crc(d)
    elif kind == "hdr_crc":
        # Not a field checked before the CRC (magic, version, sizes, section count,
        # the reserved word).
        pos = rng.choice([p for p in range(8, HDR)
                          if not CRC_OFF <= p < CRC_OFF + 4 and p not in (0x38, 0x39)
                          and not RESERVED <= p < RESERVED + 4])
        d[pos] ^= 1 << rng.randrange(8)
    elif kind == "pay_crc":
        pos = rng.randrange(HDR, len(d))
        d[pos] ^= 1 << rng.randrange(8)
    elif kind == "truncated":
        cut = rng.randrange(HDR, len(d))
        d = d[:cut - cut % 8] if rng.random() < 0.7 else d[:cut]
    elif kind == "cut_early":
        # Cut within a few beats of the header's end, while the loader may still be
        # running the header CRC (24 qwords, one per cycle) when TLAST arrives.
        cut = HDR + 8 * rng.randrange(1, 4 * lb // 8 + 1)
        d = d[:min(cut, len(d) - 8)]
    elif kind == "short":
        d = d[:rng.choice([0, 8, 40, 64, 71, 72, 100, 176, 183])]
    elif kind == "trailing":
        d += bytes(rng.randrange(256) for _ in range(rng.choice([8, 16, lb, lb + 8])))
    elif kind == "keep":
        # A last beat whose TKEEP covers part of a qword, or has a hole.
        n_beats = (len(d) + lb - 1) // lb
        rem = len(d) - (n_beats - 1) * lb
        full = (1 << rem) - 1
        bad = full ^ (1 << rng.randrange(rem)) if rem > 1 else 0b10
        return bytes(d), bad
    elif kind == "dims":
        field = rng.choice(DIMS_FIELDS) if field is None else field
        if field in (0x2C, 0x44):
            struct.pack_into("<I", d, field, struct.unpack_from("<I", d, field)[0] ^ 1)
        elif field in (0x20, 0x24):           # the start or final state: S
            struct.pack_into("<I", d, field, struct.unpack_from("<I", d, 0x10)[0])
        elif field == 0x28:                   # the EOS token: V
            struct.pack_into("<I", d, field, struct.unpack_from("<I", d, 0x0C)[0])
        elif field == 0x48:   # outside [classes, comb size)
            struct.pack_into("<I", d, field, struct.unpack_from("<I", d, 0x44)[0])
        elif field in (0x18, 0x1C):           # the mask-row count, the words per row
            low = 17 if field == 0x18 else 22
            struct.pack_into("<I", d, field, rng.randrange(1 << low, 1 << 32))
        else:
            d[field] = (d[field] + rng.choice([1, 2])) & 0xFF
        fix_header_crc(d)
    elif kind == "offset":
        k = rng.randrange(N_SECTIONS)
        off = SECTIONS + 16 * k + 8
        value = struct.unpack_from("<I", d, off)[0]
        struct.pack_into("<I", d, off, value + rng.choice([4, 8, 32, -64 if k else 64]))
        fix_header_crc(d)
    elif kind == "count":
        # One section's (``field``: its index) element count or byte length one
        # element off. By default half go to the mask rows, whose count (rows x padded
        # words) is a product the loader forms a stage ahead of the other counts.
        idents = [struct.unpack_from("<H", d, SECTIONS + 16 * i)[0] for i in range(N_SECTIONS)]
        if field is not None:
            k = field
        else:
            k = idents.index(MASK_ROWS) if rng.random() < 0.5 else rng.randrange(N_SECTIONS)
        entry = SECTIONS + 16 * k
        # A longer section would overlap the next one, which the order rule catches
        # too: the length only shrinks, so only the size rule can refuse it.
        if rng.random() < 0.5:
            pos, delta = entry + 4, rng.choice([1, -1])   # the count
        else:
            pos, delta = entry + 12, -(d[entry + 2] // 8)  # the length: one element less
        value = struct.unpack_from("<I", d, pos)[0]
        struct.pack_into("<I", d, pos, value + delta)
        fix_header_crc(d)
    elif kind == "comb_payload":
        _bad_comb_payload(d, rng)
    else:
        raise ValueError(kind)
    return bytes(d), None


def _bad_comb_payload(d: bytearray, rng: random.Random) -> None:
    """One class entry of the comb made to point outside [classes, comb_size), CRCs
    made right: only the loader's per-entry check of the data can refuse it. Half the
    time it is the last class entry, so the check of the image's final comb beat,
    the last one judged before the verdict, is exercised too."""
    classes = struct.unpack_from("<I", d, 0x14)[0]
    comb = struct.unpack_from("<I", d, 0x44)[0]
    for k in range(N_SECTIONS):
        sid, _, _, count, off, _ = struct.unpack_from("<HBBIII", d, SECTIONS + 16 * k)
        if sid == 3:                       # comb
            break
    else:
        raise ValueError("image has no comb section")
    entries = struct.unpack_from(f"<{count}I", d, off)
    cls = [i for i, e in enumerate(entries) if (e & 0xFFF) < classes]
    i = cls[-1] if rng.random() < 0.5 else rng.choice(cls)
    pay = rng.choice([0, classes - 1, comb, min(comb + rng.randrange(1, 4096), (1 << 20) - 1)])
    struct.pack_into("<I", d, off + 4 * i, (pay << 12) | (entries[i] & 0xFFF))
    struct.pack_into("<I", d, 0x40, zlib.crc32(bytes(d[HDR:])))
    fix_header_crc(d)


def dirty_padding(image: bytes) -> bytes:
    """The image with every mask-row bit at or past V set, CRCs made right again.

    A legal image keeps those bits zero (docs/table-format.md), but the RTL loader does
    not read table values, so the mask streamer itself must clear every bit >= V; this
    image shows whether it does. Everything else (and the model's reading) is unchanged.
    """
    d = bytearray(image)
    vocab, rows, wpr = struct.unpack_from("<III", d, 0x0C)[0], *struct.unpack_from(
        "<II", d, 0x18)
    padded = 16 * ((wpr + 15) // 16)
    for k in range(N_SECTIONS):
        sid, _, _, count, off, _ = struct.unpack_from("<HBBIII", d, SECTIONS + 16 * k)
        if sid != 6:                       # mask_rows
            continue
        assert count == rows * padded
        for r in range(rows):
            row = int.from_bytes(d[off + 4 * r * padded: off + 4 * (r + 1) * padded], "little")
            row |= ((1 << (32 * padded)) - 1) ^ ((1 << vocab) - 1)
            d[off + 4 * r * padded: off + 4 * (r + 1) * padded] = row.to_bytes(4 * padded,
                                                                                "little")
    struct.pack_into("<I", d, 0x40, zlib.crc32(bytes(d[HDR:])))
    fix_header_crc(d)
    return bytes(d)


__all__ = ["DIMS_FIELDS", "KINDS", "N_SECTIONS", "PER_FIELD", "ST_LD_CAPACITY", "corrupt",
           "dirty_padding", "fix_header_crc"]
