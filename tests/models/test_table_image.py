# SPDX-License-Identifier: Apache-2.0
"""Table image round trip (identical behaviour from loaded tables), corruption
refusal, and $readmemh files."""

from __future__ import annotations

import random
import struct
import zlib

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as hst

from models import fsm_sizes
from models import table_image as ti
from models import token_tables as tt
from models.regex_dfa import compile_regex
from models.token_fsm import TokenFSM, compress_next_state, expand_next_state
from models.token_tables import interval_class_order, link_next_state
from models.vocab import Vocabulary

SUMMARY_REGEX = r'\{"summary":"[^"]{1,200}","sentiment":"(positive|neutral|negative)"\}'


@pytest.fixture(scope="module")
def gpt2() -> Vocabulary:
    return Vocabulary.gpt2()


@pytest.fixture(scope="module")
def brief_fsm(gpt2) -> TokenFSM:
    return TokenFSM.build(compile_regex(SUMMARY_REGEX), gpt2)


@pytest.fixture(scope="module")
def brief_image(brief_fsm) -> bytes:
    return ti.image_bytes(brief_fsm.tables, ti.ROW_BASE_VERSION)


def small_fsms() -> list[TokenFSM]:
    v = Vocabulary.from_list(
        ["a", "b", "ab", "1", "12", ".", b"\xc3", b"\xa9", "é", "<x>"], eos="</s>", special=[9]
    )
    no_eos = Vocabulary.from_list(["a", "b", "ab"])
    return [
        TokenFSM.build(compile_regex(p), v)
        for p in (r"[0-9]+(\.[0-9]+)?", r"(ab)*é?", r"[^\x00-\U0010FFFF]", r"a")
    ] + [TokenFSM.build(compile_regex(r"(ab|b)+"), no_eos)]


def assert_same_behaviour(a: TokenFSM, b: TokenFSM, rng: random.Random, walks: int) -> None:
    assert a.tables.same_as(b.tables)
    n, v = a.num_states, a.vocab_size
    states = range(n) if n <= 64 else rng.sample(range(n), 64)
    for s in states:
        assert np.array_equal(a.allowed(s), b.allowed(s))
        assert a.forced_token(s) == b.forced_token(s)
        assert a.is_accepting(s) == b.is_accepting(s) and a.is_final(s) == b.is_final(s)
        for t in rng.sample(range(v), min(v, 200)) + [v, -1]:
            assert a.advance(s, t) == b.advance(s, t)
    for _ in range(walks):
        seq, state = [], a.start
        for _ in range(rng.randint(0, 30)):
            ids = a.allowed_ids(state)
            t = (
                int(rng.choice(ids.tolist()))
                if len(ids) and rng.random() < 0.9
                else rng.randrange(v)
            )
            seq.append(t)
            state = a.advance(state, t)
            if state is None:
                break
        assert a.validate(seq) == b.validate(seq)


def test_round_trip_brief(brief_fsm, brief_image, tmp_path):
    path = tmp_path / "brief.bin"
    sizes = ti.export_image(brief_fsm.tables, path, ti.ROW_BASE_VERSION)
    assert path.read_bytes() == brief_image
    loaded = ti.load_image(path)
    assert loaded.same_as(brief_fsm.tables)
    assert_same_behaviour(brief_fsm, TokenFSM.from_tables(loaded), random.Random(1), 40)
    t = brief_fsm.tables
    assert sizes["token_class"] == t.vocab_size  # 8-bit classes: ~49 KiB ROM
    assert sizes["comb"] == t.comb_size * 4
    assert sizes["row_base"] == t.num_states * 2
    # Rows padded to whole 512-bit words: 1,571 words -> 1,584.
    assert sizes["mask_rows"] == t.num_mask_rows * ti.row_stride_words(t.words_per_row) * 4
    assert ti.row_stride_words(t.words_per_row) == 1584
    print(f"\nsummary/sentiment image {len(brief_image):,} bytes: {sizes}")


