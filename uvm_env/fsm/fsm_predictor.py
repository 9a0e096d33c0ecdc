# SPDX-License-Identifier: Apache-2.0
"""FsmPredictor: the token-FSM core as the protocol document defines it, on models.token_fsm.

Everything a grammar decides (allowed?, next state, accepting, forced token,
mask) comes from ``TokenFSM`` on the tables the image carries. This class adds
only what the hardware adds: slots, the error rules and their priority, the
VALIDATE packet, the interrupt registers, and the loader's checks of an image
(mirrored step by step from rtl/fsm/fsm_loader.sv, and cross-checked against
``models.table_image.load_image`` by the table-load test).
"""

from __future__ import annotations

import struct
import zlib
from dataclasses import dataclass, field

import numpy as np

from models.table_image import load_image
from models.token_fsm import TokenFSM
from uvm_env.fsm.images import HDR, N_SECTIONS, SECTIONS
from uvm_env.fsm.protocol import (
    CSR,
    M32,
    NO_VIOLATION,
    OP_ADVANCE,
    OP_BIND,
    OP_LOAD,
    OP_MASK,
    OP_MASK_BATCH,
    OP_QUERY,
    OP_RESET,
    OP_VALIDATE,
    ST_GRAMMAR,
    ST_LD_CAPACITY,
    ST_LD_DIMS,
    ST_LD_HDR_CRC,
    ST_LD_LENGTH,
    ST_LD_MAGIC,
    ST_LD_PAY_CRC,
    ST_LD_VERSION,
    ST_OK,
    ST_OPCODE,
    ST_SLOT,
    ST_TOKEN,
    ST_VIOLATED,
    FsmRsp,
)

NONE32 = 0xFFFF_FFFF


@dataclass(frozen=True)
class FsmParams:
    vocab_max: int
    class_w: int
    state_w: int
    row_w: int
    ns_cap: int
    row_cap: int
    n_slots: int
    n_grammars: int
    mask_w: int
    load_w: int
    rsp_depth: int = 8    # results the core may owe at once (fsm_top RspDepth)

    @property
    def tok_w(self) -> int:
        return (self.vocab_max - 1).bit_length()   # $clog2(VocabMax)

    @classmethod
    def from_dut(cls, dut: object) -> FsmParams:
        def p(name: str) -> int:
            return int(getattr(dut, name).value)
        return cls(vocab_max=p("VocabMax"), class_w=p("ClassW"), state_w=p("StateW"),
                   row_w=p("RowW"), ns_cap=p("NsCap"), row_cap=p("RowCap"),
                   n_slots=p("NSlots"), n_grammars=p("NGrammars"), mask_w=p("MaskW"),
                   load_w=p("LoadW"), rsp_depth=p("RspDepth"))


@dataclass
class Slot:
    grammar: int
    state: int
    violated: bool = False
    pos: int = 0


@dataclass
class Expected:
    rsp: FsmRsp
    mask: list[int] | None = None       # expected mask beats (MASK with status OK)
    violation: tuple[int, int, int] | None = None   # (slot, position, token)
    visited: list[int] = field(default_factory=list)   # states entered (coverage)
    classes: list[int] = field(default_factory=list)   # token classes used (coverage)


