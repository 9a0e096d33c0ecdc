# SPDX-License-Identifier: Apache-2.0
"""L1Scoreboard: radix_l1_cache against a flat table, and its DDR image against the table.

The reference is what the core would see from an on-chip RAM: a list of entries that
starts as the DDR region's initial content. Beside it, L1TagModel predicts from the
cache's stated policy which requests hit, miss and write back, so a replacement bug
that costs only misses fails too. Every read is compared (read-first when the
same request writes), and every flush's DDR image is decoded and compared entry by
entry, so a write-back that is lost or lands in the wrong place fails even when no read
ever returns to it. After a fault the cache's contents are undefined by contract: the
reference stops until a clear, which reloads it from DDR, and DDR must not have changed
since the fault.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from cocotb_coverage.coverage import CoverPoint
from pyuvm import uvm_subscriber

from uvm_env.common.scoreboard_base import ScoreboardBase
from uvm_env.radix.l1_item import L1Op
from uvm_env.radix.l1_tag_model import L1TagModel

ACCESS_BINS = [(k, o) for k in ("read", "write", "read_write") for o in ("hit", "miss")]


PREFETCH_WAIT_BINS = ["refill", "kept"]
_prefetch_wait_sample: Callable[[str], None] | None = None


def cover_prefetch_waits(waits: Counter[str]) -> None:
    """radix.l1.prefetch_wait: misses that waited for a prefetch read in flight, by what
    became of the slot (L1Driver.pf_waits). Defined on first use, so only builds with a
    prefetch buffer carry the point."""
    global _prefetch_wait_sample
    if _prefetch_wait_sample is None:
        @CoverPoint("radix.l1.prefetch_wait", xf=lambda kind: kind, bins=PREFETCH_WAIT_BINS)
        def sample(kind: str) -> None:
            pass

        _prefetch_wait_sample = sample
    for kind, n in waits.items():
        for _ in range(n):
            _prefetch_wait_sample(kind)


def entry_bytes(width: int) -> int:
    """Bytes per entry in DDR: the next power of two that holds width bits."""
    return 1 << max(0, ((width + 7) // 8 - 1).bit_length())


def decode(image: bytes, width: int, depth: int) -> list[int]:
    eb, mask = entry_bytes(width), (1 << width) - 1
    return [int.from_bytes(image[i * eb:(i + 1) * eb], "little") & mask for i in range(depth)]


class L1Scoreboard(ScoreboardBase):
    cov_prefix = "radix.l1"
    width: int
    depth: int
    tags: L1TagModel

    def build_phase(self) -> None:
        super().build_phase()
        self.model: list[int] = []
        self.synced = True
        self.faults = 0
        self.faults_cleared = 0
        self.sub = _OpSubscriber("sub", self)
        self.analysis_export = self.sub.analysis_export
        p = self.cov_prefix

        @CoverPoint(f"{p}.access", xf=lambda op: (op.kind, "miss" if op.misses else "hit"),
                    bins=ACCESS_BINS)
        @CoverPoint(f"{p}.dirty_evict", xf=lambda op: op.misses > 0 and op.wbs > 0,
                    bins=[True])
        @CoverPoint(f"{p}.flush_writes_back", xf=lambda op: op.flush and op.wbs > 0,
                    bins=[True])
        @CoverPoint(f"{p}.clear", xf=lambda op: op.clear, bins=[True])
        @CoverPoint(f"{p}.collision", xf=lambda op: op.re and op.we and op.raddr == op.waddr,
                    bins=[True])
        def sample(op: L1Op) -> None:
            pass

        self._sample = sample

    def load(self, image: bytes) -> None:
        self.model = decode(image, self.width, self.depth)

    def write_op(self, op: L1Op) -> None:
        if op.clear:
            self._clear(op)
            return
        if op.faulted and self.synced:
            self.synced = False
            self.faults += 1
        if not self.synced:
            return
        self._sample(op)
        accesses = int(op.re) + int(op.we)
        self.check(f"{op}: hit + miss counters", op.hits + op.misses == accesses,
                   f"{op.hits} hits + {op.misses} misses for {accesses} accesses")
        want = self.tags.access(re=op.re, raddr=op.raddr, we=op.we, waddr=op.waddr,
                                flush=op.flush)
        self.compare(f"{op}: hits, misses, write-backs (replacement policy)",
                     (want.hits, want.misses, want.wbs), (op.hits, op.misses, op.wbs))
        if op.re:
            self.compare(f"{op}: read [{op.raddr}]", self.model[op.raddr], op.rdata)
        if op.we:
            self.model[op.waddr] = op.wdata
        if op.flush:
            self._image_check(f"{op}: DDR image after flush", op.image)

    def _clear(self, op: L1Op) -> None:
        if op.fault_image is not None:
            self.check(f"{op}: DDR unchanged since the fault", op.fault_image == op.image,
                       "the region was written after fault_o rose")
            self.faults_cleared += 1
        self._sample(op)
        self.load(op.image)
        self.tags.clear()
        self.synced = True

    def _image_check(self, what: str, image: bytes | None) -> None:
        if image is None:
            self.check(what, False, "no image was taken")
            return
        got = decode(image, self.width, self.depth)
        bad = [i for i in range(self.depth) if got[i] != self.model[i]]
        detail = ""
        if bad:
            i = bad[0]
            detail = (f"{len(bad)} of {self.depth} entries differ; first [{i}]: expected "
                      f"{self.model[i]:#x}, DDR holds {got[i]:#x}")
        self.check(what, not bad, detail)


class _OpSubscriber(uvm_subscriber):
    def write(self, tt: L1Op) -> None:
        self.get_parent().write_op(tt)
