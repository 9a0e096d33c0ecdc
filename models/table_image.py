# SPDX-License-Identifier: Apache-2.0
"""Binary table image and $readmemh export for TokenTables (docs/table-format.md).

The image is little-endian; every section starts on a 64-byte boundary, so a
loader streaming it 64 to 512 bits at a time finds each section at the start of
a beat, and mask rows are padded to whole 512-bit words.  Two CRC32s (zlib polynomial)
guard it: one over the header (with its own field zeroed), one over the
payload (everything after the header, padding included).

Version 3, what the RTL loads and what is written by default, holds a linked
comb (models.token_tables.LinkedComb: entries name where the next state's row
is) and no ``row_base`` section.  Version 2 holds the row-displaced next-state
table as ``row_base`` plus comb entries ``{check state, next state}``; the model
still writes and reads it.
"""

from __future__ import annotations

import json
import struct
import zlib
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .token_tables import (
    CHECK_BITS,
    CHECK_MASK,
    FREE_ENTRY,
    MAX_LINKED_CLASSES,
    PAYLOAD_BITS,
    LinkedComb,
    TokenTables,
    expand_next_state,
)

MAGIC = 0x4D534654  # bytes "TFSM"
ROW_BASE_VERSION = 2
LINKED_VERSION = 3
VERSION = LINKED_VERSION  # what image_bytes writes unless told otherwise: the RTL's
VERSIONS = (ROW_BASE_VERSION, LINKED_VERSION)
NONE32 = 0xFFFFFFFF  # eos_id / final_state when absent
MASK_WORD_BITS = 32
ALIGN = 64  # section alignment in bytes: one 512-bit beat
ROW_ALIGN_WORDS = 16  # mask rows are padded to a multiple of 512 bits
COMB_FIELD_BITS = 16  # a comb entry is next (bits 15:0) and check (bits 31:16)

# Fixed header: see docs/table-format.md for the byte-by-byte table.
_HEADER = struct.Struct("<IHHIIIIIIIIIIIBBBBHBBIII")
# + start_info and a reserved zero word: the header stays a whole number of
# qwords (192 bytes), so a loader's payload CRC starts on a qword.
_HEADER_V3 = struct.Struct(_HEADER.format + "II")
_PREFIX = struct.Struct("<IH")  # magic, version: the rest depends on the version
_SECTION = struct.Struct("<HBBIII")
HEADER_FIXED_BYTES = _HEADER.size  # 72
HEADER_CRC_OFFSET = 0x3C
PAYLOAD_CRC_OFFSET = 0x40

# Section ids, in image order.
(
    TOKEN_CLASS,
    ROW_BASE,
    COMB,
    ACCEPTING,
    MASK_INDEX,
    MASK_ROWS,
    FORCED_TOKEN,
    FORCED_VALID,
) = range(1, 9)
SECTION_NAMES = {
    TOKEN_CLASS: "token_class",
    ROW_BASE: "row_base",
    COMB: "comb",
    ACCEPTING: "accepting",
    MASK_INDEX: "mask_index",
    MASK_ROWS: "mask_rows",
    FORCED_TOKEN: "forced_token",
    FORCED_VALID: "forced_valid",
}
NUM_SECTIONS = len(SECTION_NAMES)
HEADER_BYTES = HEADER_FIXED_BYTES + NUM_SECTIONS * _SECTION.size  # 200


@dataclass(frozen=True)
class Layout:
    """What differs between image versions: the fixed header and the sections."""

    version: int
    header: struct.Struct
    sections: tuple[int, ...]

    @property
    def fixed_bytes(self) -> int:
        return self.header.size

    @property
    def header_bytes(self) -> int:
        return self.header.size + len(self.sections) * _SECTION.size


LAYOUTS = {
    ROW_BASE_VERSION: Layout(ROW_BASE_VERSION, _HEADER, tuple(SECTION_NAMES)),
    LINKED_VERSION: Layout(
        LINKED_VERSION, _HEADER_V3, tuple(i for i in SECTION_NAMES if i != ROW_BASE)
    ),
}


