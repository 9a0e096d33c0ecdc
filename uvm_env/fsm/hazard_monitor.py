# SPDX-License-Identifier: Apache-2.0
"""HazardMonitor: how long a command waits in fsm_core's input register for an op in
flight on its slot, and why.

Two ops make a later command on their slot wait (docs/fsm-protocol.md, hazards): a
BIND (every slot op reads the slot's grammar at S0), and, for a MASK only, any op that
writes the slot's state (the MASK reads it at S0, the writer writes it back at S5).
The ops in S1..S5 shift every cycle and are never held, so a wait ends within NST = 5
cycles of its start: a longer one is a core that lost an op or never clears the
hazard flop, and fails the test. The scoreboard checks the answers that follow;
fsm_core's own assertion checks the hazard flop against the stages every cycle.

Coverage `fsm.hazard.cause_x_wait`: cause (bind, writer) x wait (1..5 cycles); a wait
of 5 is a command right behind the op, 1 a command four cycles later. It waits on the
hazard flop's rising edge and polls the clock only while the flop is high.
"""

from __future__ import annotations

from collections import Counter

from cocotb.triggers import ReadOnly, RisingEdge
from cocotb_coverage.coverage import CoverCross, CoverPoint
from pyuvm import uvm_component

from uvm_env.common.scoreboard_base import ScoreboardBase

NST = 5                     # fsm_core's last stage: S1..S5 hold the ops in flight
WAITS = list(range(1, NST + 1))
CAUSES = ["bind", "writer"]
SLOT_FIELD_BITS = 16        # fsm_core's p_slot_q: the command's slot field per stage


class HazardMonitor(uvm_component):
    """Samples fsm_top's u_core; `scoreboard` fails the test on a wait past NST."""

    dut: object
    scoreboard: ScoreboardBase

    def build_phase(self) -> None:
        self.waits: list[tuple[str, int]] = []

        @CoverPoint("fsm.hazard.cause", xf=lambda c, n: c, bins=CAUSES)
        @CoverPoint("fsm.hazard.wait", xf=lambda c, n: n, bins=WAITS)
        @CoverCross("fsm.hazard.cause_x_wait", items=["fsm.hazard.cause", "fsm.hazard.wait"])
        def sample(cause: str, cycles: int) -> None:
            pass

        self._sample = sample

    def cause(self, core: object) -> str:
        """`bind` when a BIND on the waiting beat's slot is in S1..S5, else `writer`."""
        slot_w = len(core.s0_si)
        slot = int(core.s0_si.value)
        binds = int(core.p_hzb_q.value)          # bit k-1: stage k
        slots = int(core.p_slot_q.value)         # bits (k-1)*16 +: 16: stage k
        for k in range(NST):
            stage_slot = (slots >> (k * SLOT_FIELD_BITS)) & ((1 << slot_w) - 1)
            if binds >> k & 1 and stage_slot == slot:
                return "bind"
        return "writer"

    def report_phase(self) -> None:
        seen = Counter(self.waits)
        self.logger.info("hazard waits (cause, cycles): " + (", ".join(
            f"{c} {n}: {seen[c, n]}" for c, n in sorted(seen)) or "none"))

    async def run_phase(self) -> None:
        dut = self.dut
        core = dut.u_core
        haz, valid, clk, rst_n = core.haz_q, core.x_valid, dut.clk_i, dut.rst_ni
        while True:
            if not _high(haz):
                await RisingEdge(haz)
            await ReadOnly()
            cycles, cause = 0, ""
            # The flop may be high with the register empty (it is formed from whatever
            # is offered): only cycles with a beat in the register are a wait.
            while _high(haz) and _high(rst_n):
                if _high(valid):
                    if not cycles:
                        cause = self.cause(core)
                    cycles += 1
                await RisingEdge(clk)
                await ReadOnly()
            if cycles and _high(rst_n):         # not a wait cut short by a reset
                self.waits.append((cause, cycles))
                if self.scoreboard.check(
                        "hazard wait within the pipeline depth", cycles <= NST,
                        f"a command waited {cycles} cycles on a {cause} hazard (the ops "
                        f"in flight leave within {NST})"):
                    self._sample(cause, cycles)
            await RisingEdge(clk)               # out of the read-only phase


def _high(sig: object) -> bool:
    value = sig.value
    return value.is_resolvable and bool(int(value))