@pytest.mark.parametrize("index", range(5))
def test_round_trip_small(index):
    fsm = small_fsms()[index]
    data = ti.image_bytes(fsm.tables)
    loaded = TokenFSM.from_tables(ti.load_image(memoryview(data)))
    assert_same_behaviour(fsm, loaded, random.Random(index), 100)


def test_layout_alignment_and_header(brief_image):
    sections = ti.parse_sections(brief_image)
    assert [s.ident for s in sections] == list(range(1, 9))
    for s in sections:
        assert s.offset % 64 == 0 and s.offset >= ti.HEADER_BYTES
    assert len(brief_image) % 8 == 0
    assert brief_image[:4] == b"TFSM"
    assert struct.unpack_from("<H", brief_image, 4)[0] == ti.ROW_BASE_VERSION


def _patch(data: bytes, offset: int, fmt: str, value: int, reseal: bool = True) -> bytes:
    """Overwrite one header field; optionally recompute the header CRC so the
    check under test (not the CRC) is what refuses the image."""
    header_bytes = ti.LAYOUTS[struct.unpack_from("<H", data, 4)[0]].header_bytes
    buf = bytearray(data)
    struct.pack_into(fmt, buf, offset, value)
    if reseal:
        struct.pack_into("<I", buf, ti.HEADER_CRC_OFFSET, 0)
        crc = zlib.crc32(bytes(buf[:header_bytes]))
        struct.pack_into("<I", buf, ti.HEADER_CRC_OFFSET, crc)
    return bytes(buf)


def _flip(data: bytes, offset: int) -> bytes:
    buf = bytearray(data)
    buf[offset] ^= 0x40
    return bytes(buf)


