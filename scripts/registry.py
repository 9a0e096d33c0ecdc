# SPDX-License-Identifier: Apache-2.0
"""The one list of simulation tests.

`make sim`, `make test` and `make regress` all read TESTS; nothing else names
a test. Each entry says which DUT top to build, from which file lists, with
which parameters, and which pyuvm test class in which module drives it.

Length: the one list is one file by design (nothing else names a test); it is data, about a
dozen lines per test, and grows with every test added.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from types import MappingProxyType

from scripts import regex2sv
from scripts.sim_test import ROOT, SIMULATORS, SimTest

__all__ = ["ROOT", "SIMULATORS", "TESTS", "SimTest", "get"]

def _freeze(**kw: str) -> Mapping[str, str]:
    return MappingProxyType(dict(kw))


VERILATOR = ("verilator",)


def _l1_random(name: str, description: str, parameters: Mapping[str, object],
               env: Mapping[str, str], ci_items: str = "1500") -> SimTest:
    """An l1_cache_random run on one radix_l1_cache geometry."""
    return _entry(name, "L1CacheRandomTest", description, block="radix",
                  top="radix_l1_cache", filelists=_RADIX_L1, parameters=parameters,
                  sims=SIMULATORS, env=env, ci_env={"N_ITEMS": ci_items},
                  module="l1_cache_random")


def _entry(
    name: str,
    testcase: str,
    description: str,
    *,
    block: str,
    top: str,
    filelists: tuple[str, ...],
    parameters: Mapping[str, object],
    sims: tuple[str, ...],
    env: Mapping[str, str] | None = None,
    ci_env: Mapping[str, str] | None = None,
    icarus_ci_env: Mapping[str, str] | None = None,
    in_ci: bool = True,
    module: str | None = None,
) -> SimTest:
    """A test whose module is tests/<block>/<name>.py and whose CI runs every simulator
    it supports (in_ci=False: `make regress` only): the layout every entry follows."""
    return SimTest(
        name=name,
        block=block,
        top=top,
        module=f"tests.{block}.{module or name}",
        testcase=testcase,
        description=description,
        filelists=filelists,
        parameters=parameters,
        sims=sims,
        ci_sims=sims if in_ci else (),
        env=_freeze(**(env or {})),
        ci_env=_freeze(**(ci_env or {})),
        icarus_ci_env=_freeze(**(icarus_ci_env or {})),
    )


_COMMON = ("rtl/common/common.f",)
_RADIX = ("rtl/radix/radix.f",)
_RADIX_L1 = ("rtl/radix/radix_l1_cache.f",)   # the L1 cache alone, for its unit tests
# Small enough to exercise capacity refusals and eviction within a CI-sized run.
# The child index (16 buckets x 4 ways + 2 stash entries) is small enough to fill
# through hash collisions before the node table does.
_RADIX_PARAMS = {"NodeCap": 64, "TokenCap": 2048, "MaxLen": 512, "HashBuckets": 16,
                 "HashWays": 4, "StashDepth": 2}
# Big enough for the anchor workload: 576-token matches over 16 shared prompts.
_RADIX_BENCH_PARAMS = {"NodeCap": 4096, "TokenCap": 32768, "MaxLen": 1024, "HashBuckets": 1024}

# The L1 cache of one radix table (radix_l1_cache): a cache far smaller than its table,
# so most scattered accesses miss and sets fight; 56-bit entries are the line-link table's.
_L1_PARAMS = {"Width": 56, "Depth": 4096, "Sets": 16, "Ways": 2, "ReadLatency": 2}
_L1_LINE_PARAMS = {"Width": 512, "Depth": 512, "Sets": 16, "Ways": 1, "ReadLatency": 3}
_L1_STRESS_PARAMS = {"Width": 24, "Depth": 8192, "Sets": 4, "Ways": 8, "ReadLatency": 4}
# With a 3-line prefetch buffer: sequential runs are served from it, scattered lines
# restart its window, write-backs drop its stale lines.
_L1_PF_PARAMS = {**_L1_PARAMS, "PrefetchDepth": 3, "IdW": 5}
# The deepest window (7 slots, so every tag value is used) on a 1-bit epoch.
_L1_PF_DEEP_PARAMS = {**_L1_PARAMS, "PrefetchDepth": 7, "IdW": 4}
_L1_FAULT_PARAMS = {"Width": 56, "Depth": 1024, "Sets": 8, "Ways": 2, "ReadLatency": 2,
                    "TimeoutCycles": 256}

# The L2 build: every table that grows with the tree in a DDR model, behind L1 caches of
# L1Lines lines each: 1/16 of the node table (1,024 nodes x 32 bytes = 512 lines), 1/32
# of the token lines.
_RADIX_L2_PARAMS = {"NodeCap": 1024, "TokenCap": 16384, "MaxLen": 512, "HashBuckets": 256,
                    "HashWays": 4, "StashDepth": 4, "L2": 1, "L1Lines": 32, "L1Ways": 2}
# radix_random's small build with 4-line caches (2 sets x 2 ways): nearly every access misses.
_RADIX_L2_SMALL_PARAMS = {**_RADIX_PARAMS, "L2": 1, "L1Lines": 4, "L1Ways": 2}
# radix_bench's build in L2: each L1 holds 1/16 of its table (the node table's 2,048
# lines -> 128), read latency fixed at 60 cycles (L1_DDR_LAT) for the bench.
_RADIX_L2_BENCH_PARAMS = {**_RADIX_BENCH_PARAMS, "L2": 1, "L1Lines": 128, "L1Ways": 2}
# krnl_radix's L2 build (its default) with 8-line caches: the runs' answers go through DDR.
_RADIX_KERNEL_PARAMS = {**_RADIX_PARAMS, "L2": 1, "L1Lines": 8, "L1Ways": 2}
# A DDR timeout short enough for a CI-sized run and far above a read's 50-70 cycles, so
# only the armed hangs time out.
_RADIX_L2_FAULT_PARAMS = {**_RADIX_L2_SMALL_PARAMS, "L2Timeout": 2048}

# 10,000 children of one node need 10,000 nodes, lines and index entries.
_RADIX_FANOUT_PARAMS = {"NodeCap": 16384, "TokenCap": 262144, "MaxLen": 64,
                        "HashBuckets": 16384, "HashWays": 4, "StashDepth": 8}
# MaxLen-long edges (64 lines each); a small node table keeps eviction busy.
_RADIX_LONG_PARAMS = {"NodeCap": 64, "TokenCap": 8192, "MaxLen": 1024, "HashBuckets": 16,
                      "HashWays": 4, "StashDepth": 2}


def _board_config(board: str, kernel: str) -> dict[str, int]:
    from scripts import boards
    return dict(boards.load(board).configs[kernel])


# The VCK5000 node and token counts in the on-chip build (L2 = 0, the child index
# on chip with 2 entries per node: 16,384 buckets x 8 ways): radix_scale fills it
# from workload traces. The board's own configuration is the L2 build.
_RADIX_ONCHIP_VCK5000 = {**_board_config("vck5000", "radix"), "L2": 0, "HashBuckets": 16384,
                         "HashWays": 8}

_FSM = ("rtl/fsm/fsm.f",)
# One DUT configuration for every fsm test (one build per simulator): the board's
# VCK5000 configuration (scripts/boards/vck5000.toml, [config.fsm]): two resident
# grammars and the spare bank, each bank sized for the source document's
# financial-summary schema on GPT-2 (14,201 states, 359 classes, 680,957 comb
# entries, 201 mask rows), which fsm_json loads beside a second grammar.
_FSM_PARAMS = _board_config("vck5000", "fsm")

# The summary/sentiment regex over tekken: 131,072 tokens (256 mask beats), 1,646
# states, 216 classes, 45,699 comb entries, 82 mask rows.
_FSM_TEKKEN_PARAMS = {**_FSM_PARAMS, "VocabMax": 131072, "NsCap": 65536, "RowCap": 128}

# A small grammar store: the kernel test checks the plumbing, not capacity.
_KRNL_FSM_PARAMS = {
    "VocabMax": 1024,
    "ClassW": 9,
    "StateW": 10,
    "RowW": 8,
    "NsCap": 65536,
    "RowCap": 255,
    "NSlots": 8,
    "NGrammars": 2,
}

TESTS: dict[str, SimTest] = {
    t.name: t
    for t in (
        _entry(
            "fifo_random",
            "FifoRandomTest",
            "FIFO against a queue model, random valid/ready on both sides",
            block="common",
            top="common_fifo_sync",
            filelists=_COMMON,
            parameters={"Depth": 8, "Width": 16},
            sims=SIMULATORS,
            env={"N_ITEMS": "3000"},
            ci_env={"N_ITEMS": "1500"},
        ),
        _entry(
            "skid_random",
            "SkidRandomTest",
            "Skid buffer: order, no loss, full throughput under random back-pressure",
            block="common",
            top="common_skid_buffer",
            filelists=_COMMON,
            parameters={"Width": 16},
            sims=SIMULATORS,
            env={"N_ITEMS": "3000"},
            ci_env={"N_ITEMS": "1500"},
        ),
        _entry(
            "ram_random",
            "RamRandomTest",
            "Dual-port RAM: random reads and writes incl. same-address collisions",
            block="common",
            top="common_ram_sdp",
            filelists=_COMMON,
            parameters={"Depth": 16, "Width": 16},
            sims=SIMULATORS,
            env={"N_ITEMS": "3000"},
            ci_env={"N_ITEMS": "1500"},
        ),
        _entry(
            "ram_random_lat3",
            "RamRandomTest",
            "Dual-port RAM with ReadLatency 3: the output pipeline (radix builds use 2)",
            block="common",
            top="common_ram_sdp",
            filelists=_COMMON,
            parameters={"Depth": 16, "Width": 16, "ReadLatency": 3},
            sims=SIMULATORS,
            env={"N_ITEMS": "3000"},
            ci_env={"N_ITEMS": "1500"},
            module="ram_random",
        ),
        _entry(
            "seg_counter_random",
            "SegCounterRandomTest",
            "Segmented counter vs an integer every cycle: carries, wrap, clear, reset mid-run",
            block="common",
            top="common_seg_counter",
            filelists=_COMMON,
            # Four segments, the top one padded; Init 7 below the wrap.
            parameters={"Width": 13, "SegW": 4, "Init": "13'h1FF9"},
            sims=SIMULATORS,
            env={"N_ITEMS": "30000"},
            ci_env={"N_ITEMS": "12000"},
        ),
        _entry(
            "seg_counter_random_sub",
            "SegCounterRandomTest",
            "The segmented counter as a submodule (how the radix core builds it), same stimulus",
            block="common",
            top="common_seg_counter_sub",
            filelists=("rtl/common/seg_counter_sub.f",),
            parameters={"Width": 13, "SegW": 4, "Init": "13'h1FF9"},
            sims=SIMULATORS,
            env={"N_ITEMS": "30000"},
            ci_env={"N_ITEMS": "12000"},
            module="seg_counter_random",
        ),
        _entry(
            "read_sig_random",
            "ReadSigRandomTest",
            "Walk-context read signatures vs the model every cycle; no false negative",
            block="radix",
            top="radix_read_sig",
            filelists=("rtl/radix/radix_read_sig.f",),
            # Four contexts of 64 bits: small enough that Bloom false hits occur.
            parameters={"Ctx": 4, "SigBits": 64, "NumHash": 3, "KeyW": 32},
            sims=SIMULATORS,
            env={"N_ITEMS": "6000"},
            ci_env={"N_ITEMS": "3000"},
        ),
        _entry(
            "read_sig_random_small",
            "ReadSigRandomTest",
            "Read signatures at the parameter edges: 5 contexts, 16 bits, one hash, 12-bit keys",
            block="radix",
            top="radix_read_sig",
            filelists=("rtl/radix/radix_read_sig.f",),
            # Ctx not a power of two, the smallest signature, one hash, keys truncated.
            parameters={"Ctx": 5, "SigBits": 16, "NumHash": 1, "KeyW": 12},
            sims=SIMULATORS,
            env={"N_ITEMS": "6000"},
            ci_env={"N_ITEMS": "3000"},
            module="read_sig_random",
        ),
        _l1_random("l1_cache_random",
                   "Radix L1 cache vs a flat table over a 50-70-cycle AXI DDR model; flush "
                   "images", _L1_PARAMS, {"N_ITEMS": "4000"}),
        _l1_random("l1_cache_random_lines",
                   "Radix L1 cache of 512-bit entries (token lines): direct-mapped, "
                   "ReadLatency 3", _L1_LINE_PARAMS, {"N_ITEMS": "3000"}, ci_items="1000"),
        _l1_random("l1_cache_random_prefetch",
                   "radix_l1_cache with a 3-line prefetch buffer: every read against the flat "
                   "table; some long AR stalls, so a miss can meet a prefetch read that has "
                   "not left", _L1_PF_PARAMS, {"N_ITEMS": "4000", "L1_AR_LONG": "0.1"}),
        _l1_random("l1_cache_random_prefetch_deep",
                   "radix_l1_cache with a 7-line prefetch buffer (every AXI ID tag in use) "
                   "and a 1-bit epoch; some long AR stalls", _L1_PF_DEEP_PARAMS,
                   {"N_ITEMS": "4000", "L1_AR_LONG": "0.1"}),
        _l1_random("l1_cache_random_stress",
                   "Radix L1 cache, 8 ways of 3-byte entries, ReadLatency 4, DDR latency "
                   "1-150", _L1_STRESS_PARAMS, {"N_ITEMS": "4000", "L1_DDR_LAT": "1,150"}),
        _entry(
            "l1_cache_faults",
            "L1CacheFaultsTest",
            "Radix L1 cache: SLVERR and hung fills and write-backs on each request kind",
            block="radix",
            top="radix_l1_cache",
            filelists=_RADIX_L1,
            parameters=_L1_FAULT_PARAMS,
            sims=SIMULATORS,
        ),
        _entry(
            "radix_l2_lookup",
            "RadixL2LookupTest",
            "radix_lookup on the L2 build: tables in DDR, L1 = 1/16 of the node table",
            block="radix",
            top="radix_top",
            filelists=_RADIX,
            parameters=_RADIX_L2_PARAMS,
            sims=SIMULATORS,
            module="radix_l2",
            env={"N_REQUESTS": "40", "WORKLOAD": "ecommerce_qa"},
            ci_env={"N_REQUESTS": "12"},
            icarus_ci_env={"N_REQUESTS": "6"},
        ),
        _entry(
            "radix_l2_random",
            "RadixL2RandomTest",
            "radix_random on the L2 build with 4-line L1 caches: most accesses miss",
            block="radix",
            top="radix_top",
            filelists=_RADIX,
            parameters=_RADIX_L2_SMALL_PARAMS,
            sims=VERILATOR,
            module="radix_l2",
            env={"N_OPS": "3000"},
            ci_env={"N_OPS": "300"},
        ),
        _entry(
            "radix_l2_faults",
            "RadixL2FaultsTest",
            "L2 build: DDR error responses and hangs on reads and writes; MEMORY, RESET",
            block="radix",
            top="radix_top",
            filelists=_RADIX,
            parameters=_RADIX_L2_FAULT_PARAMS,
            sims=SIMULATORS,
            module="radix_l2",
            env={"N_OPS": "200", "FAULT_ROUNDS": "2"},
            ci_env={"N_OPS": "60", "FAULT_ROUNDS": "1"},
        ),
        _entry(
            "radix_l2_faults_overlap",
            "RadixL2FaultsOverlapTest",
            "Read faults armed under pipelined walks on the overlapped core (Overlap = 1): "
            "a fault also stops the walk beside the command it cuts short (MEMORY)",
            block="radix",
            top="radix_top",
            filelists=_RADIX,
            parameters={**_RADIX_L2_FAULT_PARAMS, "Overlap": 1},
            sims=VERILATOR,
            module="radix_l2",
            env={"N_OPS": "200", "FAULT_ROUNDS": "2"},
            ci_env={"N_OPS": "60", "FAULT_ROUNDS": "1"},
        ),
        _entry(
            "radix_l2_flush",
            "RadixL2FlushTest",
            "L2 build: FLUSH at random moments under traffic; DDR image decoded at checkpoints",
            block="radix",
            top="radix_top",
            filelists=_RADIX,
            parameters=_RADIX_L2_SMALL_PARAMS,
            sims=VERILATOR,
            module="radix_l2",
            env={"N_OPS": "1500", "CSR_EVERY": "32", "TREE_EVERY": "1"},
            ci_env={"N_OPS": "200", "CSR_EVERY": "32", "TREE_EVERY": "1"},
        ),
        _entry(
            "radix_l2_bench",
            "RadixL2BenchTest",
            "L2 build: anchor MATCH cold and warm, ecommerce_qa replay, DDR at 60 cycles",
            block="radix",
            top="radix_top",
            filelists=_RADIX,
            parameters=_RADIX_L2_BENCH_PARAMS,
            sims=VERILATOR,
            module="radix_l2",
            env={"N_REQUESTS": "16", "L1_DDR_LAT": "60,60"},
            ci_env={"N_REQUESTS": "4", "L1_DDR_LAT": "60,60"},
            in_ci=False,
        ),
        _entry(
            "radix_lookup",
            "RadixLookupTest",
            "Tree from a workload trace; every lookup, insert, lock, evict checked",
            block="radix",
            top="radix_top",
            filelists=_RADIX,
            parameters=_RADIX_PARAMS,
            sims=SIMULATORS,
            env={"N_REQUESTS": "40", "WORKLOAD": "ecommerce_qa"},
            ci_env={"N_REQUESTS": "16"},
        ),
        _entry(
            "radix_random",
            "RadixRandomTest",
            "Long constrained-random mix of every command",
            block="radix",
            top="radix_top",
            filelists=_RADIX,
            parameters=_RADIX_PARAMS,
            sims=VERILATOR,
            env={"N_OPS": "20000"},
            ci_env={"N_OPS": "400"},
        ),
        _entry(
            "radix_stall_inject",
            "RadixStallInjectTest",
            "Random mix with the walk stage's port requests held in pseudo-random cycles "
            "(StallInject): answers unchanged, every hold path taken",
            block="radix",
            top="radix_top",
            filelists=_RADIX,
            parameters={**_RADIX_PARAMS, "StallInject": 1},
            sims=VERILATOR,
            env={"N_OPS": "4000"},
            ci_env={"N_OPS": "400"},
        ),
        _entry(
            "radix_stall_inject_l2",
            "RadixStallInjectTest",
            "radix_stall_inject on the L2 build with 4-line caches: holds meet frozen cycles",
            block="radix",
            top="radix_top",
            filelists=_RADIX,
            parameters={**_RADIX_L2_SMALL_PARAMS, "StallInject": 1},
            sims=VERILATOR,
            env={"N_OPS": "2000"},
            ci_env={"N_OPS": "300"},
            module="radix_stall_inject",
        ),
        _entry(
            "radix_overlap",
            "RadixOverlapTest",
            "Random mix on the overlapped core (Overlap = 1): the next MATCH or INSERT "
            "walks while the previous one commits; answers unchanged, walks must overlap",
            block="radix",
            top="radix_top",
            filelists=_RADIX,
            parameters={**_RADIX_PARAMS, "Overlap": 1},
            sims=VERILATOR,
            env={"N_OPS": "4000"},
            ci_env={"N_OPS": "400"},
        ),
        _entry(
            "radix_overlap_l2",
            "RadixOverlapTest",
            "radix_overlap on the L2 build with 4-line caches: overlapped walks meet "
            "frozen cycles",
            block="radix",
            top="radix_top",
            filelists=_RADIX,
            parameters={**_RADIX_L2_SMALL_PARAMS, "Overlap": 1},
            sims=VERILATOR,
            env={"N_OPS": "2000"},
            ci_env={"N_OPS": "300"},
            module="radix_overlap",
        ),
        _entry(
            "radix_insert_split",
            "RadixInsertSplitTest",
            "Inserts/matches on a 2-token alphabet: splits at every offset",
            block="radix",
            top="radix_top",
            filelists=_RADIX,
            parameters=_RADIX_PARAMS,
            sims=VERILATOR,
            env={"N_OPS": "600"},
            ci_env={"N_OPS": "250"},
        ),
        _entry(
            "radix_evict_lru",
            "RadixEvictLruTest",
            "Eviction pressure: LRU order, cascades, whole nodes",
            block="radix",
            top="radix_top",
            filelists=_RADIX,
            parameters=_RADIX_PARAMS,
            sims=VERILATOR,
            env={"N_OPS": "600"},
            ci_env={"N_OPS": "250"},
        ),
        _entry(
            "radix_lock",
            "RadixLockTest",
            "Interleaved lock/unlock incl. splits of locked nodes",
            block="radix",
            top="radix_top",
            filelists=_RADIX,
            parameters=_RADIX_PARAMS,
            sims=VERILATOR,
            env={"N_OPS": "600"},
            ci_env={"N_OPS": "250"},
        ),
        _entry(
            "radix_namespace",
            "RadixNamespaceTest",
            "Same keys in 16 namespaces never share nodes",
            block="radix",
            top="radix_top",
            filelists=_RADIX,
            parameters=_RADIX_PARAMS,
            sims=VERILATOR,
            env={"N_OPS": "600"},
            ci_env={"N_OPS": "250"},
        ),
        _entry(
            "radix_errors",
            "RadixErrorsTest",
            "Every refusal class: status, no state change, counter",
            block="radix",
            top="radix_top",
            filelists=_RADIX,
            parameters=_RADIX_PARAMS,
            sims=SIMULATORS,
            env={"N_OPS": "600"},
            ci_env={"N_OPS": "250"},
        ),
        _entry(
            "radix_lock_overflow",
            "RadixLockOverflowTest",
            "65,535 locks of one node, then OVERFLOW; UNLOCK makes room for one",
            block="radix",
            top="radix_top",
            filelists=_RADIX,
            parameters=_RADIX_PARAMS,
            sims=VERILATOR,
            # About 1.1M cycles, 2.3 minutes on Verilator: the one test that reaches
            # LOCK x OVERFLOW, so CI runs it too (one simulator).
            env={"N_LOCKS": "65535", "N_OPS": "70000"},
        ),
        _entry(
            "radix_paged",
            "RadixPagedTest",
            "PAGE_SIZE=16 keys, splits at page edges only",
            block="radix",
            top="radix_top",
            filelists=_RADIX,
            parameters={**_RADIX_PARAMS, "PageSize": 16},
            sims=VERILATOR,
            env={"N_OPS": "600"},
            ci_env={"N_OPS": "200"},
        ),
        _entry(
            "radix_backpressure",
            "RadixBackpressureTest",
            "Heavy idle/back-pressure on both streams",
            block="radix",
            top="radix_top",
            filelists=_RADIX,
            parameters=_RADIX_PARAMS,
            sims=VERILATOR,
            env={"N_OPS": "600"},
            ci_env={"N_OPS": "200"},
        ),
        _entry(
            "radix_concurrent",
            "RadixConcurrentTest",
            "Bursts built to collide (MATCH vs INSERT of its key, split under a walk, "
            "EVICT between walks, LOCK of a node being split, one new key twice) at the "
            "full window; races offered are measured from the model's read/write sets",
            block="radix",
            top="radix_top",
            filelists=_RADIX,
            parameters=_RADIX_PARAMS,
            sims=SIMULATORS,
            env={"N_ROUNDS": "400"},
            ci_env={"N_ROUNDS": "200"},
        ),
        _entry(
            "radix_concurrent_overlap",
            "RadixConcurrentOverlapTest",
            "radix_concurrent on the overlapped core (Overlap = 1): answers unchanged, and "
            "a commit's broadcast must have hit a walk that then ran again",
            block="radix",
            top="radix_top",
            filelists=_RADIX,
            parameters={**_RADIX_PARAMS, "Overlap": 1},
            sims=SIMULATORS,
            env={"N_ROUNDS": "400"},
            ci_env={"N_ROUNDS": "200"},
            icarus_ci_env={"N_ROUNDS": "80"},
            module="radix_concurrent",
        ),
        _entry(
            "radix_csr",
            "RadixCsrTest",
            "CSR map: ids, capacities, W1C interrupt, SLVERR, counters vs model",
            block="radix",
            top="radix_top",
            filelists=_RADIX,
            parameters=_RADIX_PARAMS,
            sims=VERILATOR,
            env={"N_OPS": "300"},
            ci_env={"N_OPS": "150"},
        ),
        _entry(
            "radix_csr_suite",
            "RadixCsrSuiteTest",
            "CSR suite from radix_regs.yml: reset, WSTRB, bit-bash, aliasing, SLVERR, W1C race",
            block="radix",
            top="radix_top",
            filelists=_RADIX,
            parameters=_RADIX_PARAMS,
            sims=SIMULATORS,
            env={"N_OPS": "400"},
            ci_env={"N_OPS": "150"},
        ),
        _entry(
            "radix_rand_reset",
            "RadixRandResetTest",
            "rst_ni mid-command, mid-response, in the init sweep, at random: reset values, "
            "traffic goes on",
            block="radix",
            top="radix_top",
            filelists=_RADIX,
            parameters=_RADIX_PARAMS,
            sims=SIMULATORS,
            env={"N_ROUNDS": "20", "N_OPS": "400"},
            ci_env={"N_ROUNDS": "10", "N_OPS": "150"},
        ),
        _entry(
            "radix_stress_all",
            "RadixStressAllTest",
            "Stalls on every interface, malformed commands, background CSR traffic and "
            "random resets at once",
            block="radix",
            top="radix_top",
            filelists=_RADIX,
            parameters=_RADIX_PARAMS,
            sims=SIMULATORS,
            env={"N_ROUNDS": "20", "N_OPS": "400"},
            ci_env={"N_ROUNDS": "8", "N_OPS": "150"},
        ),
        _entry(
            "radix_bench",
            "RadixBenchTest",
            "Cycle counts per MATCH/INSERT/EVICT on workloads (make bench)",
            block="radix",
            top="radix_top",
            filelists=_RADIX,
            parameters=_RADIX_BENCH_PARAMS,
            sims=VERILATOR,
            env={"N_REQUESTS": "40"},
            ci_env={"N_REQUESTS": "8"},
        ),
        _entry(
            "radix_stream_bench",
            "RadixStreamBenchTest",
            "ecommerce_qa MATCH and MATCH+INSERT streams back to back at the full window "
            "(make bench: on chip and L2, Overlap 0 and 1)",
            block="radix",
            top="radix_top",
            filelists=_RADIX,
            parameters=_RADIX_BENCH_PARAMS,
            sims=VERILATOR,
            env={"N_REQUESTS": "32"},
            ci_env={"N_REQUESTS": "6"},
        ),
        _entry(
            "radix_fanout",
            "RadixFanoutTest",
            "One node with 10,000 children: first, last, absent child; O(1) lookup",
            block="radix",
            top="radix_top",
            filelists=_RADIX,
            parameters=_RADIX_FANOUT_PARAMS,
            sims=VERILATOR,
            env={"CHILDREN": "10000"},
            ci_env={"CHILDREN": "2500"},
        ),
        _entry(
            "radix_capacity",
            "RadixCapacityTest",
            "Lines, node slots and child index each filled to refusal; all CSRs after each",
            block="radix",
            top="radix_top",
            filelists=_RADIX,
            parameters=_RADIX_PARAMS,
            sims=SIMULATORS,
        ),
        *(
            _entry(
                "radix_long_edges" + ("" if page == 1 else f"_p{page}"),
                "RadixLongEdgesTest",
                f"MaxLen edges split at every line offset, PageSize={page}",
                block="radix",
                top="radix_top",
                filelists=_RADIX,
                parameters={**_RADIX_LONG_PARAMS, "PageSize": page},
                sims=VERILATOR,
                in_ci=page in (1, 16),
                module="radix_long_edges",
            )
            for page in (1, 2, 4, 8, 16)
        ),
        _entry(
            "radix_scale",
            "RadixScaleTest",
            "VCK5000 node and token counts, on-chip build, filled with >= 1M tokens",
            block="radix",
            top="radix_top",
            filelists=_RADIX,
            parameters=_RADIX_ONCHIP_VCK5000,
            sims=VERILATOR,
            env={"TOKENS": "1100000"},
            ci_env={"TOKENS": "150000"},
        ),
        _entry(
            "kernel_radix",
            "KernelRadixTest",
            "Vitis kernel: host writes DDR, starts, waits for irq, checks results",
            block="top",
            top="krnl_radix",
            filelists=(*_RADIX, "rtl/top/krnl_radix.f"),
            parameters=_RADIX_KERNEL_PARAMS,
            sims=VERILATOR,
            env={"N_REQUESTS": "24"},
            ci_env={"N_REQUESTS": "10"},
        ),
        _entry(
            "kernel_radix_onchip",
            "KernelRadixTest",
            "Vitis kernel, on-chip build (L2 = 0): the same runs, m_axi_l2 idle",
            block="top",
            top="krnl_radix",
            filelists=(*_RADIX, "rtl/top/krnl_radix.f"),
            parameters={**_RADIX_PARAMS, "L2": 0},
            sims=VERILATOR,
            env={"N_REQUESTS": "24"},
            ci_env={"N_REQUESTS": "10"},
            module="kernel_radix",
        ),
        *(
            _entry(
                "kernel_ctrl_csr_suite" + suffix,
                "KernelCtrlCsrSuiteTest",
                f"ap_ctrl_hs block, {kernel}'s map from top_ctrl_regs.yml: reset, WSTRB, "
                "bit-bash, handshakes, ISR and read races",
                block="top",
                top="top_ctrl_hs",
                filelists=("rtl/top/top_ctrl.f",),
                parameters={"NumArgs": args, "NumOuts": outs, "AddrW": 7},
                sims=SIMULATORS,
                env={"N_ROUNDS": "8"},
                ci_env={"N_ROUNDS": "4"},
                module="kernel_ctrl_csr_suite",
            )
            # The control block standalone, in each kernel's configuration (krnl_*.sv).
            for suffix, kernel, args, outs in (("", "krnl_radix", 5, 2),
                                               ("_fsm", "krnl_fsm", 8, 3))
        ),
        _entry(
            "fsm_random_regex",
            "FsmRandomRegexTest",
            "Random regexes x random vocabularies: walks, masks, VALIDATE on 6 slots",
            block="fsm",
            top="fsm_top",
            filelists=_FSM,
            parameters=_FSM_PARAMS,
            sims=VERILATOR,
            env={"N_OPS": "3000"},
            ci_env={"N_OPS": "800"},
        ),
        _entry(
            "fsm_mask",
            "FsmMaskTest",
            "Mask of every visited state vs the model (synthetic vocab and GPT-2)",
            block="fsm",
            top="fsm_top",
            filelists=_FSM,
            parameters=_FSM_PARAMS,
            sims=VERILATOR,
            env={"N_GPT2_MASKS": "60", "N_OPS": "1500"},
            ci_env={"N_GPT2_MASKS": "16", "N_OPS": "400"},
        ),
        _entry(
            "fsm_json",
            "FsmJsonTest",
            "Financial-summary JSON schema on GPT-2: documents, masks, VALIDATE",
            block="fsm",
            top="fsm_top",
            filelists=_FSM,
            parameters=_FSM_PARAMS,
            sims=SIMULATORS,
            env={"DOC_LEN": "200", "N_DOCS": "12", "ORACLE_SAMPLE": "256"},
            ci_env={"DOC_LEN": "120", "N_DOCS": "4", "ORACLE_SAMPLE": "128"},
        ),
        _entry(
            "fsm_jump_forward",
            "FsmJumpForwardTest",
            "Forced tokens (jump-forward) reported and followed",
            block="fsm",
            top="fsm_top",
            filelists=_FSM,
            parameters=_FSM_PARAMS,
            sims=VERILATOR,
            env={"N_OPS": "1000"},
            ci_env={"N_OPS": "300"},
        ),
        _entry(
            "fsm_irq",
            "FsmIrqTest",
            "Violation interrupt: level, enable, W1C, slot/position/token registers",
            block="fsm",
            top="fsm_top",
            filelists=_FSM,
            parameters=_FSM_PARAMS,
            sims=VERILATOR,
            env={"N_OPS": "1200", "N_ROUNDS": "6"},
            ci_env={"N_OPS": "300", "N_ROUNDS": "4"},
        ),
        _entry(
            "fsm_csr_suite",
            "FsmCsrSuiteTest",
            "CSR suite from fsm_regs.yml: reset, WSTRB, bit-bash, aliasing, SLVERR, W1C race",
            block="fsm",
            top="fsm_top",
            filelists=_FSM,
            parameters=_FSM_PARAMS,
            sims=SIMULATORS,
            env={"N_OPS": "600"},
            ci_env={"N_OPS": "200"},
        ),
        _entry(
            "fsm_rand_reset",
            "FsmRandResetTest",
            "rst_ni mid-LOAD, mid-command, mid-response, at random: reset values, reload, "
            "traffic goes on",
            block="fsm",
            top="fsm_top",
            filelists=_FSM,
            parameters=_FSM_PARAMS,
            sims=SIMULATORS,
            env={"N_ROUNDS": "16", "N_OPS": "600"},
            ci_env={"N_ROUNDS": "8", "N_OPS": "200"},
        ),
        _entry(
            "fsm_stress_all",
            "FsmStressAllTest",
            "Stalls on every interface, malformed commands, background CSR traffic and "
            "random resets at once",
            block="fsm",
            top="fsm_top",
            filelists=_FSM,
            parameters=_FSM_PARAMS,
            sims=SIMULATORS,
            env={"N_ROUNDS": "16", "N_OPS": "600"},
            ci_env={"N_ROUNDS": "6", "N_OPS": "200"},
        ),
        _entry(
            "fsm_errors",
            "FsmErrorsTest",
            "Every command and image error: status, no state change, counters",
            block="fsm",
            top="fsm_top",
            filelists=_FSM,
            parameters=_FSM_PARAMS,
            sims=SIMULATORS,
            env={"N_OPS": "1000"},
            ci_env={"N_OPS": "200"},
        ),
        _entry(
            "fsm_multislot",
            "FsmMultislotTest",
            "All 64 slots interleaved: full-rate round robin, same-slot runs, random",
            block="fsm",
            top="fsm_top",
            filelists=_FSM,
            parameters=_FSM_PARAMS,
            sims=VERILATOR,
            env={"N_OPS": "3000"},
            ci_env={"N_OPS": "600"},
        ),
        _entry(
            "fsm_same_slot",
            "FsmSameSlotTest",
            "ADVANCE back to back on one slot: 1 command per cycle, every verdict checked; "
            "result credits exact with the result sink stopped",
            block="fsm",
            top="fsm_top",
            filelists=_FSM,
            parameters=_FSM_PARAMS,
            sims=SIMULATORS,
            env={"N_RUNS": "40", "N_OPS": "600"},
            ci_env={"N_RUNS": "12", "N_OPS": "200"},
        ),
        _entry(
            "fsm_batch_mask",
            "FsmBatchMaskTest",
            "MASK_BATCH of 1-8 slots: masks back to back, no bubble, back-pressure",
            block="fsm",
            top="fsm_top",
            filelists=_FSM,
            parameters=_FSM_PARAMS,
            sims=SIMULATORS,
            env={"N_BATCHES": "120", "N_OPS": "400"},
            ci_env={"N_BATCHES": "40", "N_OPS": "150"},
        ),
        _entry(
            "fsm_table_load",
            "FsmTableLoadTest",
            "Loads, reloads, every corrupted-image class; old grammar keeps working",
            block="fsm",
            top="fsm_top",
            filelists=_FSM,
            parameters=_FSM_PARAMS,
            sims=VERILATOR,
            env={"N_OPS": "2000", "N_ROUNDS": "33"},
            ci_env={"N_OPS": "600", "N_ROUNDS": "22"},
        ),
        # Its DUT is generated: sources() runs scripts/regex2sv.py into build/gen/regex2sv/
        # first (the patterns are scripts.regex2sv.TEST_REGEXES).
        regex2sv.GeneratedSimTest(
            name="fsm_regex2sv",
            block="fsm",
            top="fsm_regex2sv_top",
            module="tests.fsm.fsm_regex2sv",
            testcase="FsmRegex2svTest",
            description="regex2sv modules (summary regex and 6 more) vs regex.fullmatch per byte",
            filelists=("rtl/fsm/fsm_regex2sv.f",),
            regexes=regex2sv.TEST_REGEXES,
            sims=("verilator",),
            ci_sims=("verilator",),
            env=_freeze(N_STRINGS="1200"),
            ci_env=_freeze(N_STRINGS="300"),
        ),
        _entry(
            "fsm_bench",
            "FsmBenchTest",
            "Cycle counts: ADVANCE latency/throughput, VALIDATE, MASK on GPT-2, load",
            block="fsm",
            top="fsm_top",
            filelists=_FSM,
            parameters=_FSM_PARAMS,
            sims=VERILATOR,
            env={"N_BENCH": "512"},
            ci_env={"N_BENCH": "128"},
        ),
        _entry(
            "fsm_bench_tekken",
            "FsmBenchTest",
            "fsm_bench over tekken (131,072 tokens): masks of 256 beats, 1 and 8 slots",
            block="fsm",
            top="fsm_top",
            filelists=_FSM,
            parameters=_FSM_TEKKEN_PARAMS,
            sims=VERILATOR,
            env={"N_BENCH": "256", "BENCH_VOCAB": "tekken"},
            module="fsm_bench",
            ci_env={"N_BENCH": "64", "BENCH_VOCAB": "tekken"},
        ),
        _entry(
            "fsm_narrow",
            "FsmNarrowTest",
            "LoadW = MaskW = 64, 3 grammars, 16 slots: random traffic and reloads",
            block="fsm",
            top="fsm_top",
            filelists=_FSM,
            parameters={
                "ClassW": 10,
                "LoadW": 64,
                "MaskW": 64,
                "NGrammars": 3,
                "NSlots": 16,
                "NsCap": 65536,
                "RowCap": 255,
                "RowW": 8,
                "StateW": 10,
                "VocabMax": 1024,
            },
            sims=VERILATOR,
            env={"N_OPS": "3000"},
            ci_env={"N_OPS": "600"},
        ),
        _entry(
            "fsm_random_regex_pieces",
            "FsmRandomRegexTest",
            "MaskW 64 < LoadW 256: each mask beat is a piece of a table word; random traffic",
            block="fsm",
            top="fsm_top",
            filelists=_FSM,
            parameters={
                "ClassW": 10,
                "LoadW": 256,
                "MaskW": 64,
                "NGrammars": 2,
                "NSlots": 16,
                "NsCap": 65536,
                "RowCap": 255,
                "RowW": 8,
                "StateW": 10,
                "VocabMax": 1024,
            },
            sims=VERILATOR,
            env={"N_OPS": "1500"},
            ci_env={"N_OPS": "400"},
            module="fsm_random_regex",
        ),
        _entry(
            "kernel_fsm",
            "KernelFsmTest",
            "Vitis kernel: table image, commands, results and masks through DDR",
            block="top",
            top="krnl_fsm",
            filelists=(*_FSM, "rtl/top/krnl_fsm.f"),
            parameters=_KRNL_FSM_PARAMS,
            sims=VERILATOR,
        ),
    )
}


def _verilator(sims: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(s for s in sims if s == "verilator")


def _variant(base: SimTest, suffix: str, what: str, parameters: dict[str, int], *,
             sims: tuple[str, ...] | None = None) -> SimTest:
    """base again under other parameters: the same module, stimulus and checks, so the
    serial model judges the variant exactly as it judges base. CI runs variants on
    Verilator only; ``sims`` narrows what make regress may run too (default: as base)."""
    return dataclasses.replace(
        base, name=f"{base.name}_{suffix}", description=f"{base.description}, {what}",
        parameters={**base.parameters, **parameters},
        sims=base.sims if sims is None else sims, ci_sims=_verilator(base.ci_sims))


def _on_overlap(base: SimTest) -> SimTest:
    """base on the overlapped core (Overlap = 1), where walks run beside a commit. make
    regress keeps every simulator base supports: Icarus builds of the overlapped core
    are in CI through radix_concurrent_overlap."""
    return _variant(base, "overlap", "on the overlapped core (Overlap = 1)", {"Overlap": 1})


def _stream_on_l2(base: SimTest) -> SimTest:
    """radix_stream_bench on the L2 build with radix_l2_bench's caches (1/16 of the node
    table) and DDR reads at 60 cycles: make bench's "walks in flight" rows."""
    out = _variant(base, "l2", "on the L2 build, DDR reads at 60 cycles",
                   {"L2": 1, "L1Lines": 128, "L1Ways": 2})
    return dataclasses.replace(out, env=_freeze(**{**base.env, "L1_DDR_LAT": "60,60"}),
                               ci_env=_freeze(**{**base.ci_env, "L1_DDR_LAT": "60,60"}))


