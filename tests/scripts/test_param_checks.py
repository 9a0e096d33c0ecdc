# SPDX-License-Identifier: Apache-2.0
"""Every COMMON_PARAM_CHECK stops an illegal configuration, on Verilator and Icarus.

Like verilog-axis's parameter sweeps: each check gets one illegal value, elaborated with
the module as top, and must fail with its own message; each module also gets one legal
configuration that must elaborate cleanly (so a failure above is the check's, not a
broken build). Verilator stops at elaboration ($error in a generate block). Icarus 11
has no elaboration-time $error, so there the macro's `initial $fatal` fires at time 0:
the test compiles and runs vvp, and expects the message. Both use the simulation
flow's flags (scripts/sim.py): Verilator reports an elaboration $error as a warning,
so the flow makes it an error, and this test proves it does.

Covered: rtl/common, rtl/radix, and the rtl/fsm and rtl/top modules whose checks
stand alone (fsm_core and fsm_loader are not covered yet).
"""

from __future__ import annotations

import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from scripts.registry import ROOT, SIMULATORS
from scripts.sim import sim_build_args

COMMON = ("rtl/common/common_ram_sdp.sv", "rtl/common/common_seg_counter.sv",
          "rtl/common/common_skid_buffer.sv", "rtl/common/common_fifo_sync.sv")
FSM_PKG = "rtl/fsm/fsm_pkg.sv"
RADIX_TABLE = ("rtl/radix/radix_pkg.sv", *COMMON, "rtl/radix/radix_l1_cache.sv",
               "rtl/radix/radix_ram.sv", "rtl/radix/radix_table.sv")
RADIX = (*RADIX_TABLE, "rtl/radix/radix_axi_arb.sv", "rtl/radix/radix_free_stack.sv",
         "rtl/radix/radix_child_index.sv")
VERILATOR = str(Path(sys.executable).parent / "verilator")


@dataclass(frozen=True)
class Module:
    top: str
    sources: tuple[str, ...]
    legal: dict[str, object] = field(default_factory=dict)


MODULES = {
    m.top: m
    for m in (
        Module("common_ram_sdp", ("rtl/common/common_ram_sdp.sv",),
               {"Width": 1, "Depth": 2, "RamStyle": '"ultra"'}),
        Module("common_skid_buffer", ("rtl/common/common_skid_buffer.sv",), {"Width": 1}),
        Module("common_fifo_sync", COMMON, {"Depth": 2}),
        Module("fsm_csr", (FSM_PKG, "rtl/fsm/fsm_csr.sv"), {"AddrW": 8}),
        Module("fsm_crc32", (FSM_PKG, "rtl/fsm/fsm_qword_align.sv", "rtl/fsm/fsm_crc32.sv"),
               {"Width": 64}),
        Module("fsm_out_fifo", (FSM_PKG, "rtl/fsm/fsm_out_fifo.sv"), {"Depth": 256}),
        Module("fsm_mask_engine",
               (FSM_PKG, "rtl/fsm/fsm_out_fifo.sv", "rtl/fsm/fsm_mask_engine.sv"),
               {"LoadW": 64, "MaskW": 32}),
        Module("top_ctrl_hs", ("rtl/top/top_ctrl_pkg.sv", "rtl/top/top_ctrl_hs.sv"),
               {"NumArgs": 8, "NumOuts": 0}),
        Module("top_axi_reader", (*COMMON, "rtl/top/top_axi_reader.sv"),
               {"MaxBurst": 256, "FifoDepth": 256}),
        Module("top_axi_writer", (*COMMON, "rtl/top/top_axi_writer.sv"),
               {"MaxBurst": 1, "FifoDepth": 2}),
        Module("top_width_down", ("rtl/top/top_width_down.sv",), {"InW": 64}),
        Module("top_width_up", ("rtl/top/top_width_up.sv",), {"OutW": 1024}),
        Module("radix_free_stack", (*RADIX_TABLE, "rtl/radix/radix_free_stack.sv"),
               {"Depth": 4, "First": 1}),
        Module("radix_child_index", RADIX[:-1] + ("rtl/radix/radix_child_index.sv",),
               {"HashBuckets": 2, "HashWays": 8, "StashDepth": 16}),
        Module("radix_core", (*RADIX, "rtl/radix/radix_read_sig.sv", "rtl/radix/radix_core.sv"),
               {"NodeCap": 8, "TokenCap": 64, "MaxLen": 16, "PageSize": 16, "NumNs": 256,
                "HashBuckets": 2, "RamLat": 4, "RspDepth": 4}),
    )
}