class TableImageError(ValueError):
    """A table image that is corrupt, truncated, or inconsistent."""


@dataclass(frozen=True)
class Section:
    ident: int
    elem_bits: int  # storage width: 8, 16 or 32
    logical_bits: int  # meaningful low bits of each element
    count: int
    offset: int
    length: int  # count * elem_bits / 8, padding excluded

    @property
    def name(self) -> str:
        return SECTION_NAMES.get(self.ident, f"section{self.ident}")


def image_bytes(tables: TokenTables, version: int = VERSION) -> bytes:
    """Serialise ``tables`` to an image of ``version`` (2 or 3)."""
    layout = _layout(version)
    payloads = section_arrays(tables, version)
    sections = []
    body = bytearray()
    offset = layout.header_bytes
    for ident, (logical, elem, arr) in payloads.items():
        pad = (-offset) % ALIGN  # zeros up to the next 64-byte boundary
        body += bytes(pad)
        offset += pad
        raw = arr.astype(f"<u{elem // 8}").tobytes()
        sections.append(Section(ident, elem, logical, arr.size, offset, len(raw)))
        body += raw
        offset += len(raw)
    pad = (-offset) % 8  # the image ends on a whole qword
    body += bytes(pad)
    offset += pad
    header = _pack_header(tables, layout, sections, total=offset, payload_crc=zlib.crc32(body))
    return header + bytes(body)


def export_image(tables: TokenTables, path: str | Path, version: int = VERSION) -> dict[str, int]:
    """Write the image; returns the stored bytes of each section (without padding)."""
    data = image_bytes(tables, version)
    Path(path).write_bytes(data)
    return {s.name: s.length for s in parse_sections(data)}


def load_image(source: str | Path | bytes | bytearray | memoryview) -> TokenTables:
    """Parse and fully check an image; raises TableImageError on any defect."""
    data = (
        bytes(source)
        if isinstance(source, bytes | bytearray | memoryview)
        else Path(source).read_bytes()
    )
    fields, sections = _check_header(data)
    arrays = {}
    for s in sections:
        raw = data[s.offset : s.offset + s.length]
        arrays[s.ident] = np.frombuffer(raw, dtype=f"<u{s.elem_bits // 8}").astype(np.int64)
    return _tables_from(fields, arrays)


def parse_sections(data: bytes) -> list[Section]:
    """Section table of a (checked) image, in stored order."""
    return _check_header(data)[1]