# make bench's stream builds, each a test of its own so a failing seed replays by name:
# on chip and on L2, serial (Overlap = 0) and overlapped.
TESTS["radix_stream_bench_l2"] = _stream_on_l2(TESTS["radix_stream_bench"])
TESTS.update((t.name, t) for t in map(_on_overlap, (
    TESTS["radix_stream_bench"], TESTS["radix_stream_bench_l2"])))

# The radix suite's random (also paged and on L2), stress, reset, refusal, CSR, hold, LRU,
# namespace and back-pressure tests also run on the overlapped core; the tests written for
# the overlap (radix_overlap*, *_faults_overlap, radix_concurrent_overlap) are entries of
# their own above.
# (radix_capacity is not among them: it waits for each answer, so no walk overlaps.)
TESTS.update((t.name, t) for t in map(_on_overlap, (
    TESTS["radix_random"], TESTS["radix_paged"], TESTS["radix_stress_all"],
    TESTS["radix_rand_reset"], TESTS["radix_errors"], TESTS["radix_csr_suite"],
    TESTS["radix_l2_random"], TESTS["radix_stall_inject"], TESTS["radix_evict_lru"],
    TESTS["radix_namespace"], TESTS["radix_backpressure"])))


def _at_ram_lat(base: SimTest, lat: int) -> SimTest:
    """base with the on-chip RAMs' read latency at ``lat`` (RamLat): the VCK5000
    configuration's value is 3, the suite's default 2, and the line streamer, the walker
    and the commit stage time their reads by it. Verilator only."""
    return _variant(base, f"lat{lat}", f"RAM read latency {lat} (RamLat)", {"RamLat": lat},
                    sims=_verilator(base.sims))


# The board's read latency on the suite's small builds: random traffic on chip and on L2,
# the overlapped core's races, and edges of many lines (radix_scale alone ran RamLat 3).
TESTS.update((t.name, t) for t in (_at_ram_lat(TESTS[n], 3) for n in (
    "radix_random", "radix_l2_random", "radix_concurrent_overlap", "radix_long_edges",
    "radix_random_overlap")))


def get(name: str) -> SimTest:
    try:
        return TESTS[name]
    except KeyError:
        raise KeyError(name) from None
