# SPDX-License-Identifier: Apache-2.0
"""`make formal`: the runner fails on a broken design or an unreached cover, so a green
`make formal` means something. The proofs themselves pass in `make formal`, which
`make test` runs as its own step (each proof one test); running them here again would
double the longest part of CI.

The planted bugs run on a scratch copy of rtl/; the tree is never modified.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from scripts import formal
from scripts.registry import ROOT


@pytest.fixture(scope="module")
def env() -> dict[str, str]:
    # As `make formal` does: the first proof must not be the one that compiles the wasm
    # tools into YoWASP's cache (under load, beside another YoWASP user, that first
    # run once failed here without a counterexample).
    env = formal.tool_env()
    formal.warm_tools(env)
    return env


def test_every_block_with_an_axi_lite_or_stream_proof_is_found():
    names = {p.stem for p in formal.proofs()}
    assert {"common_fifo_sync", "common_skid_buffer", "fsm_csr", "radix_csr",
            "radix_free_stack", "fsm_mask_engine", "top_ctrl_hs"} <= names


def test_tasks_are_read_from_the_sby_file():
    assert formal.tasks(ROOT / "rtl/common/formal/common_fifo_sync.sby") == [
        "prove_d3", "prove_d4", "cover_d3", "cover_d4"]


def test_verdicts_are_saved_over_earlier_ones(tmp_path: Path):
    path = tmp_path / "results.json"
    sby = ROOT / "rtl/common/formal/common_fifo_sync.sby"
    other = ROOT / "rtl/common/formal/common_skid_buffer.sby"
    assert formal.load_results(path) is None
    formal.save([formal.ProofResult("common_fifo_sync", sby, False, 1.0, ["prove: FAIL"]),
                 formal.ProofResult("common_skid_buffer", other, True, 2.0, [])], path)
    formal.save([formal.ProofResult("common_fifo_sync", sby, True, 3.0, [])], path)
    saved = formal.load_results(path)
    assert saved == {"rtl/common/formal/common_fifo_sync.sby":
                     {"passed": True, "seconds": 3.0, "detail": []},
                     "rtl/common/formal/common_skid_buffer.sby":
                     {"passed": True, "seconds": 2.0, "detail": []}}


def _planted(tmp_path: Path, rel: str, old: str, new: str) -> Path:
    """A copy of rtl/ with one edit in `rel`; returns the copy's rtl folder."""
    rtl = tmp_path / "rtl"
    shutil.copytree(ROOT / "rtl", rtl)
    text = (rtl / rel).read_text()
    assert old in text, f"{old!r} not in {rel}"
    (rtl / rel).write_text(text.replace(old, new, 1))
    return rtl


# Each planted bug breaks one promise of the contract; the proof must fail.
BUGS = [
    ("common/common_skid_buffer.sv", "common_skid_buffer",   # wrong beat after a stall
     "if (out_ready_i) out_data_q <= skid_data_q;", "if (out_ready_i) out_data_q <= in_data_i;"),
    ("common/common_fifo_sync.sv", "common_fifo_sync",       # power-of-two pointer wrap
     "if (ram_re) rptr_q <= (rptr_q == LAST_ADDR) ? '0 : rptr_q + 1'b1;",
     "if (ram_re) rptr_q <= rptr_q + 1'b1;"),
    ("top/top_ctrl_hs.sv", "top_ctrl_hs",                    # B dropped without BREADY
     "if (s_bvalid_o && s_bready_i) s_bvalid_o <= 1'b0;", "if (s_bvalid_o) s_bvalid_o <= 1'b0;"),
    ("fsm/fsm_csr.sv", "fsm_csr",                            # a write taken while B is pending
     "s_axil_wvalid_i && !s_axil_bvalid_o;", "s_axil_wvalid_i;"),
    ("radix/radix_csr.sv", "radix_csr",                      # a clear wins over a new error
     "irq_pend_q <= error_i;", "irq_pend_q <= 1'b0;"),
    ("radix/radix_csr.sv", "radix_csr",                      # R dropped without RREADY
     "end else if (s_axil_rready_i) begin", "end else begin"),
    ("radix/radix_free_stack.sv", "radix_free_stack",        # a pop that keeps its entry
     "count_q <= count_q - 1'b1;", "count_q <= count_q;"),
    ("radix/radix_free_stack.sv", "radix_free_stack",        # refill in the wrong order
     "wdata = IdxW'((IdxW + 1)'(Depth - 1) - fill_q);", "wdata = IdxW'(fill_q);"),
    ("radix/radix_free_stack.sv", "radix_free_stack",        # a refill that runs long
     "fill_q <= fill_q + 1'b1;", "fill_q <= fill_q - 1'b1;"),
    ("radix/radix_read_sig.sv", "radix_read_sig",            # no same-cycle add bypass
     "(add_c && b_in_a[h]));", "1'b0);"),
    ("radix/radix_read_sig.sv", "radix_read_sig",            # add before clear, same cycle
     "sig_q[c] <= (clr_c ? '0 : sig_q[c]) | (add_c ? a_bits : '0);",
     "sig_q[c] <= clr_c ? '0 : (sig_q[c] | a_bits);"),
    ("radix/radix_axi_arb.sv", "radix_axi_arb",              # W queue never full: overruns
     "(QW + 1)'(WqDepth - 1);", "(QW + 1)'(WqDepth + 1);"),
    ("radix/radix_axi_arb.sv", "radix_axi_arb",              # RREADY not from R's own cache
     "!m_axi_rvalid || |(r_to & rready);", "!m_axi_rvalid || |rready;"),
    ("radix/radix_axi_arb.sv", "radix_axi_arb",              # AW round robin that starves
     "aw_above_q <= past(aw_gnt);", "aw_above_q <= aw_gnt;"),
    ("fsm/fsm_mask_engine.sv", "fsm_mask_engine",            # one bit past V leaks
     "if ((LGM+1)'(i) >= r_keep_q) beat[i] = 1'b0;", "if ((LGM+1)'(i) > r_keep_q) beat[i] = 1'b0;"),
    ("fsm/fsm_mask_engine.sv", "fsm_mask_engine",            # TLAST one beat early
     "r_last_q    <= (cur_beat_q == cur_nb_q - BeatW'(1));",
     "r_last_q    <= (cur_beat_q == cur_nb_q - BeatW'(2));"),
]


@pytest.mark.parametrize(("rel", "proof", "old", "new"), BUGS,
                         ids=[f"{b[1]}-{i}" for i, b in enumerate(BUGS)])
def test_planted_bug_fails_the_proof(rel: str, proof: str, old: str, new: str,
                                     env: dict[str, str], tmp_path: Path):
    rtl = _planted(tmp_path, rel, old, new)
    sby = next(rtl.glob(f"*/formal/{proof}.sby"))
    res = formal.run_proof(sby, env, workroot=tmp_path / "work")
    assert not res.passed
    assert any(d.startswith(("prove", "bmc")) and "FAIL" in d for d in res.detail), res.detail


def test_unreached_cover_fails_the_proof(env: dict[str, str], tmp_path: Path):
    """A cover the design cannot reach (three beats in a two-entry buffer) fails."""
    rtl = _planted(tmp_path, "common/formal/common_skid_buffer_fv.sv", "endmodule",
                   "  always @(posedge clk_i) if (init) cover (occ == 3'd3);\n\nendmodule")
    res = formal.run_proof(rtl / "common/formal/common_skid_buffer.sby", env,
                           workroot=tmp_path / "work")
    assert not res.passed
    assert any(d.startswith("cover") for d in res.detail), res.detail
    assert not any(d.startswith("prove") for d in res.detail), res.detail
