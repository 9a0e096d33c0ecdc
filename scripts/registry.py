# SPDX-License-Identifier: Apache-2.0
"""The one list of simulation tests.

`make sim`, `make test` and `make regress` all read TESTS; nothing else names
a test. Each entry says which DUT top to build, from which file lists, with
which parameters, and which pyuvm test class in which module drives it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType

ROOT = Path(__file__).resolve().parent.parent
SIMULATORS = ("verilator", "icarus")


@dataclass(frozen=True)
class SimTest:
    name: str
    block: str                       # common | radix | fsm | top
    top: str                         # HDL toplevel module
    module: str                      # Python module holding the pyuvm test
    testcase: str                    # pyuvm uvm_test subclass to run
    description: str
    filelists: tuple[str, ...]       # rtl/<blk>/<blk>.f, in compile order
    parameters: Mapping[str, object] = field(default_factory=dict)
    sims: tuple[str, ...] = SIMULATORS
    ci_sims: tuple[str, ...] = SIMULATORS
    env: Mapping[str, str] = field(default_factory=dict)      # knobs for every run
    ci_env: Mapping[str, str] = field(default_factory=dict)   # overrides for `make test`

    def sources(self) -> list[Path]:
        """Source files in compile order, read from the block file lists."""
        files: list[Path] = []
        for flist in self.filelists:
            fpath = ROOT / flist
            for line in fpath.read_text().splitlines():
                line = line.split("//")[0].strip()
                if line:
                    files.append(fpath.parent / line)
        return files

    def include_dirs(self) -> list[Path]:
        return sorted({(ROOT / f).parent for f in self.filelists} | {ROOT / "rtl/common"})

    def config_key(self) -> str:
        """Names one DUT build: same top and parameters share a build."""
        params = "_".join(f"{k}{v}" for k, v in sorted(self.parameters.items()))
        return f"{self.top}-{params}" if params else self.top


def _freeze(**kw: str) -> Mapping[str, str]:
    return MappingProxyType(dict(kw))


_COMMON = ("rtl/common/common.f",)
_RADIX = ("rtl/radix/radix.f",)
# Small enough to exercise capacity refusals and eviction within a CI-sized run.
_RADIX_PARAMS = {"NodeCap": 64, "TokenCap": 2048, "MaxLen": 512}
# Big enough for the BRIEF §2 anchor: 576-token matches over 16 shared prompts.
_RADIX_BENCH_PARAMS = {"NodeCap": 256, "TokenCap": 16384, "MaxLen": 1024}

_FSM = ("rtl/fsm/fsm.f",)
# One DUT configuration for every fsm test (one build per simulator): sized for
# the source document's financial-summary schema on GPT-2 (about 14,200 states,
# 360 classes, 200 mask rows: 5.1 M next-state entries), with two resident grammars.
_FSM_PARAMS = {"VocabMax": 50257, "ClassW": 9, "StateW": 14, "RowW": 8, "NsCap": 6291456,
               "RowCap": 255, "NGrammars": 2}

# A small grammar store: the kernel test checks the plumbing, not capacity.
_KRNL_FSM_PARAMS = {"VocabMax": 1024, "ClassW": 9, "StateW": 10, "RowW": 8, "NsCap": 65536,
                    "RowCap": 255, "NSlots": 8, "NGrammars": 2}

TESTS: dict[str, SimTest] = {
    t.name: t
    for t in (
        SimTest(
            name="fifo_random",
            block="common",
            top="common_fifo_sync",
            module="tests.common.fifo_random",
            testcase="FifoRandomTest",
            description="FIFO against a queue model, random valid/ready on both sides",
            filelists=_COMMON,
            parameters={"Width": 16, "Depth": 8},
            env=_freeze(N_ITEMS="3000"),
            ci_env=_freeze(N_ITEMS="1500"),
        ),
        SimTest(
            name="skid_random",
            block="common",
            top="common_skid_buffer",
            module="tests.common.skid_random",
            testcase="SkidRandomTest",
            description="Skid buffer: order, no loss, full throughput under random back-pressure",
            filelists=_COMMON,
            parameters={"Width": 16},
            env=_freeze(N_ITEMS="3000"),
            ci_env=_freeze(N_ITEMS="1500"),
        ),
        SimTest(
            name="ram_random",
            block="common",
            top="common_ram_sdp",
            module="tests.common.ram_random",
            testcase="RamRandomTest",
            description="Dual-port RAM: random reads and writes incl. same-address collisions",
            filelists=_COMMON,
            parameters={"Width": 16, "Depth": 16},
            env=_freeze(N_ITEMS="3000"),
            ci_env=_freeze(N_ITEMS="1500"),
        ),
        SimTest(
            name="radix_lookup",
            block="radix",
            top="radix_top",
            module="tests.radix.radix_lookup",
            testcase="RadixLookupTest",
            description="Tree from a workload trace; every lookup, insert, lock, evict checked",
            filelists=_RADIX,
            parameters=_RADIX_PARAMS,
            env=_freeze(N_REQUESTS="40", WORKLOAD="ecommerce_qa"),
            ci_env=_freeze(N_REQUESTS="16"),
        ),
        SimTest(
            name="radix_random",
            block="radix",
            top="radix_top",
            module="tests.radix.radix_random",
            testcase="RadixRandomTest",
            description="Long constrained-random mix of every command",
            filelists=_RADIX,
            parameters=_RADIX_PARAMS,
            sims=('verilator',),
            ci_sims=('verilator',),
            env=_freeze(N_OPS="2000"),
            ci_env=_freeze(N_OPS="400"),
        ),
        SimTest(
            name="radix_insert_split",
            block="radix",
            top="radix_top",
            module="tests.radix.radix_insert_split",
            testcase="RadixInsertSplitTest",
            description="Inserts/matches on a 2-token alphabet: splits at every offset",
            filelists=_RADIX,
            parameters=_RADIX_PARAMS,
            sims=('verilator',),
            ci_sims=('verilator',),
            env=_freeze(N_OPS="600"),
            ci_env=_freeze(N_OPS="250"),
        ),
        SimTest(
            name="radix_evict_lru",
            block="radix",
            top="radix_top",
            module="tests.radix.radix_evict_lru",
            testcase="RadixEvictLruTest",
            description="Eviction pressure: LRU order, cascades, whole nodes",
            filelists=_RADIX,
            parameters=_RADIX_PARAMS,
            sims=('verilator',),
            ci_sims=('verilator',),
            env=_freeze(N_OPS="600"),
            ci_env=_freeze(N_OPS="250"),
        ),
        SimTest(
            name="radix_lock",
            block="radix",
            top="radix_top",
            module="tests.radix.radix_lock",
            testcase="RadixLockTest",
            description="Interleaved lock/unlock incl. splits of locked nodes",
            filelists=_RADIX,
            parameters=_RADIX_PARAMS,
            sims=('verilator',),
            ci_sims=('verilator',),
            env=_freeze(N_OPS="600"),
            ci_env=_freeze(N_OPS="250"),
        ),
        SimTest(
            name="radix_namespace",
            block="radix",
            top="radix_top",
            module="tests.radix.radix_namespace",
            testcase="RadixNamespaceTest",
            description="Same keys in 16 namespaces never share nodes",
            filelists=_RADIX,
            parameters=_RADIX_PARAMS,
            sims=('verilator',),
            ci_sims=('verilator',),
            env=_freeze(N_OPS="600"),
            ci_env=_freeze(N_OPS="250"),
        ),
        SimTest(
            name="radix_errors",
            block="radix",
            top="radix_top",
            module="tests.radix.radix_errors",
            testcase="RadixErrorsTest",
            description="Every refusal class: status, no state change, counter",
            filelists=_RADIX,
            parameters=_RADIX_PARAMS,
            sims=SIMULATORS,
            ci_sims=SIMULATORS,
            env=_freeze(N_OPS="600"),
            ci_env=_freeze(N_OPS="250"),
        ),
        SimTest(
            name="radix_paged",
            block="radix",
            top="radix_top",
            module="tests.radix.radix_paged",
            testcase="RadixPagedTest",
            description="PAGE_SIZE=16 keys, splits at page edges only",
            filelists=_RADIX,
            parameters={**_RADIX_PARAMS, "PageSize": 16},
            sims=('verilator',),
            ci_sims=('verilator',),
            env=_freeze(N_OPS="600"),
            ci_env=_freeze(N_OPS="200"),
        ),
        SimTest(
            name="radix_backpressure",
            block="radix",
            top="radix_top",
            module="tests.radix.radix_backpressure",
            testcase="RadixBackpressureTest",
            description="Heavy idle/back-pressure on both streams",
            filelists=_RADIX,
            parameters=_RADIX_PARAMS,
            sims=('verilator',),
            ci_sims=('verilator',),
            env=_freeze(N_OPS="600"),
            ci_env=_freeze(N_OPS="200"),
        ),
        SimTest(
            name="radix_csr",
            block="radix",
            top="radix_top",
            module="tests.radix.radix_csr",
            testcase="RadixCsrTest",
            description="CSR map: ids, capacities, W1C interrupt, SLVERR, counters vs model",
            filelists=_RADIX,
            parameters=_RADIX_PARAMS,
            sims=("verilator",),
            ci_sims=("verilator",),
            env=_freeze(N_OPS="300"),
            ci_env=_freeze(N_OPS="150"),
        ),
        SimTest(
            name="radix_bench",
            block="radix",
            top="radix_top",
            module="tests.radix.radix_bench",
            testcase="RadixBenchTest",
            description="Cycle counts per MATCH/INSERT/EVICT on workloads (make bench)",
            filelists=_RADIX,
            parameters=_RADIX_BENCH_PARAMS,
            sims=("verilator",),
            ci_sims=("verilator",),
            env=_freeze(N_REQUESTS="40"),
            ci_env=_freeze(N_REQUESTS="8"),
        ),
        SimTest(
            name="kernel_radix",
            block="top",
            top="krnl_radix",
            module="tests.top.kernel_radix",
            testcase="KernelRadixTest",
            description="Vitis kernel: host writes DDR, starts, waits for irq, checks results",
            filelists=("rtl/radix/radix.f", "rtl/top/krnl_radix.f"),
            parameters=_RADIX_PARAMS,
            sims=("verilator",),
            ci_sims=("verilator",),
            env=_freeze(N_REQUESTS="24"),
            ci_env=_freeze(N_REQUESTS="10"),
        ),
        # ---- fsm tests (append below this line) ----
        SimTest(
            name="fsm_random_regex",
            block="fsm",
            top="fsm_top",
            module="tests.fsm.fsm_random_regex",
            testcase="FsmRandomRegexTest",
            description="Random regexes x random vocabularies: walks, masks, VALIDATE on 6 slots",
            filelists=_FSM,
            parameters=_FSM_PARAMS,
            sims=("verilator",),
            ci_sims=("verilator",),
            env=_freeze(N_OPS="3000"),
            ci_env=_freeze(N_OPS="800"),
        ),
        SimTest(
            name="fsm_mask",
            block="fsm",
            top="fsm_top",
            module="tests.fsm.fsm_mask",
            testcase="FsmMaskTest",
            description="Mask of every visited state vs the model (synthetic vocab and GPT-2)",
            filelists=_FSM,
            parameters=_FSM_PARAMS,
            sims=("verilator",),
            ci_sims=("verilator",),
            env=_freeze(N_OPS="1500", N_GPT2_MASKS="60"),
            ci_env=_freeze(N_OPS="400", N_GPT2_MASKS="16"),
        ),
        SimTest(
            name="fsm_json",
            block="fsm",
            top="fsm_top",
            module="tests.fsm.fsm_json",
            testcase="FsmJsonTest",
            description="Financial-summary JSON schema on GPT-2: documents, masks, VALIDATE",
            filelists=_FSM,
            parameters=_FSM_PARAMS,
            sims=SIMULATORS,
            ci_sims=SIMULATORS,
            env=_freeze(N_DOCS="12", DOC_LEN="200"),
            ci_env=_freeze(N_DOCS="4", DOC_LEN="120"),
        ),
        SimTest(
            name="fsm_jump_forward",
            block="fsm",
            top="fsm_top",
            module="tests.fsm.fsm_jump_forward",
            testcase="FsmJumpForwardTest",
            description="Forced tokens (jump-forward) reported and followed",
            filelists=_FSM,
            parameters=_FSM_PARAMS,
            sims=("verilator",),
            ci_sims=("verilator",),
            env=_freeze(N_OPS="1000"),
            ci_env=_freeze(N_OPS="300"),
        ),
        SimTest(
            name="fsm_irq",
            block="fsm",
            top="fsm_top",
            module="tests.fsm.fsm_irq",
            testcase="FsmIrqTest",
            description="Violation interrupt: level, enable, W1C, slot/position/token registers",
            filelists=_FSM,
            parameters=_FSM_PARAMS,
            sims=("verilator",),
            ci_sims=("verilator",),
            env=_freeze(N_OPS="1200", N_ROUNDS="6"),
            ci_env=_freeze(N_OPS="300", N_ROUNDS="4"),
        ),
        SimTest(
            name="fsm_errors",
            block="fsm",
            top="fsm_top",
            module="tests.fsm.fsm_errors",
            testcase="FsmErrorsTest",
            description="Every command and image error: status, no state change, counters",
            filelists=_FSM,
            parameters=_FSM_PARAMS,
            sims=SIMULATORS,
            ci_sims=SIMULATORS,
            env=_freeze(N_OPS="1000"),
            ci_env=_freeze(N_OPS="200"),
        ),
        SimTest(
            name="fsm_multislot",
            block="fsm",
            top="fsm_top",
            module="tests.fsm.fsm_multislot",
            testcase="FsmMultislotTest",
            description="All 64 slots interleaved: full-rate round robin, same-slot runs, random",
            filelists=_FSM,
            parameters=_FSM_PARAMS,
            sims=("verilator",),
            ci_sims=("verilator",),
            env=_freeze(N_OPS="3000"),
            ci_env=_freeze(N_OPS="600"),
        ),
        SimTest(
            name="fsm_table_load",
            block="fsm",
            top="fsm_top",
            module="tests.fsm.fsm_table_load",
            testcase="FsmTableLoadTest",
            description="Loads, reloads, every corrupted-image class; old grammar keeps working",
            filelists=_FSM,
            parameters=_FSM_PARAMS,
            sims=("verilator",),
            ci_sims=("verilator",),
            env=_freeze(N_OPS="2000", N_ROUNDS="33"),
            ci_env=_freeze(N_OPS="600", N_ROUNDS="22"),
        ),
        # Its DUT is generated: sources() runs scripts/regex2sv.py into build/gen/regex2sv/
        # first (the patterns are scripts.regex2sv.TEST_REGEXES).
        __import__("scripts.regex2sv").regex2sv.generated_sim_test(
            name="fsm_regex2sv",
            block="fsm",
            top="fsm_regex2sv_top",
            module="tests.fsm.fsm_regex2sv",
            testcase="FsmRegex2svTest",
            description="regex2sv modules (BRIEF regex and 6 more) vs regex.fullmatch per byte",
            filelists=("rtl/fsm/fsm_regex2sv.f",),
            regexes=__import__("scripts.regex2sv").regex2sv.TEST_REGEXES,
            sims=("verilator",),
            ci_sims=("verilator",),
            env=_freeze(N_STRINGS="1200"),
            ci_env=_freeze(N_STRINGS="300"),
        ),
        SimTest(
            name="fsm_bench",
            block="fsm",
            top="fsm_top",
            module="tests.fsm.fsm_bench",
            testcase="FsmBenchTest",
            description="Cycle counts: ADVANCE latency/throughput, VALIDATE, MASK on GPT-2, load",
            filelists=_FSM,
            parameters=_FSM_PARAMS,
            sims=("verilator",),
            ci_sims=("verilator",),
            env=_freeze(N_BENCH="512"),
            ci_env=_freeze(N_BENCH="128"),
        ),
        SimTest(
            name="fsm_narrow",
            block="fsm",
            top="fsm_top",
            module="tests.fsm.fsm_narrow",
            testcase="FsmNarrowTest",
            description="LoadW = MaskW = 64, 3 grammars, 16 slots: random traffic and reloads",
            filelists=_FSM,
            parameters={"VocabMax": 1024, "ClassW": 10, "StateW": 10, "RowW": 8,
                        "NsCap": 65536, "RowCap": 255, "NSlots": 16, "NGrammars": 3,
                        "MaskW": 64, "LoadW": 64},
            sims=("verilator",),
            ci_sims=("verilator",),
            env=_freeze(N_OPS="3000"),
            ci_env=_freeze(N_OPS="600"),
        ),
        SimTest(
            name="kernel_fsm",
            block="top",
            top="krnl_fsm",
            module="tests.top.kernel_fsm",
            testcase="KernelFsmTest",
            description="Vitis kernel: table image, commands, results and masks through DDR",
            filelists=("rtl/fsm/fsm.f", "rtl/top/krnl_fsm.f"),
            parameters=_KRNL_FSM_PARAMS,
            sims=("verilator",),
            ci_sims=("verilator",),
        ),
    )
}


def get(name: str) -> SimTest:
    try:
        return TESTS[name]
    except KeyError:
        raise KeyError(name) from None