def corruptions(img: bytes) -> list[tuple[str, bytes, str]]:
    sec = ti.parse_sections(img)
    first_table = ti.HEADER_FIXED_BYTES
    return [
        ("magic", _patch(img, 0, "<I", 0x12345678), "bad magic"),
        ("version", _patch(img, 4, "<H", 1), "unsupported image version 1"),
        ("header crc", _flip(img, 0x20), "header CRC mismatch"),
        ("payload crc", _flip(img, sec[1].offset + 3), "payload CRC mismatch"),
        ("padding crc", _flip(img, sec[0].offset + sec[0].length), "payload CRC mismatch"),
        ("num_classes", _patch(img, 0x14, "<I", 154), "inconsistent dimensions"),
        ("num_states", _patch(img, 0x10, "<I", 2000), "inconsistent dimensions"),
        ("vocab_size", _patch(img, 0x0C, "<I", 50000), "inconsistent dimensions"),
        ("state_bits", _patch(img, 0x34, "<B", 16), "state_bits is 16"),
        ("reject code", _patch(img, 0x2C, "<I", 0xFFFF), "reject_code"),
        ("start state", _patch(img, 0x20, "<I", 5000), "start state"),
        ("eos id", _patch(img, 0x28, "<I", 60000), "eos id"),
        ("section count", _patch(img, first_table + 4, "<I", 1), "token_class has 1"),
        ("section width", _patch(img, first_table + 2, "<B", 16), "token_class widths"),
        ("section offset", _patch(img, first_table + 16 + 8, "<I", 256 + 64 * 785 + 8),
         "row_base at offset"),
        ("comb size", _patch(img, 0x44, "<I", 154), "comb size 154 < 155 classes"),
        ("base bits", _patch(img, 0x3B, "<B", 17), "base_bits is 17"),
        ("num_sections", _patch(img, 0x38, "<H", 6), "inconsistent header"),
        ("truncated header", img[:40], "truncated image"),
        ("truncated table", img[: ti.HEADER_BYTES - 8], "truncated image"),
        ("truncated payload", img[: len(img) // 2], "truncated image"),
        ("missing last byte", img[:-1], "truncated image"),
        ("trailing bytes", img + b"\0" * 8, "trailing bytes"),
    ]


@pytest.mark.parametrize("case", range(23))
def test_corruption_refused(case, brief_image):
    name, bad, message = corruptions(brief_image)[case]
    with pytest.raises(ti.TableImageError, match=message):
        ti.load_image(bad)
    assert issubclass(ti.TableImageError, ValueError)


def test_value_range_checks():
    """A self-consistent header with an out-of-range table entry is refused."""
    t = small_fsms()[0].tables  # a fresh build: safe to corrupt in memory
    t.token_class[0] = t.num_classes
    with pytest.raises(ti.TableImageError, match="token class out of range"):
        ti.load_image(ti.image_bytes(t, ti.ROW_BASE_VERSION))
    t = small_fsms()[0].tables
    live = np.flatnonzero(t.comb_check != t.reject)[0]
    t.comb_next[live] = t.num_states
    with pytest.raises(ti.TableImageError, match="comb entry out of range"):
        ti.load_image(ti.image_bytes(t, ti.ROW_BASE_VERSION))
    t = small_fsms()[0].tables
    t.row_base[0] = t.comb_size - t.num_classes + 1
    with pytest.raises(ti.TableImageError, match="row base"):
        ti.load_image(ti.image_bytes(t, ti.ROW_BASE_VERSION))


def test_readmemh_files(brief_fsm, tmp_path):
    t = brief_fsm.tables
    paths = ti.export_readmemh(t, tmp_path)
    names = {p.name for p in paths}
    assert {
        "token_class.hex",
        "row_base.hex",
        "comb.hex",
        "accepting.hex",
        "mask_index.hex",
        "mask_rows.hex",
        "forced_token.hex",
        "forced_valid.hex",
        "params.svh",
        "params.json",
    } == names

    def read(name: str) -> np.ndarray:
        lines = (tmp_path / name).read_text().splitlines()
        assert lines[0].startswith("//")
        return np.array([int(x, 16) for x in lines[1:]], dtype=np.int64)

    assert np.array_equal(read("token_class.hex"), t.token_class)
    assert np.array_equal(read("row_base.hex"), t.row_base)
    comb = read("comb.hex")
    assert np.array_equal(comb & 0xFFFF, t.comb_next)
    assert np.array_equal(comb >> 16, t.comb_check)
    assert np.array_equal(read("mask_index.hex"), t.mask_index)
    rows = read("mask_rows.hex").reshape(t.num_mask_rows, -1)
    assert np.array_equal(rows[:, : t.words_per_row], t.mask_rows)
    assert not rows[:, t.words_per_row :].any()
    assert np.array_equal(read("forced_token.hex"), t.forced_token)
    acc = read("accepting.hex")
    bits = np.unpackbits(acc.astype("<u4").view(np.uint8), bitorder="little")
    assert np.array_equal(bits[: t.num_states].astype(bool), t.accepting)
    lines = (tmp_path / "row_base.hex").read_text().splitlines()[1:]
    assert all(len(x) == (t.base_bits + 3) // 4 for x in lines)
    svh = (tmp_path / "params.svh").read_text()
    assert f"FSM_NUM_STATES = {t.num_states};" in svh
    assert f"FSM_REJECT_CODE = {t.reject};" in svh


def test_comb_matches_dense(brief_fsm):
    """Every (state, class) of the dense table, through the compressed lookup."""
    t = brief_fsm.tables
    assert t.comb_size == int(t.row_base.max()) + t.num_classes
    dense = np.array([[t.lookup(s, c) for s in range(t.num_states)]
                      for c in range(t.num_classes)])
    assert np.array_equal(dense, t.next_state)
    live = int((t.next_state != t.reject).sum())
    assert int((t.comb_check != t.reject).sum()) == live  # one entry per live transition
    # The summary/sentiment regex: 36,891 entries of 255,130.
    assert t.comb_size < t.num_states * t.num_classes // 6


def test_compress_expand_random():
    rng = np.random.default_rng(5)
    for _ in range(20):
        c, s = int(rng.integers(1, 30)), int(rng.integers(1, 60))
        reject = (1 << max(1, s.bit_length())) - 1
        ns = np.where(rng.random((c, s)) < rng.random(), rng.integers(0, s, (c, s)), reject)
        base, nxt, chk = compress_next_state(ns, reject)
        assert len(nxt) == int(base.max()) + c
        assert np.array_equal(expand_next_state(base, nxt, chk, c, reject), ns)


def test_interval_class_order_makes_nested_sets_contiguous():
    """Live sets {1,4,6}, {1,4} and {0,3}: under the order each is one run, and the
    order is a permutation (no class lost or doubled)."""
    live = np.zeros((7, 5), dtype=bool)
    for state, classes in enumerate(([1, 4, 6], [1, 4, 6], [1, 4], [0, 3], [0, 3])):
        live[classes, state] = True
    order = interval_class_order(live)
    assert sorted(order.tolist()) == list(range(7))
    pos = np.argsort(order)
    for classes in ([1, 4, 6], [1, 4], [0, 3]):
        p = sorted(pos[classes].tolist())
        assert p == list(range(p[0], p[0] + len(p))), classes


def test_interval_class_order_shrinks_the_comb_on_random_tables():
    """Random tables whose states draw from a few nested live sets: the comb
    under the order is never larger than under the identity, and still exact."""
    rng = np.random.default_rng(11)
    for _ in range(10):
        c, s = int(rng.integers(20, 60)), int(rng.integers(30, 120))
        reject = (1 << s.bit_length()) - 1
        perm = rng.permutation(c)
        sets = [perm[: int(k)] for k in rng.integers(2, c, 4)]
        ns = np.full((c, s), reject)
        for st in range(s):
            cols = sets[int(rng.integers(len(sets)))]
            ns[cols, st] = rng.integers(0, s, len(cols))
        plain = compress_next_state(ns, reject)[1]
        order = interval_class_order(ns != reject)
        base, nxt, chk = compress_next_state(ns[order], reject)
        assert len(nxt) <= len(plain)
        assert np.array_equal(expand_next_state(base, nxt, chk, c, reject), ns[order])


def test_sizes_report(brief_fsm):
    """models.fsm_sizes on the summary/sentiment regex (GPT-2), counted by hand
    for two banks: linked comb 37,896 x 4 B = 2,369 words x 2 -> 2 URAM rows of 8;
    mask rows 82 x 99 words x 2 = 16,236 -> 4 URAM rows; token_class 786 words x 2
    -> 4 BRAM36 rows of 8; forced_token 52 words x 2 -> 1 BRAM36 row; mask_index
    26 words x 2 and the bitmaps: LUT RAM."""
    r = fsm_sizes.report(brief_fsm.tables, banks=2)
    assert r["comb_size"] == 37896 and r["live_transitions"] == 33143
    assert r["row_base_comb_size"] == 33578 and r["linked_extra_pct"] == 12.9
    assert r["dense_next_bits"] == 155 * 1646 * 16
    assert r["compressed_next_bits"] == 37896 * 32
    assert (r["uram"], r["bram36"]) == (8 * (2 + 4), 8 * (4 + 1))
    # Beside the radix L2 build (0 URAM, 223 BRAM36) and beside its on-chip build.
    assert fsm_sizes.fsm_budget() == fsm_sizes.Budget(416 - 0, 870 - 223)
    assert fsm_sizes.onchip_radix_budget() == fsm_sizes.Budget(416 - 320, 870 - 181)
    assert r["fits"] and r["fits_beside_onchip_radix"]
    assert r["mask_padding_bits"] == 82 * 416
    eight = fsm_sizes.report(brief_fsm.tables, banks=8)  # 8 x (5 + 16 + 2) = 184 URAM
    assert eight["uram"] == 184 and eight["fits"] and not eight["fits_beside_onchip_radix"]


def test_loads_into_checks_every_capacity(brief_fsm):
    """The loader's capacity rule (states, classes, comb, rows, vocabulary): the
    regex loads into the VCK5000 build and fails each capacity one short."""
    t = brief_fsm.tables
    cfg = {"VocabMax": 50257, "StateW": 14, "ClassW": 9, "NsCap": 753664, "RowCap": 204}
    assert fsm_sizes.loads_into(t, cfg)
    for key, value in (("VocabMax", t.vocab_size - 1), ("StateW", t.state_bits - 1),
                       ("ClassW", t.class_bits - 1), ("NsCap", t.linked.size - 1),
                       ("RowCap", t.num_mask_rows - 1)):
        assert not fsm_sizes.loads_into(t, {**cfg, key: value}), key


def test_config_rams():
    """fsm_top's defaults (5 banks): URAM for token_class 2 rows, comb 21 ((2^18 +
    2^9 slack) x 4 B = 16,416 words x 5), mask rows 16; BRAM36 for mask_index 1
    row, forced_token 2 (2^12 states each)."""
    assert fsm_sizes.config_rams(50257, 12, 9, 8, 262144, 128, 4) == (
        8 * (2 + 21 + 16), 8 * (1 + 2))
    # The VCK5000 build (2 grammars + spare): 416 URAM, the whole budget beside
    # the radix controller's L2 build.
    assert fsm_sizes.config_rams(50257, 14, 9, 8, 753664, 204, 2) == (416, 56)


# ---------------------------------------------------------------- linked comb (image v3)


def random_table(rng: np.random.Generator, classes: int, states: int, density: float):
    """A random (classes, states) next-state table; class 0 is never live, as in
    every table the builder makes (the reject class)."""
    reject = (1 << max(1, states.bit_length())) - 1
    ns = np.where(rng.random((classes, states)) < density,
                  rng.integers(0, states, (classes, states)), reject)
    ns[0] = reject
    return ns, reject


@settings(max_examples=60, deadline=None)
@given(hst.integers(1, 40), hst.integers(1, 80), hst.floats(0.0, 1.0), hst.integers(0, 2**32 - 1))
def test_linked_comb_walks_like_the_dense_table(classes, states, density, seed):
    """Every (state, class) through the walk the RTL does: entry at info - classes
    + class, hit when its check is the class, the payload is the next state's info
    position; the info entry gives the state back.  Bases are distinct and in range."""
    ns, reject = random_table(np.random.default_rng(seed), classes, states, density)
    comb = link_next_state(ns, reject)
    base = comb.row_base
    assert len(set(base.tolist())) == states
    assert comb.size == int(base.max()) + classes + 1
    live = ns != reject
    for s in range(states):
        info = comb.info(s)
        assert info == int(base[s]) + classes and comb.state_at(info) == s
        for c in range(classes + 2):
            want = comb.info(int(ns[c, s])) if c < classes and live[c, s] else None
            assert comb.step(info, c) == want, (s, c)
    assert np.array_equal(comb.expand(reject), ns)
    free = comb.entries == tt.FREE_ENTRY
    assert int((~free).sum()) == int(live.sum()) + states  # one entry each, no more


def test_linked_comb_refuses_what_its_fields_cannot_hold():
    ns = np.full((tt.MAX_LINKED_CLASSES + 1, 1), 1)
    with pytest.raises(ValueError, match="classes"):
        link_next_state(ns, 1)
    link_next_state(ns[:-1], 1)  # one fewer fits


def test_linked_comb_brief(brief_fsm):
    """The summary/sentiment regex on GPT-2: distinct bases and the info column
    cost 4,318 entries (12.9 %) over the version-2 comb; the start state's info
    entry is where the image header says."""
    t = brief_fsm.tables
    comb = t.linked
    assert np.array_equal(comb.expand(t.reject), t.next_state)
    assert (comb.size, t.comb_size) == (37896, 33578)
    img = ti.image_bytes(t, ti.LINKED_VERSION)
    start_info = struct.unpack_from("<I", img, ti.HEADER_FIXED_BYTES)[0]
    assert comb.state_at(start_info) == t.start


@pytest.mark.parametrize("index", range(5))
def test_linked_round_trip(index):
    """A version-3 image loads back to the same tables and writes back to the
    same bytes; the row_base section is gone and the header is 8 bytes shorter."""
    fsm = small_fsms()[index]
    img = ti.image_bytes(fsm.tables, ti.LINKED_VERSION)
    assert struct.unpack_from("<HH", img, 4) == (3, 192)
    assert ti.ROW_BASE not in [sec.ident for sec in ti.parse_sections(img)]
    loaded = ti.load_image(img)
    assert loaded.same_as(fsm.tables)
    assert np.array_equal(loaded.linked.entries, fsm.tables.linked.entries)
    assert ti.image_bytes(loaded, ti.LINKED_VERSION) == img
    assert_same_behaviour(fsm, TokenFSM.from_tables(loaded), random.Random(index), 50)


def _linked_corruptions() -> list[tuple[str, object, str]]:
    """(name, edit of a fresh table's linked comb, message): each breaks one rule
    the RTL's walk relies on, in an image whose CRCs and header are right."""

    def half_free(comb):
        comb.entries[np.flatnonzero(comb.entries == tt.FREE_ENTRY)[0]] = tt.CHECK_MASK

    def past_info(comb):
        i = np.flatnonzero(comb.entries == tt.FREE_ENTRY)[0]
        comb.entries[i] = comb.num_classes + 1

    def info_twice(comb):
        i = int(comb.row_base[1]) + comb.num_classes
        comb.entries[i] = comb.num_classes  # state 0 again

    def info_state_range(comb):
        i = int(comb.row_base[0]) + comb.num_classes
        comb.entries[i] = (len(comb.row_base) << tt.CHECK_BITS) | comb.num_classes

    def outside_rows(comb):
        # A live-looking entry whose owner (position - class) is no row's base.
        bases = set(comb.row_base.tolist())
        other = (comb.entries & tt.CHECK_MASK) != comb.num_classes
        for i in np.flatnonzero(other).tolist():
            for c in range(1, comb.num_classes):
                if i - c >= 0 and i - c not in bases:
                    comb.entries[i] = (comb.info(0) << tt.CHECK_BITS) | c
                    return
        raise AssertionError("no entry to misuse")

    def points_nowhere(comb):
        live = np.flatnonzero((comb.entries & tt.CHECK_MASK) < comb.num_classes)[0]
        infos = set((comb.row_base + comb.num_classes).tolist())
        target = next(b for b in range(comb.size) if b not in infos)
        comb.entries[live] = (target << tt.CHECK_BITS) | (comb.entries[live] & tt.CHECK_MASK)

    return [
        ("half free", half_free, "not wholly free"),
        ("check past the info column", past_info, "past the info column"),
        ("a state with two rows", info_twice, "info entries"),
        ("info state out of range", info_state_range, "info entries"),
        ("class entry in no row", outside_rows, "outside every row"),
        ("class entry to no row", points_nowhere, "points at no row"),
    ]


@pytest.mark.parametrize("case", range(6))
def test_linked_corruption_refused(case):
    name, edit, message = _linked_corruptions()[case]
    t = small_fsms()[0].tables  # a fresh build: safe to corrupt in memory
    edit(t.linked)
    with pytest.raises(ti.TableImageError, match=message):
        ti.load_image(ti.image_bytes(t, ti.LINKED_VERSION))


def test_linked_header_refused():
    """The start info position must be the start state's, inside the comb."""
    t = small_fsms()[0].tables
    img = ti.image_bytes(t, ti.LINKED_VERSION)
    wrong = t.linked.info(1)
    with pytest.raises(ti.TableImageError, match="is not the start state's"):
        ti.load_image(_patch(img, ti.HEADER_FIXED_BYTES, "<I", wrong))
    for outside in (t.linked.size, t.num_classes - 1):
        with pytest.raises(ti.TableImageError, match="outside"):
            ti.load_image(_patch(img, ti.HEADER_FIXED_BYTES, "<I", outside))
    with pytest.raises(ti.TableImageError, match="inconsistent header"):
        ti.load_image(_patch(img, ti.HEADER_FIXED_BYTES + 4, "<I", 1))
    with pytest.raises(ti.TableImageError, match="unsupported image version 4"):
        ti.load_image(_patch(img, 4, "<H", 4, reseal=False))
    with pytest.raises(ValueError, match="image version 4"):
        ti.image_bytes(t, 4)
