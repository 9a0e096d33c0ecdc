# SPDX-License-Identifier: Apache-2.0
"""rtl/radix/radix_pkg.sv and uvm_env/radix/protocol.py must agree on every code and offset."""

from scripts.registry import ROOT
from uvm_env.common.sv_pkg import localparams
from uvm_env.radix import csr_regs, protocol

PKG = localparams(ROOT / "rtl" / "radix" / "radix_pkg.sv")


def test_opcodes_and_status_codes():
    assert {k[3:]: v for k, v in PKG.items() if k.startswith("OP_")} == \
        {name: code for code, name in protocol.OP_NAMES.items()}
    assert {k[3:]: v for k, v in PKG.items() if k.startswith("ST_")} == \
        {name: code for code, name in protocol.ST_NAMES.items()}


def test_register_map():
    csr = {k[4:]: v for k, v in PKG.items() if k.startswith("CSR_")}
    assert csr.pop("IN_FLIGHT_HIST_BASE") == csr_regs.CSR_IN_FLIGHT_HIST_BASE
    assert csr.pop("WORDS") == csr_regs.CSR_WORDS == len(csr_regs.BLOCK.registers)
    assert csr == protocol.CSR
    # The histogram array is IN_FLIGHT_BINS registers long, up to the next register.
    assert PKG["IN_FLIGHT_BINS"] == csr["OVERLAP"] - csr_regs.CSR_IN_FLIGHT_HIST_BASE


def test_stream_geometry():
    assert PKG["LANES"] == 16
    assert protocol.trailer_beats(512) == 1 and protocol.trailer_beats(64) == 2
    beats = protocol.pack_words(list(range(20)), 512)
    assert len(beats) == 2 and beats[1] >> 32 * 4 == 0   # padded with zeros
    trailer = 0x0501 | 7 << 32 | 8 << 64 | 9 << 96
    rsp = protocol.decode_rsp([*beats, trailer], 20, 512)
    assert (rsp.op, rsp.status, rsp.a, rsp.b, rsp.c) == (1, 5, 7, 8, 9)
    assert rsp.kvs == list(range(20))
