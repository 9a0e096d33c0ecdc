# SPDX-License-Identifier: Apache-2.0
"""l1_cache_random: radix_l1_cache in front of a 50-70-cycle DDR model, against a flat table.

Random reads and writes (hot lines, lines fighting over a set, scattered lines), random
core freezes, back-pressure on every AXI channel, flushes whose DDR image is compared
entry by entry, and clears after which reads must see DDR again.
"""

from __future__ import annotations

import pyuvm
from cocotb.triggers import ClockCycles

from uvm_env.radix.l1_base_test import L1TestBase
from uvm_env.radix.l1_scoreboard import cover_prefetch_waits
from uvm_env.radix.l1_seqs import L1PrefetchDirectedSeq, L1RandomSeq


@pyuvm.test()
class L1CacheRandomTest(L1TestBase):
    coverage_prefix = "radix.l1"

    async def body(self) -> None:
        env = self.env
        geo = self.geometry()
        seq = L1RandomSeq("l1", self.cfg.n_items, geo, self.cfg.child_rng("seq"))
        await seq.start(env.seqr)
        if int(self.dut.PrefetchDepth.value):
            corners = L1PrefetchDirectedSeq("corners", geo, self.cfg.child_rng("corners"),
                                            env.ddr, self.dut, self.clock,
                                            int(self.dut.PrefetchDepth.value))
            await corners.start(env.seqr)
            env.scoreboard.check("a miss met a prefetch read still queued, every round",
                                 corners.kept == corners.rounds,
                                 f"{corners.kept} of {corners.rounds} rounds")
            env.scoreboard.check("a prefetch read answered SLVERR, every round",
                                 corners.failed == corners.rounds,
                                 f"{corners.failed} of {corners.rounds} rounds")
            env.scoreboard.check("a slow prefetch read left its slot too full for a new "
                                 "line, every round", corners.full == corners.rounds,
                                 f"{corners.full} of {corners.rounds} rounds")
        # Prefetch reads issued by the last misses may still be on their way.
        await ClockCycles(self.clock, 4 * env.ddr.read_latency[1] + 64)
        c = env.check_counters()
        # A miss the prefetch buffer served read nothing; every prefetch read one beat.
        env.scoreboard.compare("misses - served by prefetch + prefetches vs DDR read beats",
                               c["miss"] - c["pf_useful"] + c["pf"], c["rd_beat"])
        # A fault here would silently stop the checks until the next clear.
        env.scoreboard.check("no DDR fault in a fault-free run", env.scoreboard.faults == 0,
                             f"{env.scoreboard.faults} faults")
        if int(self.dut.PrefetchDepth.value):
            env.scoreboard.check("prefetches were useful", c["pf_useful"] > 0, str(c))
            waits = env.driver.pf_waits
            env.scoreboard.check("waits on a prefetch read are among the served misses",
                                 waits.total() <= c["pf_useful"], f"{dict(waits)}; {c}")
            cover_prefetch_waits(waits)
            self.figures["prefetch_waits"] = dict(waits)
        accesses = c["hit"] + c["miss"]
        self.figures.update(c, hit_rate=round(c["hit"] / max(1, accesses), 3),
                            ticks=env.driver.ticks, stall_cycles=env.driver.stall_cycles)
        self.logger.info(f"L1 counters {c}; {env.driver.ticks} ticks")