class FsmPredictor:
    def __init__(self, params: FsmParams) -> None:
        self.p = params
        self.power_on()

    def power_on(self) -> None:
        """The state after rst_ni: no tables, no bound slot, every CSR at zero."""
        self.grammars: dict[int, TokenFSM] = {}
        self.slots: dict[int, Slot] = {}
        # CSR mirror
        self.irq_pending = False
        self.viol_regs = (0, 0, 0)
        self.viol_count = 0
        self.counts = {"COMMANDS": 0, "ADVANCES": 0, "ACCEPTED": 0, "VALIDATES": 0,
                       "MASKS": 0, "MASK_BEATS": 0, "LOADS_OK": 0, "ERRORS": 0}
        self.err_counts: dict[int, int] = {}
        self.last_load = 0

    # ---- public API --------------------------------------------------------
    def predict(self, op: int, slot: int = 0, grammar: int = 0, token: int = 0,
                tokens: list[int] | None = None, image: bytes | None = None,
                keep_last: int | None = None) -> Expected:
        """Apply one command; returns what the core must answer."""
        handler = {OP_BIND: self._bind, OP_ADVANCE: self._advance, OP_MASK: self._query,
                   OP_MASK_BATCH: self._query, OP_QUERY: self._query,
                   OP_RESET: self._reset}.get(op)
        if op == OP_VALIDATE:
            exp = self._validate(slot, list(tokens or []))
        elif op == OP_LOAD:
            exp = self._load(grammar, image or b"", keep_last)
        elif handler is not None:
            exp = handler(op, slot, grammar, token)
        else:
            exp = Expected(FsmRsp.error(op & 0xFF, ST_OPCODE, slot & 0xFFFF))
        self._count(exp)
        return exp

    def predict_batch(self, slots: list[int]) -> list[Expected]:
        """MASK_BATCH: one MASK-like result (and mask) per slot, in packet order."""
        return [self.predict(OP_MASK_BATCH, slot) for slot in slots]

    def mask_of(self, grammar: int, state: int) -> list[int]:
        """Mask beats of ``state``: allowed tokens, EOS bit = accepting, zero past V."""
        fsm = self.grammars[grammar]
        bits = fsm.allowed(state).copy()
        t = fsm.tables
        if t.eos_id is not None:
            bits[t.eos_id] = fsm.is_accepting(state)
        value = int.from_bytes(np.packbits(bits, bitorder="little").tobytes(), "little")
        w = self.p.mask_w
        n = (t.vocab_size + w - 1) // w
        return [(value >> (m * w)) & ((1 << w) - 1) for m in range(n)]

    def csr_expected(self) -> dict[str, int]:
        out = dict(self.counts)
        out["IRQ_STATUS"] = int(self.irq_pending)
        out["VIOL_SLOT"], out["VIOL_POS"], out["VIOL_TOKEN"] = self.viol_regs
        out["VIOL_COUNT"] = self.viol_count
        out["LOADED"] = sum(1 << g for g in self.grammars)
        out["LAST_LOAD"] = self.last_load
        return out

    def csr_error_counts(self) -> dict[int, int]:
        return dict(self.err_counts)

    def clear_irq(self) -> None:
        self.irq_pending = False

    def bound(self, slot: int) -> Slot | None:
        return self.slots.get(slot)

    # ---- commands ----------------------------------------------------------
    def _slot_error(self, op: int, slot: int) -> Expected | None:
        if slot >= self.p.n_slots:
            return Expected(FsmRsp.error(op, ST_SLOT, slot))
        if slot not in self.slots:
            return Expected(FsmRsp.error(op, ST_GRAMMAR, slot))
        return None

    def _report(self, op: int, slot: int, s: Slot, accepted: bool = False,
                aux: int | None = None) -> FsmRsp:
        fsm = self.grammars[s.grammar]
        forced = fsm.forced_token(s.state)
        return FsmRsp(op=op, status=ST_OK, grammar=s.grammar, accepted=accepted,
                      accepting=fsm.is_accepting(s.state), forced_valid=forced is not None,
                      violated=s.violated, slot=slot, state=s.state,
                      forced=forced if forced is not None else 0,
                      aux=s.pos if aux is None else aux)

    def _bind(self, op: int, slot: int, grammar: int, token: int) -> Expected:
        if slot >= self.p.n_slots:
            return Expected(FsmRsp.error(op, ST_SLOT, slot))
        if grammar >= self.p.n_grammars or grammar not in self.grammars:
            return Expected(FsmRsp.error(op, ST_GRAMMAR, slot))
        s = self.slots[slot] = Slot(grammar, self.grammars[grammar].start)
        return Expected(self._report(op, slot, s), visited=[s.state])

    def _reset(self, op: int, slot: int, grammar: int, token: int) -> Expected:
        err = self._slot_error(op, slot)
        if err:
            return err
        g = self.slots[slot].grammar
        s = self.slots[slot] = Slot(g, self.grammars[g].start)
        return Expected(self._report(op, slot, s), visited=[s.state])

    def _query(self, op: int, slot: int, grammar: int, token: int) -> Expected:
        err = self._slot_error(op, slot)
        if err:
            return err
        s = self.slots[slot]
        exp = Expected(self._report(op, slot, s))
        if op in (OP_MASK, OP_MASK_BATCH):
            exp.mask = self.mask_of(s.grammar, s.state)
        return exp

    def _advance(self, op: int, slot: int, grammar: int, token: int) -> Expected:
        err = self._slot_error(op, slot)
        if err:
            return err
        s = self.slots[slot]
        fsm = self.grammars[s.grammar]
        if s.violated:
            return Expected(FsmRsp.error(op, ST_VIOLATED, slot))
        if token >= fsm.vocab_size:
            return Expected(FsmRsp.error(op, ST_TOKEN, slot))
        nxt = fsm.advance(s.state, token)
        exp = Expected(FsmRsp.error(op, ST_OK, slot),
                       classes=[int(fsm.tables.token_class[token])])
        if nxt is None:
            s.violated = True
            exp.violation = (slot, s.pos, token)
        else:
            s.state, s.pos = nxt, s.pos + 1
            exp.visited = [nxt]
        exp.rsp = self._report(op, slot, s, accepted=nxt is not None)
        return exp

    def _validate(self, slot: int, tokens: list[int]) -> Expected:
        op = OP_VALIDATE
        err = self._slot_error(op, slot)
        if err:
            return err
        s = self.slots[slot]
        fsm = self.grammars[s.grammar]
        if s.violated:
            return Expected(FsmRsp.error(op, ST_VIOLATED, slot))
        if any(t >= fsm.vocab_size for t in tokens):
            return Expected(FsmRsp.error(op, ST_TOKEN, slot))
        exp = Expected(FsmRsp.error(op, ST_OK, slot))
        first = NO_VIOLATION
        for i, tok in enumerate(tokens):
            exp.classes.append(int(fsm.tables.token_class[tok]))
            nxt = fsm.advance(s.state, tok)
            if nxt is None:
                first = i
                s.violated = True
                exp.violation = (slot, s.pos, tok)
                break
            s.state, s.pos = nxt, s.pos + 1
            exp.visited.append(nxt)
        exp.rsp = self._report(op, slot, s, accepted=first == NO_VIOLATION, aux=first)
        return exp

    def _load(self, grammar: int, image: bytes, keep_last: int | None) -> Expected:
        received, keep_err = received_bytes(image, self.p.load_w, keep_last)
        if grammar >= self.p.n_grammars:
            status = ST_GRAMMAR
        else:
            status = hw_verdict(image[:received], keep_err, self.p)
        rsp = FsmRsp(op=OP_LOAD, status=status, grammar=grammar & 0xFF, accepted=False,
                     accepting=False, forced_valid=False, violated=False, slot=0, state=0,
                     forced=0, aux=received & M32)
        if status == ST_OK:
            self.grammars[grammar] = TokenFSM.from_tables(load_image(image))
            for k in [k for k, s in self.slots.items() if s.grammar == grammar]:
                del self.slots[k]
        return Expected(rsp)

    def _count(self, exp: Expected) -> None:
        r = exp.rsp
        self.counts["COMMANDS"] += 1
        if r.status != ST_OK:
            self.counts["ERRORS"] += 1
            self.err_counts[r.status] = self.err_counts.get(r.status, 0) + 1
        elif r.op == OP_ADVANCE:
            self.counts["ADVANCES"] += 1
            self.counts["ACCEPTED"] += int(r.accepted)
        elif r.op == OP_VALIDATE:
            self.counts["VALIDATES"] += 1
        elif r.op in (OP_MASK, OP_MASK_BATCH):
            self.counts["MASKS"] += 1
            self.counts["MASK_BEATS"] += len(exp.mask or [])
        elif r.op == OP_LOAD:
            self.counts["LOADS_OK"] += 1
        if r.op == OP_LOAD:
            self.last_load = r.status
        if exp.violation is not None:
            self.viol_count += 1
            if not self.irq_pending:
                self.irq_pending = True
                self.viol_regs = exp.violation


