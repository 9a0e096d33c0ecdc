# SPDX-License-Identifier: Apache-2.0
"""Coverage of the L2 build's fault handling: which fault, the kind the DUT reported,
and the command it cut short (radix_l2_faults samples it once per fault)."""

from __future__ import annotations

from cocotb_coverage.coverage import CoverCross, CoverPoint

from uvm_env.radix.protocol import OP_EVICT, OP_INSERT, OP_MATCH

#: DdrModel arm counter -> the L2_STATUS.FAULT_KIND values it may raise: an error
#: response is a read (1) or write (2) error; a hang is seen as a timeout (3), and a
#: hung read holds up the reads queued behind it, which time out as well.
FAULT_CASES: dict[str, tuple[int, ...]] = {
    "fail_reads": (1,),
    "fail_writes": (2,),
    "hang_reads": (3,),
    "hang_writes": (3,),
}
KINDS = {1: "read error", 2: "write error", 3: "timeout"}
OP_CLASSES = ("match", "insert", "evict", "other")

# The L2 master's AXI ID (radix_axi_arb, radix_l1_cache): {table, cache-local ID}; a
# cache that prefetches splits its local ID into {tag, epoch}, tag 0 the demand read
# and tag s+1 prefetch slot s. radix_core gives prefetch to the line tables only.
L1_IDW, TAG_W = 5, 3
PREFETCH_TABLES = ("ltok", "lkv", "llink")
TABLE_ORDER = ("node", "lnext", "lprev", "free_nodes", "ltok", "lkv", "llink",
               "free_lines", "index")


def is_prefetch_read(axi_id: int, prefetch_depth: int) -> bool:
    """Whether a read with this ID was a prefetch. An error on one only empties its
    slot (a demand for the line reads it again), so it need not fault the core."""
    table = TABLE_ORDER[axi_id >> L1_IDW]
    tag = (axi_id & ((1 << L1_IDW) - 1)) >> (L1_IDW - TAG_W)
    return prefetch_depth > 0 and table in PREFETCH_TABLES and tag != 0


def op_class_of(op: int | None) -> str:
    return {OP_MATCH: "match", OP_INSERT: "insert", OP_EVICT: "evict"}.get(op, "other")


class L2FaultCoverage:
    def __init__(self, prefix: str) -> None:
        @CoverPoint(f"{prefix}.case", xf=lambda case, kind, op: case, bins=list(FAULT_CASES))
        @CoverPoint(f"{prefix}.kind", xf=lambda case, kind, op: KINDS.get(kind, "none"),
                    bins=list(KINDS.values()))
        @CoverPoint(f"{prefix}.op", xf=lambda case, kind, op: op_class_of(op), bins=OP_CLASSES)
        @CoverCross(f"{prefix}.kind_x_op", items=[f"{prefix}.kind", f"{prefix}.op"])
        def sample(case: str, kind: int, op: int | None) -> None:
            pass

        self.sample = sample
