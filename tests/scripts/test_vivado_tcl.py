# SPDX-License-Identifier: Apache-2.0
"""The Vivado/Vitis flows, run under tclsh against a strict stub of the Vivado
commands (tests/scripts/vivado_stub/). No Vivado runs here: these tests prove
that the scripts call the tools with the board's part, the kernel's top and
sources in compile order, the right clock, and write where they should."""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from scripts import boards, kernels, synth
from scripts.kernels import Kernel, VitisKernel
from scripts.registry import ROOT, SimTest

STUB = ROOT / "tests" / "scripts" / "vivado_stub"
BOARD = boards.load("vck5000")

FIFO = Kernel(
    name="fifo", block="common", top="common_fifo_sync", filelists=("rtl/common/common.f",),
    clock_port="clk_i", description="a real module, so the flow is tested without radix_top",
    parameters={"Width": 32, "Depth": 16},
)
TOPS = [FIFO] + [k for k in kernels.KERNELS.values() if k.available()]


# ---------------------------------------------------------------- helpers

def parse_tcl_list(line: str) -> list[str]:
    """Enough of Tcl's list syntax for the stub log: words and {braced} words."""
    out, i = [], 0
    while i < len(line):
        if line[i].isspace():
            i += 1
        elif line[i] == "{":
            depth, j = 1, i + 1
            while depth:
                depth += {"{": 1, "}": -1}.get(line[j], 0)
                j += 1
            out.append(line[i + 1:j - 1])
            i = j
        else:
            j = i
            while j < len(line) and not line[j].isspace():
                j += 1
            out.append(line[i:j])
            i = j
    return out


def read_log(log: Path) -> list[list[str]]:
    return [parse_tcl_list(ln) for ln in log.read_text().splitlines() if ln.strip()]


def calls_of(calls, name):
    return [c for c in calls if c[0] == name]


def opt(call, flag):
    """Every value given to `flag` in one recorded call."""
    return [call[i + 1] for i, a in enumerate(call[:-1]) if a == flag]


