# SPDX-License-Identifier: Apache-2.0
"""L1Env: radix_l1_cache between a core-playing driver and a DDR model, and its scoreboard."""

from __future__ import annotations

import os

from pyuvm import ConfigDB, uvm_env, uvm_sequencer

from uvm_env.common.axi_ddr import DdrModel
from uvm_env.radix.l1_driver import L1Driver
from uvm_env.radix.l1_scoreboard import L1Scoreboard, entry_bytes
from uvm_env.radix.l1_tag_model import L1TagModel

#: Read latency of the DDR model in cycles (VCK5000 DDR4 through the NoC at 300 MHz).
DDR_LATENCY = (50, 70)


#: A long AR stall outlasts a DDR read (DDR_LATENCY), so that a miss can meet a read
#: the cache queued behind an earlier one and has not sent yet.
AR_LONG_BURST = 160


def ar_p_long() -> float:
    """L1_AR_LONG=p: a share of the DDR model's AR stalls are long ones (80-160 cycles)."""
    return float(os.environ.get("L1_AR_LONG", "0"))


def ddr_latency() -> tuple[int, int]:
    """L1_DDR_LAT="lo,hi" widens the latency range for stress runs."""
    raw = os.environ.get("L1_DDR_LAT")
    if not raw:
        return DDR_LATENCY
    lo, hi = (int(x) for x in raw.split(","))
    return lo, hi


class L1Env(uvm_env):
    dut: object
    clock: object
    reset: object

    def build_phase(self) -> None:
        cfg = ConfigDB().get(self, "", "cfg")
        d = self.dut
        self.width, self.depth = int(d.Width.value), int(d.Depth.value)
        self.sets, self.ways = int(d.Sets.value), int(d.Ways.value)
        self.latency = int(d.ReadLatency.value)
        self.timeout = int(d.TimeoutCycles.value)
        rng = cfg.child_rng("ddr")
        self.region_bytes = self.depth * entry_bytes(self.width)
        # The region sits at a random 4 KiB page above 0, so address arithmetic that
        # forgets the base lands outside it.
        self.base = 4096 * rng.randrange(1, 16)
        size = self.base + ((self.region_bytes + 4095) // 4096 + 1) * 4096
        self.ddr = DdrModel(d, "m_axi", self.clock, self.reset, size, rng,
                            read_latency=ddr_latency(), p_pause=cfg.p_stall,
                            hang_cycles=3 * self.timeout, ar_p_long=ar_p_long(),
                            ar_long_burst=AR_LONG_BURST)
        init = bytes(rng.getrandbits(8) for _ in range(self.region_bytes))
        self.ddr.poke(self.base, init)
        self.seqr = uvm_sequencer("seqr", self)
        self.driver = L1Driver("driver", self)
        self.driver.dut, self.driver.clock, self.driver.ddr = d, self.clock, self.ddr
        self.driver.base, self.driver.region_bytes = self.base, self.region_bytes
        self.driver.rng = cfg.child_rng("freeze")
        self.scoreboard = L1Scoreboard("scoreboard", self)
        self.scoreboard.width, self.scoreboard.depth = self.width, self.depth
        self.scoreboard.tags = L1TagModel(self.sets, self.ways, entry_bytes(self.width))
        self._init = init

    def connect_phase(self) -> None:
        self.driver.seq_item_port.connect(self.seqr.seq_item_export)
        self.driver.ap.connect(self.scoreboard.analysis_export)
        self.scoreboard.load(self._init)

    def counters(self) -> dict[str, int]:
        return {n: int(getattr(self.dut, f"cnt_{n}_o").value)
                for n in ("hit", "miss", "wb", "rd_beat", "wr_beat", "stall", "pf", "pf_useful")}

    def check_counters(self) -> dict[str, int]:
        """Every miss reads one beat and every write-back writes one: the counters agree
        with the DDR model's own count of the traffic it saw."""
        c, sb = self.counters(), self.scoreboard
        sb.compare("DDR read beats vs the model's reads", self.ddr.reads, c["rd_beat"])
        sb.compare("DDR write beats vs the model's writes", self.ddr.writes, c["wr_beat"])
        sb.compare("write-backs vs write beats", c["wb"], c["wr_beat"])
        return c
