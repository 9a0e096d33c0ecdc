# SPDX-License-Identifier: Apache-2.0
"""The Yosys estimate (UltraScale+, not a Vivado result) of every available
synthesis top in a small configuration, plus the checks that make a broken
design fail it. Runtime: a few seconds per small module once YoWASP's wasm is
cached; the first call of a fresh venv adds about a minute of wasm compile."""

import json
import subprocess
import sys
from dataclasses import asdict
from pathlib import Path

import pytest

from scripts import boards, kernels, logic_levels, synth_estimate
from scripts.registry import ROOT
from scripts.synth_estimate import (
    LABEL,
    Design,
    Estimate,
    EstimateError,
    check,
    estimate_design,
    parse_overrides,
)
from scripts.synth_estimate import main as synth_estimate_main

BOARD = boards.load("vck5000")
COMMON = ROOT / "rtl" / "common"
FIFO = Design("fifo", "common_fifo_sync",
              [COMMON / f for f in ("common_ram_sdp.sv", "common_skid_buffer.sv",
                                    "common_fifo_sync.sv")],
              [COMMON], {"Width": 32, "Depth": 16})


# Small configurations of each top, taking every generate branch the board build takes
# (the radix controller with its L2 tier, which its RTL default leaves out). Measured:
# radix 322 s (its on-chip default took 243 s), fsm 295 s (463 s at its default). The
# board configurations are `make synth-estimate BOARD=vck5000`'s job, not CI's.
SMALL = {
    "radix": {"NodeCap": 64, "TokenCap": 2048, "MaxLen": 512, "HashBuckets": 16, "L2": 1,
              "L1Lines": 8, "L1Ways": 2},
    "fsm": {"VocabMax": 4096, "StateW": 10, "NsCap": 16384, "RowCap": 16, "NSlots": 8,
            "NGrammars": 2},
}


@pytest.mark.slow
@pytest.mark.parametrize("kernel", [k for k in kernels.KERNELS.values() if k.available()],
                         ids=lambda k: k.name)
def test_available_top_synthesises_in_a_small_configuration(kernel, tmp_path):
    design = Design.of(kernel)
    design.parameters = {**design.parameters, **SMALL.get(kernel.name, {})}
    est = estimate_design(design, BOARD, tmp_path / kernel.top)
    print(f"{kernel.top}: {est.seconds} s, warm cache {est.wasm_cache_warm}, "
          f"resources {est.resources}, levels {est.logic_levels}")
    check(est)
    assert est.resources["lut"] > 0 and est.resources["ff"] > 0


@pytest.fixture(scope="module")
def fifo_est(tmp_path_factory):
    """A real module that exists regardless of radix/fsm progress; one Yosys run."""
    workdir = tmp_path_factory.mktemp("fifo")
    return estimate_design(FIFO, BOARD, workdir), workdir


def test_fifo_estimate_counts_and_depth(fifo_est):
    est, _ = fifo_est
    check(est)
    assert est.label == LABEL
    # Width 32 x Depth 16 in LUTRAM; two 32-bit skid registers plus pointers.
    assert est.info["lut_memory"] > 0 and est.resources["bram36"] == 0
    assert est.resources["ff"] >= 64
    assert est.percent["lut"] == pytest.approx(100 * est.resources["lut"] / 880_000, abs=1e-3)
    # The common FIFO meets the 8-level rule the cores are held to; pairing CARRY4
    # into CARRY8 can only lower the count, never raise it.
    assert 1 <= est.logic_levels <= 8
    assert est.logic_levels <= est.raw_levels
    assert len(est.level_path) == est.logic_levels
    # Endpoint groups come from the same graph: none deeper than the worst path.
    assert est.endpoints_over_budget == 0
    assert est.worst_endpoints and 1 <= est.worst_endpoints[0][1] <= est.logic_levels


def test_broken_module_fails_the_estimate(tmp_path):
    """Negative twin: what the test above runs must be able to fail."""
    src = tmp_path / "broken.sv"
    src.write_text("module broken(input logic a, output logic y);\n  assign y = a +;\nendmodule\n")
    est = estimate_design(Design("broken", "broken", [src], []), BOARD, tmp_path / "out")
    assert est.status == "failed" and "ERROR" in est.error
    with pytest.raises(EstimateError, match="broken"):
        check(est)


