# SPDX-License-Identifier: Apache-2.0
"""rtl/fsm/fsm_pkg.sv and uvm_env/fsm/protocol.py must agree on every code and offset."""

from scripts.registry import ROOT
from uvm_env.common.sv_pkg import localparams
from uvm_env.fsm import protocol

PKG = ROOT / "rtl" / "fsm" / "fsm_pkg.sv"


def pkg_constants() -> dict[str, int]:
    return localparams(PKG)


def test_opcodes_and_status_codes():
    c = pkg_constants()
    ops = {k[3:]: v for k, v in c.items() if k.startswith("OP_")}
    assert ops == {name.replace("RESET_SLOT", "RESET"): code
                   for code, name in protocol.OP_NAMES.items()}
    st = {k[3:]: v for k, v in c.items() if k.startswith("ST_")}
    assert st == {name: code for code, name in protocol.ST_NAMES.items()}
    assert c["NUM_STATUS"] == protocol.NUM_STATUS
    assert c["CMD_W"] == protocol.CMD_W and c["RSP_W"] == protocol.RSP_W


def test_csr_map():
    c = pkg_constants()
    csr = {k[4:]: v for k, v in c.items() if k.startswith("CSR_")}
    assert csr.pop("ERR_BASE") == protocol.CSR_ERR_BASE
    assert csr.pop("WORDS") == protocol.CSR_WORDS
    assert csr == protocol.CSR
    assert c["FSM_ID"] == protocol.FSM_ID


def test_result_beat_round_trips():
    r = protocol.FsmRsp(op=2, status=0, grammar=1, accepted=True, accepting=False,
                        forced_valid=True, violated=False, slot=63, state=1645, forced=50256,
                        aux=0xFFFF_FFFF)
    assert protocol.FsmRsp.decode(r.encode()) == r
    assert protocol.cmd_beat(protocol.OP_ADVANCE, slot=5, grammar=1, token=7) == \
        0x02 | 1 << 8 | 5 << 16 | 7 << 32