# ---- the loader's checks, mirrored ---------------------------------------------
def received_bytes(image: bytes, load_w: int, keep_last: int | None) -> tuple[int, bool]:
    """Bytes the loader counts (whole kept qwords) and whether TKEEP was malformed."""
    lb = load_w // 8
    n_beats = max(1, (len(image) + lb - 1) // lb)
    rem = len(image) - (n_beats - 1) * lb
    keep = keep_last if keep_last is not None else (1 << rem) - 1
    nq, gap, ok = 0, False, True
    for j in range(lb // 8):
        q = (keep >> (8 * j)) & 0xFF
        if q == 0xFF and not gap:
            nq += 1
        else:
            gap = True
            ok = ok and q == 0
    return (n_beats - 1) * lb + 8 * nq, not ok


def _bitlen1(x: int) -> int:
    return max(1, x.bit_length())


def _storage(logical: int) -> int:
    return 8 if logical <= 8 else 16 if logical <= 16 else 32


def hw_verdict(data: bytes, keep_err: bool, p: FsmParams) -> int:
    """Status fsm_loader reports for the bytes it received (docs/fsm-protocol.md order)."""
    n = len(data)
    hdr = data[:HDR] + bytes(max(0, HDR - n))
    (magic, version, hdr_bytes, total, v, s, c, r, wpr, start, final, eos, reject, empty,
     sbits, cbits, rbits, tbits, nsec, wbits, bbits, hcrc, pcrc, comb, start_info,
     reserved) = struct.unpack_from("<IHHIIIIIIIIIIIBBBBHBBIIIII", hdr)
    if keep_err or n < 72:
        return ST_LD_LENGTH
    if magic != 0x4D534654:
        return ST_LD_MAGIC
    if version != 3 or nsec != N_SECTIONS or hdr_bytes != HDR or reserved != 0:
        return ST_LD_VERSION
    if n < HDR:
        return ST_LD_LENGTH
    zeroed = bytearray(hdr)
    zeroed[0x3C:0x40] = bytes(4)
    if zlib.crc32(bytes(zeroed)) != hcrc:
        return ST_LD_HDR_CRC
    if n != total:
        return ST_LD_LENGTH
    if zlib.crc32(data[HDR:]) != pcrc:
        return ST_LD_PAY_CRC
    d_s, d_c = _bitlen1(s), _bitlen1((c - 1) & M32)
    d_r, d_t = _bitlen1(r), _bitlen1((v - 1) & M32)
    d_b = _bitlen1((comb - 1) & M32)
    ok = (v != 0 and s != 0 and c != 0 and sbits == d_s and cbits == d_c and rbits == d_r
          and bbits == d_b and c <= 4094 and comb > c and d_s <= 20 and d_b <= 20
          and c <= start_info < comb
          and tbits == d_t and wpr == (v + 31) >> 5 and wbits == 32
          and reject == ((1 << d_s) - 1) & M32 and empty == ((1 << d_r) - 1) & M32
          and start < s and (final == NONE32 or final < s) and (eos == NONE32 or eos < v)
          and (eos == NONE32) == (final == NONE32))
    bitmap = (s + 31) >> 5
    stride = (wpr + 15) >> 4 << 4  # mask rows padded to whole 512-bit words
    # (image id, logical bits, count) of the version-3 sections, in order
    want = [(1, d_c, v), (3, 32, comb), (4, 32, bitmap), (5, d_r, s), (6, 32, r * stride),
            (7, d_t, s), (8, 32, bitmap)]
    prev_end = HDR
    for k, (want_id, logical, count) in enumerate(want):
        ident, elem, lbits, cnt, off, length = struct.unpack_from(
            "<HBBIII", hdr, SECTIONS + 16 * k)
        end = off + length
        if (ident != want_id or lbits != logical or elem != _storage(logical) or cnt != count
                or length != count * _storage(logical) // 8 or off % 64 or off < prev_end
                or end > total):
            ok = False
        if ident == 3 and ok and not _comb_payloads_ok(data[off:off + length], c, comb,
                                                        p.class_w + 1):
            ok = False
        prev_end = end
    if not ok:
        return ST_LD_DIMS
    if (v > p.vocab_max or d_s > p.state_w or d_c > p.class_w or d_r > p.row_w
            or d_t > p.tok_w or r > p.row_cap or comb > p.ns_cap):
        return ST_LD_CAPACITY
    return ST_OK


def _comb_payloads_ok(raw: bytes, classes: int, comb: int, ck_w: int) -> bool:
    """The loader's one check of comb values: every entry whose check, cut to the
    memory's ck_w bits, names a class points at a position in [classes, comb)."""
    e = np.frombuffer(raw, dtype="<u4").astype(np.int64)
    wide = (e & 0xFFF) >= (1 << ck_w) - 1          # free, or cut to free: skipped
    cls = ~wide & ((e & ((1 << ck_w) - 1)) < classes)
    pay = e >> 12
    return bool(((pay[cls] >= classes) & (pay[cls] < comb)).all())


CSR_COUNTERS = ("COMMANDS", "ADVANCES", "ACCEPTED", "VALIDATES", "MASKS", "MASK_BEATS",
                "LOADS_OK", "ERRORS", "IRQ_STATUS", "VIOL_SLOT", "VIOL_POS", "VIOL_TOKEN",
                "VIOL_COUNT", "LOADED", "LAST_LOAD")
assert all(name in CSR for name in CSR_COUNTERS)