def test_latch_fails_the_estimate(tmp_path):
    src = tmp_path / "latchy.sv"
    src.write_text("module latchy(input logic en, d, output logic q);\n"
                   "  always_latch if (en) q = d;\nendmodule\n")
    est = estimate_design(Design("latchy", "latchy", [src], []), BOARD, tmp_path / "out")
    assert est.status == "ok"
    with pytest.raises(EstimateError, match="latch"):
        check(est)


def test_unavailable_top_is_reported_not_estimated(tmp_path, monkeypatch):
    ghost = kernels.Kernel("ghost", "ghost", "ghost_top", ("rtl/ghost/ghost.f",), "clk_i", "")
    monkeypatch.setattr(kernels, "KERNELS", {"ghost": ghost})
    (res,) = synth_estimate.run(BOARD, "all", out_root=tmp_path)
    assert res.status == "not yet available" and "rtl/ghost/ghost.f" in res.error
    md = (tmp_path / BOARD.name / "estimate.md").read_text()
    data = json.loads((tmp_path / BOARD.name / "estimate.json").read_text())
    assert md.startswith(f"# {LABEL}") and data["label"] == LABEL
    assert "| ghost_top | not yet available |" in md


def test_unknown_board_exits_2():
    assert synth_estimate.main(["--board", "nope"]) == 2


def test_yowasp_cache_lives_next_to_the_venv(monkeypatch):
    monkeypatch.delenv("YOWASP_CACHE_DIR", raising=False)
    assert synth_estimate.yowasp_env()["YOWASP_CACHE_DIR"] == str(Path(sys.prefix) / "yowasp-cache")
    monkeypatch.setenv("YOWASP_CACHE_DIR", "/somewhere")
    assert synth_estimate.yowasp_env()["YOWASP_CACHE_DIR"] == "/somewhere"


# ---------------------------------------------------------------- logic levels

def _cell(kind, conns, dirs):
    return {"type": kind, "connections": conns, "port_directions": dirs}


def test_logic_levels_count_combinational_cells_between_registers():
    lut = {"I0": "input", "I1": "input", "O": "output"}
    ff = {"C": "input", "D": "input", "Q": "output"}
    ram = {"A0": "input", "D": "input", "WE": "input", "WCLK": "input", "O": "output"}
    cells = {
        "ff1": _cell("FDRE", {"C": [1], "D": [9], "Q": [2]}, ff),
        "l1": _cell("LUT2", {"I0": [2], "I1": [3], "O": [4]}, lut),
        "l2": _cell("LUT2", {"I0": [4], "I1": [2], "O": [5]}, lut),
        "c1": _cell("CARRY4", {"I0": [5], "I1": ["0"], "O": [6]}, lut),
        "ff2": _cell("FDRE", {"C": [1], "D": [6], "Q": [7]}, ff),
        # The LUTRAM's write data (deep logic) must not count through its output.
        "r1": _cell("RAM32X1S", {"A0": [7], "D": [6], "WE": [5], "WCLK": [1], "O": [8]}, ram),
        "l3": _cell("LUT2", {"I0": [8], "I1": [7], "O": [9]}, lut),
    }
    net = {"modules": {"t": {"cells": cells, "netnames": {"q2": {"bits": [7]}}}}}
    rep = logic_levels.analyse(net, "t")
    assert rep.levels == 3 and rep.path == ["LUT2", "LUT2", "CARRY4"] and not rep.loops


def test_multiport_lutram_read_port_follows_only_its_own_address():
    """RAM64M8: ADDRH is also the write address, so DOA -> logic -> ADDRH is no loop."""
    lut = {"I0": "input", "O": "output"}
    ram = {"ADDRA": "input", "ADDRH": "input", "DIA": "input", "WE": "input",
           "WCLK": "input", "DOA": "output", "DOH": "output"}
    cells = {
        "r": _cell("RAM64M8", {"ADDRA": [2], "ADDRH": [4], "DIA": [9], "WE": [9],
                               "WCLK": [1], "DOA": [3], "DOH": [5]}, ram),
        "l": _cell("LUT1", {"I0": [3], "O": [4]}, lut),
    }
    rep = logic_levels.analyse({"modules": {"t": {"cells": cells, "netnames": {}}}}, "t")
    assert not rep.loops and rep.levels == 3   # ADDRA -> DOA -> LUT1 -> ADDRH -> DOH