# Icarus rejects these before the check can fire (a zero-sized array or cast): the
# configuration still fails to build there, only with another message.
EARLIER_ICARUS_ERROR = {("fsm_out_fifo", 1), ("top_ctrl_hs", 0), ("radix_child_index", 0)}

# (module, illegal parameters, the check's message): one row per check and bound.
ILLEGAL = [
    ("common_ram_sdp", {"Width": 0}, "common_ram_sdp: Width must be >= 1"),
    ("common_ram_sdp", {"Depth": 1}, "common_ram_sdp: Depth must be >= 2"),
    ("common_ram_sdp", {"RamStyle": '"lut"'}, "common_ram_sdp: RamStyle must be"),
    ("common_ram_sdp", {"ReadLatency": 0}, "common_ram_sdp: ReadLatency must be 1..8"),
    ("radix_free_stack", {"First": 2000}, "radix_free_stack: Depth/First"),
    ("radix_child_index", {"HashBuckets": 3}, "radix_child_index: HashBuckets must be"),
    ("radix_child_index", {"HashWays": 9}, "radix_child_index: HashWays"),
    ("radix_child_index", {"StashDepth": 17}, "radix_child_index: StashDepth"),
    ("radix_child_index", {"BucketW": 0}, "radix_child_index: BucketW"),
    ("radix_core", {"NodeCap": 12}, "radix_core: NodeCap"),
    ("radix_core", {"TokenCap": 32}, "radix_core: TokenCap"),
    ("radix_core", {"PageSize": 3}, "radix_core: PageSize"),
    ("radix_core", {"MaxLen": 24, "PageSize": 16}, "radix_core: MaxLen"),
    ("radix_core", {"NumNs": 257}, "radix_core: NumNs"),
    ("radix_core", {"DataW": 64}, "radix_core: DataW must be 512"),
    ("radix_core", {"RamLat": 1}, "radix_core: RamLat"),
    ("radix_core", {"RspDepth": 3}, "radix_core: RspDepth"),
    ("radix_core", {"L2": 2}, "radix_core: L2 is 0 or 1"),
    ("radix_core", {"L1Lines": 6}, "radix_core: L1Lines / L1Ways"),
    ("radix_core", {"L1Ways": 3}, "radix_core: L1Lines / L1Ways"),
    ("radix_core", {"L2IdW": 5}, "radix_core: L2IdW is derived"),
    ("radix_core", {"L2Prefetch": 8}, "radix_core: L2Prefetch"),
    ("radix_core", {"StallInject": 2}, "radix_core: StallInject is 0 or 1"),
    ("radix_core", {"Overlap": 2}, "radix_core: Overlap is 0 or 1"),
    ("common_skid_buffer", {"Width": 0}, "common_skid_buffer: Width must be >= 1"),
    ("common_fifo_sync", {"Depth": 1}, "common_fifo_sync: Depth must be >= 2"),
    ("fsm_csr", {"AddrW": 7}, "fsm_csr: AddrW too small"),
    ("fsm_crc32", {"Width": 96}, "fsm_crc32: Width must be 64, 128, 256 or 512"),
    ("fsm_out_fifo", {"Depth": 1}, "fsm_out_fifo: Depth 2..256"),
    ("fsm_out_fifo", {"Depth": 257}, "fsm_out_fifo: Depth 2..256"),
    ("fsm_mask_engine", {"LoadW": 64, "MaskW": 128}, "fsm_mask_engine: MaskW must be"),
    ("fsm_mask_engine", {"MaskW": 48}, "fsm_mask_engine: MaskW must be"),
    ("top_ctrl_hs", {"NumArgs": 0}, "top_ctrl_hs: NumArgs"),
    ("top_ctrl_hs", {"NumArgs": 9}, "top_ctrl_hs: NumArgs"),
    ("top_ctrl_hs", {"NumOuts": 5}, "top_ctrl_hs: NumOuts"),
    ("top_axi_reader", {"MaxBurst": 257, "FifoDepth": 512}, "top_axi_reader: MaxBurst"),
    ("top_axi_reader", {"MaxBurst": 16, "FifoDepth": 8}, "top_axi_reader: FifoDepth"),
    ("top_axi_writer", {"MaxBurst": 0}, "top_axi_writer: MaxBurst"),
    ("top_axi_writer", {"MaxBurst": 16, "FifoDepth": 8}, "top_axi_writer: FifoDepth"),
    ("top_width_down", {"InW": 96}, "top_width_down: InW"),
    ("top_width_up", {"OutW": 2048}, "top_width_up: OutW"),
]


