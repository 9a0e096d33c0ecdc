# SPDX-License-Identifier: Apache-2.0
"""The register descriptions (rtl/<blk>/<blk>_regs.yml) and what scripts/gen_regs.py makes
of them: the checked-in generated files must be up to date, and the generator must notice
a stale file and a broken description."""

import re
from pathlib import Path

import pytest

from scripts import gen_regs
from scripts.registry import ROOT, TESTS
from sglang_fpga import wire
from uvm_env.common import regs
from uvm_env.common.sv_pkg import localparams
from uvm_env.fsm import csr_regs as fsm_regs
from uvm_env.radix import csr_regs as radix_regs
from uvm_env.top import csr_regs as top_regs


def test_generated_files_are_up_to_date():
    assert gen_regs.stale() == [], "run `make regs` and commit the result"


def test_stale_file_is_noticed(tmp_path: Path, monkeypatch):
    doc = tmp_path / "radix-protocol.md"
    doc.write_text((ROOT / "docs/radix-protocol.md").read_text().replace("| 1 | CTRL |",
                                                                         "| 1 | CTL |"))
    monkeypatch.setattr(gen_regs.Target, "doc", property(lambda self: doc))
    assert gen_regs.stale((gen_regs.Target("radix"),)) == [doc]


@pytest.mark.parametrize("mod", [radix_regs, fsm_regs], ids=["radix", "fsm"])
def test_python_map_matches_description_and_package(mod):
    t = gen_regs.Target(mod.BLOCK.block)
    assert regs.load(t.source) == mod.BLOCK
    pkg = localparams(t.pkg)
    assert {k[4:]: v for k, v in pkg.items() if k.startswith("CSR_")} == {
        **mod.CSR, **dict(mod.BLOCK.sv_aliases), "WORDS": mod.CSR_WORDS}
    assert pkg[mod.BLOCK.id_const] == mod.BLOCK.by_name()["ID"].reset_value({})


@pytest.mark.parametrize("mod,test", [(radix_regs, "radix_csr_suite"),
                                      (fsm_regs, "fsm_csr_suite")], ids=["radix", "fsm"])
def test_reset_expressions_name_real_parameters(mod, test):
    """Every parameter a reset value names is set by the suite's DUT configuration or has
    a default in the top (evaluated on the DUT at run time)."""
    top = (ROOT / "rtl" / mod.BLOCK.block / f"{mod.BLOCK.block}_top.sv").read_text()
    for name in regs.parameter_names(mod.BLOCK):
        declared = re.search(rf"parameter\s+int\s+{name}\b", top) is not None
        assert declared or name in TESTS[test].parameters, name


def test_kernel_control_map_matches_description_package_and_kernels():
    """top_ctrl_regs.yml is parameterised: one block per kernel, each with the kernel's own
    NumArgs / NumOuts (krnl_*.sv), the package holding the names they share."""
    t = next(t for t in gen_regs.TARGETS if t.block == "top_ctrl")
    assert regs.load_all(t.source) == top_regs.BLOCKS
    pkg = localparams(t.pkg)
    assert {k[4:]: v for k, v in pkg.items() if k.startswith("CSR_")} == {
        **top_regs.CSR, "ARG_BASE": top_regs.CSR_ARG_BASE}
    for name, block in top_regs.BLOCKS.items():
        sv = (ROOT / "rtl" / "top" / f"{name}.sv").read_text()
        for param, value in block.params:
            assert re.search(rf"localparam\s+int\s+{param}\s*=\s*{value}\s*;", sv), (name, param)
        n_args = dict(block.params)["NumArgs"]
        assert [r.index for r in block.registers if r.array == "RESULT"] == [
            off // 4 for off in wire.result_offsets(n_args, dict(block.params)["NumOuts"])]


def test_host_offsets_match_the_kernel_control_map():
    """The host driver's ap_ctrl_hs constants (sglang_fpga/wire.py, which ships without
    uvm_env) are the description's."""
    fields = {f.name: f for f in top_regs.BLOCKS["krnl_radix"].by_name()["AP_CTRL"].fields}
    assert (wire.REG_CTRL, wire.REG_GIE, wire.REG_IER, wire.REG_ISR, wire.REG_ARGS) == tuple(
        4 * top_regs.CSR[n] for n in ("AP_CTRL", "GIE", "IER", "ISR")) + (
        4 * top_regs.CSR_ARG_BASE,)
    assert (wire.AP_START, wire.AP_DONE, wire.AP_IDLE) == tuple(
        fields[n].mask for n in ("AP_START", "AP_DONE", "AP_IDLE"))


def test_new_access_types_and_no_reset():
    block = top_regs.BLOCKS["krnl_fsm"]
    ctrl, arg = block.by_name()["AP_CTRL"], block.by_name()["ARG0"]
    assert ctrl.access == "RO/RC/W1S" and ctrl.writable and ctrl.mask_of("RC") == 0b1010
    assert arg.reset_value({}) is None and arg.wstrb == "ignored" and arg.array == "ARG"
    assert not block.slverr and block.unmapped() == list(range(23, 32))
    with pytest.raises(ValueError, match="wstrb"):
        regs.check(regs.RegBlock("x", "x_pkg", 4, (regs.Register(
            "A", 1, (regs.RegField("A", 0, 8, "RW", 0),), wstrb="some"),)))


def test_broken_descriptions_are_refused():
    field = regs.RegField("A", 0, 8, "RW", 0)
    with pytest.raises(ValueError, match="share index"):
        regs.check(regs.RegBlock("x", "x_pkg", 4, (regs.Register("A", 1, (field,)),
                                                   regs.Register("B", 1, (field,)))))
    with pytest.raises(ValueError, match="overlap"):
        regs.check(regs.RegBlock("x", "x_pkg", 4, (regs.Register("A", 1, (
            field, regs.RegField("B", 4, 8, "RO", 0))),)))
    with pytest.raises(ValueError, match="access"):
        regs.check(regs.RegBlock("x", "x_pkg", 4, (regs.Register("A", 1, (
            regs.RegField("A", 0, 1, "WO", 0),)),)))
    assert regs.evaluate("TokenCap // 16 * 16", {"TokenCap": 2048}) == 2048
    with pytest.raises(ValueError):
        regs.evaluate("__import__('os')", {})