@pytest.mark.parametrize("preg,levels", [("0", 3), ("1", 1)])
def test_logic_levels_walk_through_a_dsp_without_output_register(preg, levels):
    """A multiply on an address path must show: a DSP48E2 with PREG=0 is one more
    level between its input and output logic; with PREG=1 it ends the path."""
    lut = {"I0": "input", "O": "output"}
    dsp = {"A": "input", "B": "input", "CLK": "input", "CEP": "input", "P": "output"}
    cells = {
        "l1": _cell("LUT1", {"I0": [2], "O": [3]}, lut),
        "d": {**_cell("DSP48E2", {"A": [3], "B": [2], "CLK": [1], "CEP": [4], "P": [5]}, dsp),
              "parameters": {"PREG": preg.rjust(32, "0")}},
        "l2": _cell("LUT1", {"I0": [5], "O": [6]}, lut),
    }
    rep = logic_levels.analyse({"modules": {"t": {"cells": cells, "netnames": {}}}}, "t")
    assert rep.levels == levels and not rep.loops


def _carry_chain(n: int) -> dict:
    """FF -> n chained CARRY4 (CO[3] -> CI) -> FF, entered at the first cell's S."""
    ff = {"C": "input", "D": "input", "Q": "output"}
    c4 = {"CI": "input", "S": "input", "O": "output", "CO": "output"}
    cells = {"ff1": _cell("FDRE", {"C": [1], "D": [2], "Q": [2]}, ff)}
    ci, bit = "0", 100
    for i in range(n):
        co = [bit, bit + 1, bit + 2, bit + 3]
        cells[f"c{i}"] = _cell("CARRY4", {"CI": [ci], "S": [2, "0", "0", "0"],
                                          "O": [bit + 4, bit + 5, bit + 6, bit + 7],
                                          "CO": co}, c4)
        ci, bit = co[3], bit + 8
    cells["ff2"] = _cell("FDRE", {"C": [1], "D": [ci], "Q": [3]}, ff)
    return {"modules": {"t": {"cells": cells, "netnames": {}}}}


@pytest.mark.parametrize("n,pairs", [(1, 1), (2, 1), (3, 2), (16, 8)])
def test_logic_levels_count_two_chained_carry4_as_one_carry8(n, pairs):
    net = _carry_chain(n)
    assert logic_levels.analyse(net, "t").levels == pairs
    assert logic_levels.analyse(net, "t", carry8=False).levels == n


def test_carry8_pairing_does_not_hide_an_entry_half_way():
    """A LUT feeding the second CARRY4's S input still costs that cell a level."""
    net = _carry_chain(2)
    cells = net["modules"]["t"]["cells"]
    cells["l"] = _cell("LUT1", {"I0": [2], "O": [50]}, {"I0": "input", "O": "output"})
    cells["c1"]["connections"]["S"] = [50, "0", "0", "0"]
    assert logic_levels.analyse(net, "t").levels == 2    # LUT1 -> upper CARRY4


def test_logic_levels_report_combinational_loops():
    lut = {"I0": "input", "O": "output"}
    cells = {"a": _cell("LUT1", {"I0": [2], "O": [3]}, lut),
             "b": _cell("LUT1", {"I0": [3], "O": [2]}, lut)}
    rep = logic_levels.analyse({"modules": {"t": {"cells": cells, "netnames": {}}}}, "t")
    assert rep.loops