@pytest.fixture
def stub_env(tmp_path, monkeypatch):
    """PATH with the stub vivado and v++ first; a fresh call log."""
    log = tmp_path / "stub.log"
    monkeypatch.setenv("PATH", f"{STUB / 'bin'}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("VIVADO_STUB_LOG", str(log))
    monkeypatch.setenv("VIVADO_STUB_VERSION", BOARD.vitis_version)
    return log


def run_stub(script: Path, tclargs: list[str], log: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "VIVADO_STUB_LOG": str(log)}
    return subprocess.run(
        ["tclsh", str(STUB / "vivado_stub.tcl"), "-mode", "batch", "-source", str(script),
         "-tclargs", *tclargs], cwd=ROOT, env=env, capture_output=True, text=True)


def check_synth_log(calls, board: boards.Board, kernel: Kernel, outdir: Path) -> None:
    """What a correct `make synth` run must have asked Vivado to do."""
    assert calls[-1] == ["vivado-exit", "0"], calls[-1]
    names = [c[0] for c in calls]
    order = ["read_verilog", "read_xdc", "synth_design", "opt_design", "place_design",
             "route_design", "report_timing_summary"]
    assert [n for n in names if n in order] == order, names

    (synth_call,) = calls_of(calls, "synth_design")
    assert opt(synth_call, "-part") == [board.part], "part differs from the boards registry"
    assert opt(synth_call, "-top") == [kernel.top]
    assert opt(synth_call, "-mode") == ["out_of_context"]
    assert opt(synth_call, "-generic") == [f"{k}={v}" for k, v in kernel.parameters.items()]
    assert parse_tcl_list(opt(synth_call, "-include_dirs")[0]) == \
        [str(p.resolve()) for p in kernel.include_dirs()]
    assert calls_of(calls, "get_parts")[0][-1] == board.part

    # Files: exist, in compile order, and the same list registry.py reads from the .f files.
    (rv,) = calls_of(calls, "read_verilog")
    assert rv[1] == "-sv"
    files = parse_tcl_list(rv[2])
    assert all(Path(f).is_file() for f in files)
    sim_view = SimTest("x", kernel.block, kernel.top, "m", "c", "", kernel.filelists)
    assert files == [str(p.resolve()) for p in kernel.sources()]
    assert files == list(dict.fromkeys(str(p.resolve()) for p in sim_view.sources()))
    assert Path(files[-1]).stem == kernel.top or kernel.top in [Path(f).stem for f in files]

    (xdc,) = calls_of(calls, "read_xdc")
    assert opt(xdc, "-mode") == ["out_of_context"]
    (clk,) = calls_of(calls, "create_clock")
    assert opt(clk, "-period") == [board.clock_period_ns()]
    assert clk[-1] == kernel.clock_port

    # Every report and checkpoint is written in outdir, and exists there.
    outputs = [opt(c, "-file")[0] for c in calls if c[0].startswith("report_")]
    outputs += [c[-1] for c in calls_of(calls, "write_checkpoint")]
    assert {Path(p).name for p in outputs} >= {
        "utilization.rpt", "timing_summary.rpt", "post_synth.dcp", "post_route.dcp"}
    for p in outputs:
        assert Path(p).parent == outdir, p
        assert Path(p).is_file(), p
    assert (outdir / "summary.txt").is_file()


# ---------------------------------------------------------------- make synth

@pytest.mark.parametrize("kernel", TOPS, ids=lambda k: k.name)
def test_synth_tcl_uses_registry_part_top_files_clock(kernel, stub_env, tmp_path):
    rc = synth.synth(BOARD, kernel.name, BOARD.default_clock_mhz, out_root=tmp_path / "synth",
                     table={kernel.name: kernel})
    assert rc == 0
    outdir = tmp_path / "synth" / BOARD.name / kernel.top
    check_synth_log(read_log(stub_env), BOARD, kernel, outdir)
    assert BOARD.clock_period_ns() == "3.333"
    assert synth.SynthJob(BOARD, kernel, 300).outdir == ROOT / "build/synth/vck5000" / kernel.top


@pytest.mark.parametrize(("wns", "rc"), [("0.125", 0), ("-0.250", 1), ("", 1)])
def test_synth_fails_on_negative_or_missing_wns(wns, rc, stub_env, tmp_path, monkeypatch):
    monkeypatch.setenv("VIVADO_STUB_WNS", wns)
    assert synth.synth(BOARD, "fifo", 300, out_root=tmp_path, table={"fifo": FIFO}) == rc
    summary = synth.read_summary(tmp_path / BOARD.name / FIFO.top / "summary.txt")
    assert summary["wns_ns"] == wns and summary["part"] == BOARD.part


def test_wrong_part_in_a_copy_of_synth_tcl_is_caught(stub_env, tmp_path):
    """Negative twin: a script that passes another part must fail the check."""
    work = tmp_path / "vivado"
    shutil.copytree(ROOT / "scripts" / "vivado", work)
    text = (work / "synth.tcl").read_text()
    assert text.count("-part $part") == 1
    (work / "synth.tcl").write_text(text.replace("-part $part", "-part xcvc1902-vsva2197-2MP-e-S"))
    job = synth.SynthJob(BOARD, FIFO, 300, out_root=tmp_path / "synth")
    job.write_inputs()
    proc = run_stub(work / "synth.tcl", job.tclargs(), stub_env)
    assert proc.returncode == 0, proc.stderr
    with pytest.raises(AssertionError, match="part differs"):
        check_synth_log(read_log(stub_env), BOARD, FIFO, job.outdir)


def test_wrong_part_in_a_copy_of_the_board_file_is_caught(stub_env, tmp_path):
    bdir = tmp_path / "boards"
    bdir.mkdir()
    text = (boards.BOARDS_DIR / "vck5000.toml").read_text()
    (bdir / "vck5000.toml").write_text(text.replace(BOARD.part, "xcvc1902-vsvd1760-1LP-e-S"))
    patched = boards.load("vck5000", boards_dir=bdir)
    assert synth.synth(patched, "fifo", 300, out_root=tmp_path / "synth",
                       table={"fifo": FIFO}) == 0
    with pytest.raises(AssertionError, match="part differs"):
        check_synth_log(read_log(stub_env), BOARD, FIFO,
                        tmp_path / "synth" / BOARD.name / FIFO.top)


def test_stub_refuses_unknown_commands_and_options(tmp_path):
    log = tmp_path / "stub.log"
    for body, what in (("launch_runs synth_1", "unknown command: launch_runs"),
                       ("synth_design -top x -part y -mode out_of_context -bogus 1",
                        "unknown option '-bogus'"),
                       ("read_verilog -sv /no/such/file.sv", "no such file")):
        script = tmp_path / "bad.tcl"
        script.write_text(body + "\n")
        proc = run_stub(script, [], log)
        assert proc.returncode == 3 and what in proc.stderr, (body, proc.stderr)


def test_synth_tcl_rejects_unknown_and_missing_arguments(stub_env, tmp_path):
    job = synth.SynthJob(BOARD, FIFO, 300, out_root=tmp_path / "synth")
    job.write_inputs()
    proc = run_stub(ROOT / "scripts/vivado/synth.tcl", job.tclargs() + ["-bogus", "1"], stub_env)
    assert proc.returncode == 3 and "unknown argument '-bogus'" in proc.stderr
    args = job.tclargs()
    i = args.index("-part")
    proc = run_stub(ROOT / "scripts/vivado/synth.tcl", args[:i] + args[i + 2:], stub_env)
    assert proc.returncode == 3 and "missing required argument -part" in proc.stderr


def test_committed_xdc_is_the_generated_kernel_contract():
    xdc = synth.committed_xdc(BOARD).read_text()
    assert xdc == synth.render_xdc(BOARD, "ap_clk")
    assert "create_clock -period 3.333 -name ap_clk [get_ports ap_clk]" in xdc


def test_every_board_file_loads_and_vck5000_matches_the_brief():
    assert "vck5000" in boards.names()
    for name in boards.names():
        boards.load(name)
    assert BOARD.part == "xcvc1902-vsvd1760-2MP-e-S"
    assert BOARD.platform == "xilinx_vck5000_gen4x8_qdma_2_202220_1"
    assert BOARD.vitis_version == "2022.2"
    assert BOARD.kernel_clocks_mhz == (300, 500)
    assert (BOARD.memory_target, BOARD.memory_kind, BOARD.memory_gb) == ("MC_NOC0", "DDR4", 12)
    assert BOARD.resources == {"lut": 880_000, "ff": 1_760_000, "bram36": 967, "uram": 463,
                               "dsp": 1_968}


def test_kernel_table_reads_the_same_file_lists_as_the_registry():
    from scripts import registry
    for t in registry.TESTS.values():
        mine = Kernel("x", t.block, t.top, t.filelists, "clk_i", "").sources()
        assert mine == t.sources()
    for k in kernels.KERNELS.values():
        if k.available():
            text = {p.stem: p.read_text() for p in k.sources()}[k.top]
            for name in k.parameters:
                assert re.search(rf"parameter\s+int\s+{name}\b", text), f"{k.top} has no {name}"


def test_unavailable_top_is_named_not_silently_skipped(tmp_path):
    ghost = Kernel("ghost", "ghost", "ghost_top", ("rtl/ghost/ghost.f",), "clk_i", "")
    ready, absent = kernels.select("all", {"ghost": ghost, "fifo": FIFO})
    assert ready == [FIFO] and absent == {"ghost": ["rtl/ghost/ghost.f"]}


# ---------------------------------------------------------------- usage errors, no Vivado

def _path_without(*tools: str) -> str:
    dirs = [d for d in os.environ["PATH"].split(os.pathsep)
            if d and not any((Path(d) / t).exists() for t in tools)]
    return os.pathsep.join(dirs)


def _run_entry(*args: str, path: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PATH": path, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "scripts.synth", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True)


def test_make_synth_unknown_board_exits_2_listing_boards():
    proc = subprocess.run(["make", "--no-print-directory", "synth", "BOARD=nope"], cwd=ROOT,
                          capture_output=True, text=True)
    assert proc.returncode != 0
    assert "unknown board 'nope'" in proc.stderr and "vck5000" in proc.stderr
    direct = _run_entry("synth", "--board", "nope", path=os.environ["PATH"])
    assert direct.returncode == 2 and "vck5000" in direct.stderr


@pytest.mark.parametrize("flow", ["synth", "package"])
def test_without_vivado_exit_2_with_instructions_and_no_results(flow):
    path = _path_without("vivado", "v++")
    assert shutil.which("vivado", path=path) is None
    out = ROOT / "build" / flow / "vck5000"
    before = sorted(out.rglob("*")) if out.exists() else None
    proc = _run_entry(flow, "--board", "vck5000", path=path)
    assert proc.returncode == 2, proc.stderr
    assert "not on PATH" in proc.stderr
    assert f"make {flow} BOARD=vck5000" in proc.stderr
    assert "make synth-estimate BOARD=vck5000" in proc.stderr
    assert "2022.2" in proc.stderr and "no results were written" in proc.stderr
    after = sorted(out.rglob("*")) if out.exists() else None
    assert before == after


def test_synth_without_vivado_prints_the_exact_vivado_command():
    proc = _run_entry("synth", "--board", "vck5000", "--top", "all",
                      path=_path_without("vivado"))
    for k in kernels.KERNELS.values():
        if k.available():
            assert f"-top {k.top}" in proc.stderr
            assert "-part xcvc1902-vsvd1760-2MP-e-S" in proc.stderr
            assert "-source scripts/vivado/synth.tcl" in proc.stderr


# ---------------------------------------------------------------- make package

KERNEL_XML = """<?xml version="1.0" encoding="UTF-8"?>
<root versionMajor="1" versionMinor="6">
  <kernel name="krnl_fake" language="ip_c" vlnv="sglang-fpga.org:RTLKernel:krnl_fake:1.0"
          attributes="" preferredWorkGroupSizeMultiple="0" workGroupSize="1" interrupt="true"
          hwControlProtocol="ap_ctrl_hs">
    <ports>
      <port name="s_axi_control" mode="slave" range="0x1000" dataWidth="32"
            portType="addressable" base="0x0"/>
      <port name="m_axi_gmem" mode="master" range="0xFFFFFFFFFFFFFFFF" dataWidth="512"
            portType="addressable" base="0x0"/>
    </ports>
    <args>
      <arg name="table" addressQualifier="1" id="0" port="m_axi_gmem" size="0x8"
           offset="0x010" type="void*" hostOffset="0x0" hostSize="0x8"/>
    </args>
  </kernel>
</root>
"""


@pytest.fixture
def fake_kernel(tmp_path) -> Kernel:
    """A Vitis kernel on disk in tmp_path, since rtl/top/ is not written yet."""
    top = tmp_path / "top"
    top.mkdir()
    (top / "krnl_fake.sv").write_text("module krnl_fake(input wire ap_clk);\nendmodule\n")
    (top / "top.f").write_text("krnl_fake.sv\n")
    (top / "krnl_fake.xml").write_text(KERNEL_XML)
    return Kernel("fake", "common", "common_fifo_sync", ("rtl/common/common.f",), "clk_i", "",
                  vitis=VitisKernel("krnl_fake", (str(top / "top.f"),),
                                    str(top / "krnl_fake.xml")))


def test_package_flow_xo_link_config_and_vpp_commands(stub_env, tmp_path, fake_kernel):
    assert fake_kernel.vitis_missing() == []
    out = tmp_path / "pkg"
    assert synth.package(BOARD, 300, out_root=out, table={"fake": fake_kernel}) == 0
    calls = read_log(stub_env)
    assert ["vivado-exit", "0"] in calls

    (proj,) = calls_of(calls, "create_project")
    assert opt(proj, "-part") == [BOARD.part]
    (xo,) = calls_of(calls, "package_xo")
    assert opt(xo, "-kernel_name") == ["krnl_fake"]
    assert opt(xo, "-xo_path") == [str(out / BOARD.name / "krnl_fake.xo")]
    assert opt(xo, "-kernel_xml") == [str(tmp_path / "top" / "krnl_fake.xml")]
    assoc = calls_of(calls, "ipx::associate_bus_interfaces")
    assert sorted(opt(c, "-busif")[0] for c in assoc) == ["m_axi_gmem", "s_axi_control"]
    assert all(opt(c, "-clock") == ["ap_clk"] for c in assoc)
    (files,) = calls_of(calls, "add_files")
    assert parse_tcl_list(files[-1]) == [str(p.resolve()) for p in fake_kernel.wrapper().sources()]

    cfg = (out / BOARD.name / "link.cfg").read_text()
    assert "nk=krnl_fake:1:krnl_fake_1" in cfg
    assert "sp=krnl_fake_1.m_axi_gmem:MC_NOC0" in cfg
    assert "freqHz=300000000:krnl_fake_1.ap_clk" in cfg

    link, pack = calls_of(calls, "v++")
    assert "--link" in link and opt(link, "--platform") == [BOARD.platform]
    assert opt(link, "-t") == ["hw"] and opt(link, "-o")[0].endswith("sglang_fpga.xsa")
    assert link[-1].endswith("krnl_fake.xo")
    assert "--package" in pack and "--package.boot_mode=ospi" in pack
    assert opt(pack, "-o")[0].endswith("sglang_fpga.xclbin") and pack[-1].endswith(".xsa")
    assert (out / BOARD.name / "sglang_fpga.xclbin").is_file()


def test_package_refuses_a_vitis_release_the_platform_was_not_built_for(
        stub_env, tmp_path, fake_kernel, monkeypatch):
    monkeypatch.setenv("VIVADO_STUB_VERSION", "2023.1")
    assert synth.package(BOARD, 300, out_root=tmp_path / "pkg", table={"f": fake_kernel}) == 2
    assert not stub_env.exists() or "package_xo" not in stub_env.read_text()


def test_package_waits_for_every_kernel(stub_env, tmp_path, fake_kernel):
    ghost = Kernel("ghost", "ghost", "ghost_top", ("rtl/ghost/ghost.f",), "clk_i", "",
                   vitis=VitisKernel("krnl_ghost", ("rtl/top/top.f",), "rtl/top/krnl_ghost.xml"))
    rc = synth.package(BOARD, 300, out_root=tmp_path / "pkg",
                       table={"fake": fake_kernel, "ghost": ghost})
    assert rc == 2 and not (tmp_path / "pkg").exists()
