# SPDX-License-Identifier: Apache-2.0
"""radix_stall_inject: the constrained-random mix on a build with StallInject = 1, so the
walk stage's units (line streamer, walker) are held off the shared ports in
pseudo-random cycles, as a busy commit stage will hold them once walks overlap. Every
answer must still equal the serial model's; the test also fails if some hold path was
never taken (the core's counters of holds that met a request)."""

from __future__ import annotations

import pyuvm

from uvm_env.radix.random_test import RadixRandomBase

# The units whose hold paths StallInject exercises, by the core's counter of holds.
HOLD_COUNTERS = {"line streamer": "inj_st_cnt_q", "walker node read": "inj_nr_cnt_q",
                 "walker lookup": "inj_pf_cnt_q"}


@pyuvm.test()
class RadixStallInjectTest(RadixRandomBase):
    # Deep paths, so the walker runs edges ahead of the streamer and a held node read
    # meets the walker's next lookup: a two-token alphabet splits edges everywhere, and
    # few EVICTs and RESETs let the tree grow.
    mix = {"match": 40, "insert": 40, "lock": 5, "unlock": 5, "evict": 5, "sizes": 2,
           "reset": 0.1}
    alphabet = 2
    max_tokens = 64
    namespaces = 2

    async def body(self) -> None:
        if int(self.dut.StallInject.value) != 1:
            raise AssertionError("radix_stall_inject needs a build with StallInject = 1")
        await super().body()
        core = self.dut.u_core
        holds = {unit: int(getattr(core, sig).value) for unit, sig in HOLD_COUNTERS.items()}
        self.logger.info("injected holds that met a request: %s", holds)
        idle = [unit for unit, n in holds.items() if n == 0]
        if idle:
            raise AssertionError(f"no injected hold ever met a request of: {', '.join(idle)}")