def test_logic_levels_agree_with_yosys_ltp_on_the_fifo(fifo_est):
    """Cross-check against Yosys' own `ltp` restricted to combinational cells
    (the FIFO's LUTRAM lies on no longest path, so the two must agree)."""
    est, workdir = fifo_est
    check(est)
    env = synth_estimate.yowasp_env()
    proc = subprocess.run(
        [synth_estimate.yosys_exe(), "-q", "-p",
         "read_json netlist.json; tee -o ltp.txt ltp w:* t:LUT* t:CARRY* t:MUXF* t:INV"],
        cwd=workdir, env=env, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    text = (workdir / "ltp.txt").read_text()
    assert f"(length={est.raw_levels})" in text


# ---------------------------------------------------------------- endpoint groups

def _endpoint_netlist() -> dict:
    """Registers at known depths behind one source register `src_q` (bit 2):
    a_q[0] 1 LUT, a_q[1] none; u.b_q[0] (an array element) 3 LUTs; two URAM288
    whose outputs carry only Yosys names, addressed through 2 and 3 LUTs."""
    lut = {"I0": "input", "O": "output"}
    ff = {"C": "input", "D": "input", "Q": "output"}
    uram = {"CLK": "input", "ADDR_A": "input", "DIN_A": "input", "DOUT_A": "output"}
    chain = [(2, 3), (2, 4), (4, 5), (5, 6), (2, 7), (7, 8)]   # LUT1 (in, out)
    # URAMs first: the tie with u.b_q must be broken by name, not by netlist order.
    cells = {
        "u1": _cell("URAM288", {"CLK": [1], "ADDR_A": [8], "DIN_A": [2], "DOUT_A": [30, 31]},
                    uram),
        "u2": _cell("URAM288", {"CLK": [1], "ADDR_A": [6], "DIN_A": [2], "DOUT_A": [32]}, uram),
        "src": _cell("FDRE", {"C": [1], "D": [2], "Q": [2]}, ff),
        "a0": _cell("FDRE", {"C": [1], "D": [3], "Q": [10]}, ff),
        "a1": _cell("FDRE", {"C": [1], "D": [2], "Q": [11]}, ff),
        "b": _cell("FDRE", {"C": [1], "D": [6], "Q": [20]}, ff),
    }
    cells |= {f"l{o}": _cell("LUT1", {"I0": [i], "O": [o]}, lut) for i, o in chain}
    netnames = {"clk": [1], "src_q": [2], "a_q": [10, 11], "u.b_q[0]": [20],
                "$abc$8": [8], "$techmap$9.A": [30, 31], "$techmap$10.A": [32]}
    return {"modules": {"t": {"cells": cells,
                              "netnames": {n: {"bits": b} for n, b in netnames.items()}}}}


def test_endpoint_levels_group_registers_and_collapse_yosys_names():
    levels = logic_levels.endpoint_levels(_endpoint_netlist(), "t")
    assert levels == {
        "FDRE src_q": 0,
        "FDRE a_q": 1,            # worst bit of the register, index dropped
        "FDRE u.b_q": 3,          # array element index dropped too
        "URAM288 (unnamed)": 3,   # both URAMs, through their Yosys-named address nets
        "URAM288 src_q": 0,       # readable net on the input pin names the group
        "URAM288 clk": 0,
    }


def test_endpoint_levels_keep_the_carry8_rule():
    assert logic_levels.endpoint_levels(_carry_chain(4), "t") == {"FDRE (unnamed)": 2}
    assert logic_levels.endpoint_levels(_carry_chain(4), "t", carry8=False) == {
        "FDRE (unnamed)": 4}


def test_over_budget_counts_groups_and_ranks_the_worst():
    levels = logic_levels.endpoint_levels(_endpoint_netlist(), "t")
    summary = logic_levels.over_budget(levels, 2, worst=3)
    assert summary.over == 2
    assert summary.worst == [("FDRE u.b_q", 3), ("URAM288 (unnamed)", 3), ("FDRE a_q", 1)]
    assert logic_levels.over_budget(levels, 3).over == 0
    assert len(logic_levels.over_budget(levels, 3).worst) == len(levels)   # fewer than 10


def test_group_paths_name_where_each_deep_group_starts():
    paths = logic_levels.group_paths(_endpoint_netlist(), "t", budget=2)
    assert [(p.group, p.levels, p.start, p.cells) for p in paths] == [
        ("FDRE u.b_q", 3, "src_q", ["LUT1"] * 3),
        ("URAM288 (unnamed)", 3, "src_q", ["LUT1"] * 3),
    ]
    assert logic_levels.group_paths(_endpoint_netlist(), "t", budget=3) == []
    # The CARRY8 rule holds on the listed path as in the count.
    (chain,) = logic_levels.group_paths(_carry_chain(4), "t", budget=1)
    assert chain.levels == 2 and len(chain.cells) == 2


def test_logic_levels_cli_lists_matching_groups(tmp_path, capsys):
    path = tmp_path / "netlist.json"
    path.write_text(json.dumps(_endpoint_netlist()))
    assert logic_levels.main([str(path), "t", "--budget", "2", "--match", "URAM"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == ["3 URAM288 (unnamed) <- src_q: LUT1 LUT1 LUT1",
                   "1 endpoint group(s) over 2 matching 'URAM'"]


def test_estimate_reports_endpoint_groups_over_the_budget(monkeypatch):
    monkeypatch.setattr(synth_estimate, "LEVEL_BUDGET", 2)
    est = Estimate("t", "t", "ok", seconds=1.0,
                   resources={k: 1 for k in boards.RESOURCE_KEYS},
                   percent={k: 0.0 for k in boards.RESOURCE_KEYS},
                   info={"lut_logic": 6, "lut_memory": 0, "carry": 0, "muxf": 0})
    synth_estimate.add_levels(est, _endpoint_netlist(), "t")
    assert est.logic_levels == 3 and est.endpoints_over_budget == 2
    data = json.loads(json.dumps(asdict(est)))
    assert data["worst_endpoints"][:2] == [["FDRE u.b_q", 3], ["URAM288 (unnamed)", 3]]
    md = synth_estimate.markdown(BOARD, [est])
    assert md.startswith(f"# {LABEL}") and f"## t ({LABEL})" in md
    assert ("- endpoint groups over 2 levels: 2; worst: `FDRE u.b_q` 3, "
            "`URAM288 (unnamed)` 3, `FDRE a_q` 1") in md


def test_parameter_overrides_parse_and_refuse_bad_pairs():
    assert parse_overrides(["L2=1", "L1Lines=0x100"]) == {"L2": 1, "L1Lines": 256}
    assert parse_overrides([]) == {}
    for bad in ("L2", "=1", "L2=one", "2L=1"):
        with pytest.raises(ValueError, match="parameter override"):
            parse_overrides([bad])


def test_bad_override_is_a_usage_error_before_any_yosys_run(capsys):
    assert synth_estimate_main(["--board", "vck5000", "--top", "radix", "--set", "L2"]) == 2
    assert "expected NAME=VALUE" in capsys.readouterr().err


def _saved_result(out_root: Path, top: str, lut: float, uram: float, bram36: float) -> None:
    kernel = next(k for k in kernels.KERNELS.values() if k.top == top)
    est = Estimate(kernel.name, top, "ok", parameters=dict(Design.of(kernel, BOARD).parameters),
                   resources={"lut": lut, "ff": 0, "bram36": bram36, "uram": uram, "dsp": 0})
    workdir = out_root / BOARD.name / top
    workdir.mkdir(parents=True, exist_ok=True)
    (workdir / synth_estimate.RESULT_FILE).write_text(json.dumps(asdict(est)))


def test_combined_fit_sums_both_tops_against_the_shares(tmp_path):
    """90 % of the card's URAM and BRAM36, 50 % of its LUTs; None until both exist."""
    assert synth_estimate.combined(BOARD, tmp_path) is None
    _saved_result(tmp_path, "radix_top", lut=170_000, uram=0, bram36=171)
    assert synth_estimate.combined(BOARD, tmp_path) is None
    _saved_result(tmp_path, "fsm_top", lut=60_000, uram=392, bram36=104)
    both = synth_estimate.combined(BOARD, tmp_path)
    assert both is not None and both.fits
    assert both.resources == {"lut": 230_000, "bram36": 275, "uram": 392}
    assert both.limits["uram"] == pytest.approx(0.9 * 463)
    assert "FITS" in synth_estimate.combined_text(BOARD, both)
    # One URAM over 90 % of 463 (416.7), then LUTs over half of 880,000.
    _saved_result(tmp_path, "fsm_top", lut=60_000, uram=417, bram36=104)
    assert not synth_estimate.combined(BOARD, tmp_path).fits
    _saved_result(tmp_path, "fsm_top", lut=270_001, uram=0, bram36=0)
    both = synth_estimate.combined(BOARD, tmp_path)
    assert not both.fits and "DOES NOT FIT" in synth_estimate.combined_text(BOARD, both)
    # A saved result from another configuration is stale: no combined fit from it.
    path = tmp_path / BOARD.name / "fsm_top" / synth_estimate.RESULT_FILE
    data = json.loads(path.read_text())
    data["parameters"]["NsCap"] = 1
    path.write_text(json.dumps(data))
    assert synth_estimate.combined(BOARD, tmp_path) is None