def elaborate(sim: str, mod: Module, params: dict[str, object], tmp: Path) -> tuple[bool, str]:
    """Elaborate `mod` with `params`; (succeeded, every message printed)."""
    srcs = [str(ROOT / s) for s in mod.sources]
    inc = f"-I{ROOT / 'rtl' / 'common'}"
    if sim == "verilator":
        cmd = [VERILATOR, "--lint-only", *sim_build_args("verilator"), "--top-module", mod.top, inc,
               *[f"-G{k}={v}" for k, v in params.items()], *srcs]
        proc = subprocess.run(cmd, capture_output=True, text=True)
        return proc.returncode == 0, proc.stdout + proc.stderr
    vvp = tmp / f"{mod.top}.vvp"
    cmd = ["iverilog", "-g2012", *sim_build_args("icarus"), "-o", str(vvp), "-s", mod.top, inc,
           *[f"-P{mod.top}.{k}={v}" for k, v in params.items()], *srcs]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        return False, proc.stdout + proc.stderr
    run = subprocess.run(["vvp", "-n", str(vvp)], capture_output=True, text=True, timeout=60)
    out = proc.stdout + proc.stderr + run.stdout + run.stderr
    return run.returncode == 0 and "FATAL" not in out and "ERROR" not in out, out


def test_every_check_has_a_case():
    """A new COMMON_PARAM_CHECK in a covered module needs a row in ILLEGAL."""
    for top, mod in MODULES.items():
        text = (ROOT / mod.sources[-1]).read_text()
        n_checks = len(re.findall(r"`COMMON_PARAM_CHECK\(", text))
        n_cases = len({msg for m, _, msg in ILLEGAL if m == top})
        assert n_checks >= 1 and n_cases >= n_checks, f"{top}: {n_checks} checks, {n_cases} cases"


@pytest.mark.parametrize("sim", SIMULATORS)
@pytest.mark.parametrize("top", MODULES)
def test_legal_configuration_elaborates(top: str, sim: str, tmp_path: Path):
    ok, out = elaborate(sim, MODULES[top], MODULES[top].legal, tmp_path)
    assert ok, f"{top} {MODULES[top].legal} on {sim}:\n{out}"


@pytest.mark.parametrize("sim", SIMULATORS)
@pytest.mark.parametrize(("top", "params", "message"), ILLEGAL,
                         ids=[f"{m}-{'-'.join(f'{k}{v}' for k, v in p.items())}"
                              for m, p, _ in ILLEGAL])
def test_illegal_configuration_stops(top: str, params: dict[str, object], message: str,
                                     sim: str, tmp_path: Path):
    ok, out = elaborate(sim, MODULES[top], params, tmp_path)
    assert not ok, f"{top} {params} elaborated on {sim}"
    if sim == "icarus" and (top, next(iter(params.values()))) in EARLIER_ICARUS_ERROR:
        assert "error" in out, out
        return
    assert message in out, f"{top} {params} failed on {sim}, but not by its check:\n{out}"