def export_readmemh(
    tables: TokenTables, directory: str | Path, version: int = ROW_BASE_VERSION
) -> list[Path]:
    """One ``<table>.hex`` per table of ``version``'s sections (one element per
    line, minimum hex digits for the logical width; address = element index),
    plus params.svh / params.json with the dimensions and widths."""
    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for ident, (logical, _, arr) in section_arrays(tables, version).items():
        name = SECTION_NAMES[ident]
        digits = max(1, (logical + 3) // 4)
        lines = [f"// {name}: {arr.size} x {logical} bits, see docs/table-format.md"]
        lines += [f"{int(v):0{digits}x}" for v in arr.tolist()]
        path = out / f"{name}.hex"
        path.write_text("\n".join(lines) + "\n", encoding="ascii")
        written.append(path)
    params = _params(tables)
    svh = ["// Generated by models.table_image.export_readmemh; do not edit."]
    svh += [f"localparam int unsigned FSM_{k.upper()} = {v};" for k, v in params.items()]
    (out / "params.svh").write_text("\n".join(svh) + "\n", encoding="ascii")
    (out / "params.json").write_text(json.dumps(params, indent=2) + "\n", encoding="ascii")
    return written + [out / "params.svh", out / "params.json"]


# ----------------------------------------------------------------------------
# helpers
# ----------------------------------------------------------------------------


def storage_bits(logical: int) -> int:
    return 8 if logical <= 8 else 16 if logical <= 16 else 32


def row_stride_words(words_per_row: int) -> int:
    """32-bit words between stored mask rows: the row padded to whole 512 bits."""
    return -(-words_per_row // ROW_ALIGN_WORDS) * ROW_ALIGN_WORDS


def _comb_words(t: TokenTables) -> np.ndarray:
    if t.state_bits > COMB_FIELD_BITS:
        raise ValueError(f"{t.num_states} states: the comb format holds at most 16-bit states")
    return (t.comb_check.astype(np.int64) << COMB_FIELD_BITS) | t.comb_next.astype(np.int64)


def _padded_rows(t: TokenTables) -> np.ndarray:
    rows = np.zeros((t.num_mask_rows, row_stride_words(t.words_per_row)), dtype=np.int64)
    rows[:, : t.words_per_row] = t.mask_rows
    return rows.ravel()


def _bitmap(flags: np.ndarray) -> np.ndarray:
    words = (len(flags) + 31) // 32
    packed = np.zeros(words * 4, dtype=np.uint8)
    bits = np.packbits(flags.astype(bool), bitorder="little")
    packed[: len(bits)] = bits
    return packed.view("<u4").astype(np.int64)


def _layout(version: int) -> Layout:
    if version not in LAYOUTS:
        raise ValueError(f"image version {version}: this writer knows {VERSIONS}")
    return LAYOUTS[version]


def section_arrays(
    t: TokenTables, version: int = VERSION
) -> dict[int, tuple[int, int, np.ndarray]]:
    """id -> (logical bits, storage bits, flat array), in image order."""
    if _layout(version).version == LINKED_VERSION:
        linked = {COMB: (32, 32, t.linked.entries)}
    else:
        linked = {
            ROW_BASE: (t.base_bits, storage_bits(t.base_bits), t.row_base.ravel()),
            COMB: (32, 32, _comb_words(t)),
        }
    return {
        TOKEN_CLASS: (t.class_bits, storage_bits(t.class_bits), t.token_class.ravel()),
        **linked,
        ACCEPTING: (32, 32, _bitmap(t.accepting)),
        MASK_INDEX: (t.row_bits, storage_bits(t.row_bits), t.mask_index.ravel()),
        MASK_ROWS: (32, 32, _padded_rows(t)),
        FORCED_TOKEN: (t.token_bits, storage_bits(t.token_bits), t.forced_token.ravel()),
        FORCED_VALID: (32, 32, _bitmap(t.forced_valid)),
    }


def _params(t: TokenTables) -> dict[str, int]:
    return {
        "vocab_size": t.vocab_size,
        "num_states": t.num_states,
        "num_classes": t.num_classes,
        "num_mask_rows": t.num_mask_rows,
        "words_per_row": t.words_per_row,
        "start_state": t.start,
        "final_state": NONE32 if t.final_state is None else t.final_state,
        "eos_id": NONE32 if t.eos_id is None else t.eos_id,
        "reject_code": t.reject,
        "empty_row_code": t.empty_row,
        "state_bits": t.state_bits,
        "class_bits": t.class_bits,
        "row_bits": t.row_bits,
        "token_bits": t.token_bits,
        "base_bits": t.base_bits,
        "comb_size": t.comb_size,
    }


def _pack_header(
    t: TokenTables, layout: Layout, sections: list[Section], total: int, payload_crc: int
) -> bytes:
    p = _params(t)
    if layout.version == LINKED_VERSION:
        p["base_bits"], p["comb_size"] = t.linked.base_bits, t.linked.size
        extra = (t.linked.info(t.start), 0)
    else:
        extra = ()
    head = bytearray(
        layout.header.pack(
            MAGIC,
            layout.version,
            layout.header_bytes,
            total,
            p["vocab_size"],
            p["num_states"],
            p["num_classes"],
            p["num_mask_rows"],
            p["words_per_row"],
            p["start_state"],
            p["final_state"],
            p["eos_id"],
            p["reject_code"],
            p["empty_row_code"],
            p["state_bits"],
            p["class_bits"],
            p["row_bits"],
            p["token_bits"],
            len(sections),
            MASK_WORD_BITS,
            p["base_bits"],
            0,
            payload_crc,
            p["comb_size"],
            *extra,
        )
    )
    for s in sections:
        head += _SECTION.pack(s.ident, s.elem_bits, s.logical_bits, s.count, s.offset, s.length)
    struct.pack_into("<I", head, HEADER_CRC_OFFSET, zlib.crc32(bytes(head)))
    return bytes(head)


_FIELDS = (
    "magic",
    "version",
    "header_bytes",
    "total_bytes",
    "vocab_size",
    "num_states",
    "num_classes",
    "num_mask_rows",
    "words_per_row",
    "start_state",
    "final_state",
    "eos_id",
    "reject_code",
    "empty_row_code",
    "state_bits",
    "class_bits",
    "row_bits",
    "token_bits",
    "num_sections",
    "mask_word_bits",
    "base_bits",
    "header_crc32",
    "payload_crc32",
    "comb_size",
)
_FIELDS_V3 = (*_FIELDS, "start_info", "reserved")


def _check_header(data: bytes) -> tuple[dict[str, int], list[Section]]:
    if len(data) < _PREFIX.size:
        raise TableImageError(f"truncated image: {len(data)} bytes")
    magic, version = _PREFIX.unpack_from(data, 0)
    if magic != MAGIC:
        raise TableImageError(f"bad magic {magic:#010x}, expected {MAGIC:#010x} ('TFSM')")
    if version not in LAYOUTS:
        raise TableImageError(f"unsupported image version {version} (this loader: {VERSIONS})")
    layout = LAYOUTS[version]
    if len(data) < layout.fixed_bytes:
        raise TableImageError(
            f"truncated image: {len(data)} bytes, header needs {layout.fixed_bytes}"
        )
    names = _FIELDS_V3 if version == LINKED_VERSION else _FIELDS
    f = dict(zip(names, layout.header.unpack_from(data, 0), strict=True))
    if (
        f["num_sections"] != len(layout.sections)
        or f["header_bytes"] != layout.header_bytes
        or f.get("reserved", 0) != 0
    ):
        raise TableImageError(
            f"inconsistent header: {f['num_sections']} sections, {f['header_bytes']} header bytes"
        )
    if len(data) < layout.header_bytes:
        raise TableImageError(
            f"truncated image: {len(data)} bytes < header {layout.header_bytes}"
        )
    head = bytearray(data[: layout.header_bytes])
    struct.pack_into("<I", head, HEADER_CRC_OFFSET, 0)
    if zlib.crc32(bytes(head)) != f["header_crc32"]:
        raise TableImageError("header CRC mismatch")
    if len(data) < f["total_bytes"]:
        raise TableImageError(f"truncated image: {len(data)} bytes, header says {f['total_bytes']}")
    if len(data) > f["total_bytes"]:
        raise TableImageError(f"{len(data) - f['total_bytes']} trailing bytes after image")
    if zlib.crc32(data[layout.header_bytes :]) != f["payload_crc32"]:
        raise TableImageError("payload CRC mismatch")
    sections = [
        Section(*_SECTION.unpack_from(data, layout.fixed_bytes + i * _SECTION.size))
        for i in range(len(layout.sections))
    ]
    _check_dimensions(f, sections, layout)
    return f, sections


def _check_dimensions(f: dict[str, int], sections: list[Section], layout: Layout) -> None:
    def bad(msg: str) -> TableImageError:
        return TableImageError(f"inconsistent dimensions: {msg}")

    v, s, c, r = f["vocab_size"], f["num_states"], f["num_classes"], f["num_mask_rows"]
    n = f["comb_size"]
    if v < 1 or s < 1 or c < 1:
        raise bad(f"vocab {v}, states {s}, classes {c} must be >= 1")
    if n < c:
        raise bad(f"comb size {n} < {c} classes")
    derived = {
        "state_bits": max(1, s.bit_length()),
        "class_bits": max(1, (c - 1).bit_length()),
        "row_bits": max(1, r.bit_length()),
        "token_bits": max(1, (v - 1).bit_length()),
        "words_per_row": (v + 31) // 32,
        "mask_word_bits": MASK_WORD_BITS,
        "base_bits": max(1, (n - 1).bit_length()),
    }
    derived["reject_code"] = (1 << derived["state_bits"]) - 1
    derived["empty_row_code"] = (1 << derived["row_bits"]) - 1
    for key, want in derived.items():
        if f[key] != want:
            raise bad(f"{key} is {f[key]}, dimensions imply {want}")
    linked = layout.version == LINKED_VERSION
    if not linked and derived["state_bits"] > COMB_FIELD_BITS:
        raise bad(f"state_bits {derived['state_bits']} > {COMB_FIELD_BITS}")
    if linked:
        if c > MAX_LINKED_CLASSES:
            raise bad(f"{c} classes > {MAX_LINKED_CLASSES}, the most a linked comb holds")
        if n < c + 1 or derived["base_bits"] > PAYLOAD_BITS or derived["state_bits"] > PAYLOAD_BITS:
            raise bad(f"comb size {n} for {c} classes and {s} states")
        if not c <= f["start_info"] < n:
            raise bad(f"start info position {f['start_info']} outside [{c}, comb size {n})")
    if f["start_state"] >= s:
        raise bad(f"start state {f['start_state']} >= {s} states")
    if f["final_state"] != NONE32 and f["final_state"] >= s:
        raise bad(f"final state {f['final_state']} >= {s} states")
    if f["eos_id"] != NONE32 and f["eos_id"] >= v:
        raise bad(f"eos id {f['eos_id']} >= vocab size {v}")
    if (f["eos_id"] == NONE32) != (f["final_state"] == NONE32):
        raise bad("eos id and final state must both be present or both absent")
    bitmap_words = (s + 31) // 32
    want_sections = {
        TOKEN_CLASS: (derived["class_bits"], v),
        **({} if linked else {ROW_BASE: (derived["base_bits"], s)}),
        COMB: (32, n),
        ACCEPTING: (32, bitmap_words),
        MASK_INDEX: (derived["row_bits"], s),
        MASK_ROWS: (32, r * row_stride_words(derived["words_per_row"])),
        FORCED_TOKEN: (derived["token_bits"], s),
        FORCED_VALID: (32, bitmap_words),
    }
    seen = set()
    end = layout.header_bytes
    for sec in sections:
        if sec.ident not in want_sections or sec.ident in seen:
            raise bad(f"unexpected or repeated section id {sec.ident}")
        seen.add(sec.ident)
        logical, count = want_sections[sec.ident]
        if sec.logical_bits != logical or sec.elem_bits != storage_bits(logical):
            raise bad(
                f"{sec.name} widths {sec.logical_bits}/{sec.elem_bits} bits, "
                f"expected {logical}/{storage_bits(logical)}"
            )
        if sec.count != count or sec.length != count * sec.elem_bits // 8:
            raise bad(
                f"{sec.name} has {sec.count} elements / {sec.length} bytes, "
                f"expected {count} elements"
            )
        if sec.offset % ALIGN or sec.offset < end or sec.offset + sec.length > f["total_bytes"]:
            raise bad(
                f"{sec.name} at offset {sec.offset} is misaligned, overlapping or outside the image"
            )
        end = sec.offset + sec.length


def _tables_from(f: dict[str, int], arrays: dict[int, np.ndarray]) -> TokenTables:
    v, s, c, r = f["vocab_size"], f["num_states"], f["num_classes"], f["num_mask_rows"]

    def bits(words: np.ndarray) -> np.ndarray:
        raw = words.astype("<u4").view(np.uint8)
        return np.unpackbits(raw, bitorder="little")[:s].astype(bool)

    token_class = arrays[TOKEN_CLASS]
    mask_index = arrays[MASK_INDEX]
    forced_token = arrays[FORCED_TOKEN]
    forced_valid = bits(arrays[FORCED_VALID])
    if (token_class >= c).any():
        raise TableImageError("inconsistent dimensions: token class out of range")
    rej = f["reject_code"]
    comb: dict[str, object] = {}
    if "start_info" in f:
        linked = _linked_from(f, arrays[COMB])
        next_state = linked.expand(rej)
        comb["linked_comb"] = linked
    else:
        row_base = arrays[ROW_BASE]
        comb_next = arrays[COMB] & ((1 << COMB_FIELD_BITS) - 1)
        comb_check = arrays[COMB] >> COMB_FIELD_BITS
        if (row_base + c > f["comb_size"]).any():
            raise TableImageError("inconsistent dimensions: row base + classes past the comb")
        out_of_range = ((comb_next >= s) & (comb_next != rej)) | (
            (comb_check >= s) & (comb_check != rej)
        )
        if out_of_range.any():
            raise TableImageError("inconsistent dimensions: comb entry out of range")
        if ((comb_check == rej) != (comb_next == rej)).any():
            raise TableImageError("inconsistent dimensions: comb entry half free")
        next_state = expand_next_state(row_base, comb_next, comb_check, c, rej)
        comb.update(
            row_base=row_base.astype(np.int32),
            comb_next=comb_next.astype(np.int32),
            comb_check=comb_check.astype(np.int32),
        )
    if ((mask_index >= r) & (mask_index != f["empty_row_code"])).any():
        raise TableImageError("inconsistent dimensions: mask row index out of range")
    if (forced_token[forced_valid] >= v).any():
        raise TableImageError("inconsistent dimensions: forced token out of range")
    return TokenTables(
        vocab_size=v,
        num_states=s,
        num_classes=c,
        start=f["start_state"],
        eos_id=None if f["eos_id"] == NONE32 else f["eos_id"],
        final_state=None if f["final_state"] == NONE32 else f["final_state"],
        token_class=token_class.astype(np.int32),
        next_state=next_state.astype(np.int32),
        accepting=bits(arrays[ACCEPTING]),
        mask_index=mask_index.astype(np.int32),
        mask_rows=arrays[MASK_ROWS]
        .reshape(r, row_stride_words(f["words_per_row"]))[:, : f["words_per_row"]]
        .astype(np.uint32),
        forced_token=forced_token.astype(np.int32),
        forced_valid=forced_valid,
        **comb,  # type: ignore[arg-type]
    )


def _linked_from(f: dict[str, int], entries: np.ndarray) -> LinkedComb:
    """A version-3 comb, with every rule the RTL's walk relies on checked: one
    info entry per state, a class entry only in a row and pointing at a row's
    info entry, free entries wholly free, the start state's info entry where the
    header says."""
    s, c, n = f["num_states"], f["num_classes"], f["comb_size"]

    def bad(msg: str) -> TableImageError:
        return TableImageError(f"inconsistent linked comb: {msg}")

    check, payload = entries & CHECK_MASK, entries >> CHECK_BITS
    free = check == CHECK_MASK
    if (free & (entries != FREE_ENTRY)).any():
        raise bad("an entry with a free check field is not wholly free")
    if ((check > c) & ~free).any():
        raise bad("check field past the info column")
    info = np.flatnonzero(check == c)
    if (info < c).any():
        raise bad("info entry before the first possible row")
    states = payload[info]
    if (states >= s).any() or len(info) != s or len(np.unique(states)) != s:
        raise bad(f"{len(info)} info entries for {s} states, or a state out of range")
    row_base = np.zeros(s, dtype=np.int64)
    row_base[states] = info - c
    is_base = np.zeros(n, dtype=bool)
    is_base[row_base] = True
    live = np.flatnonzero(check < c)
    owner = live - check[live]
    if (owner < 0).any() or not is_base[owner].all():
        raise bad("class entry outside every row")
    targets = payload[live]
    if ((targets >= n) | (check[np.minimum(targets, n - 1)] != c)).any():
        raise bad("class entry points at no row")
    if f["start_info"] != row_base[f["start_state"]] + c:
        raise bad(f"start info position {f['start_info']} is not the start state's")
    return LinkedComb(c, row_base, entries.astype(np.int64))
