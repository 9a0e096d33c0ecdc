# SPDX-License-Identifier: Apache-2.0
"""radix_fanout: one node with CHILDREN children; the first, last and an absent child are
looked up, and finding a child costs the same walk cycles as with a single child. Chains
CHAIN nodes deep below the single child and below the last of the many give the walk's
cost per node visited (make bench reports it)."""

from __future__ import annotations

import json

import pyuvm

from uvm_env.common.config import env_int
from uvm_env.radix.radix_base_test import RadixBaseTest
from uvm_env.radix.radix_directed_seqs import FanoutSeq

WALK_PER_NODE_BOUND = 8   # cycles per node visited at RamLat = 2 (docs/radix-protocol.md)


@pyuvm.test()
class RadixFanoutTest(RadixBaseTest):
    def make_config(self):  # noqa: ANN201 - same type as the base
        cfg = super().make_config()
        cfg.timeout_us += 2 * env_int("CHILDREN", 10_000)
        return cfg

    async def body(self) -> None:
        seq = FanoutSeq("fanout", self.env.scoreboard.pred, self.cfg.child_rng("seq"),
                        children=env_int("CHILDREN", 10_000), chain=env_int("CHAIN", 40))
        # WALK_CYCLES is read right after each timed lookup's response.
        walk: dict[str, int] = {}
        orig = seq.do

        async def do_and_probe(**kw: object) -> object:
            cmd = await orig(**kw)
            if kw.get("wait"):
                walk[len(walk)] = await self.env.read_csr("WALK_CYCLES")
            return cmd

        seq.do = do_and_probe
        await seq.start(self.env.seqr)
        await self.env.drain()
        names = list(seq.lookups)
        cycles = {names[i]: walk[i] for i in range(len(names))}
        self.logger.info(f"walk cycles by lookup: {cycles}")
        (self.cfg.out_dir / "bench.json").write_text(json.dumps(
            {"children": seq.children, "chain": seq.chain, "shallow": seq.SHALLOW,
             "walk_cycles": cycles, "walk_nodes": seq.nodes}, indent=1))
        sb = self.env.scoreboard
        sb.compare("walk cycles: one child vs first/last of many",
                   {"first child": cycles["one child"], "last child": cycles["one child"]},
                   {"first child": cycles["first child"], "last child": cycles["last child"]})
        if seq.chain > seq.SHALLOW:
            # A chain below a node with many children walks like one below a single child.
            for depth in (seq.SHALLOW, seq.chain):
                sb.compare(f"walk cycles: chain {depth} below the last of many vs one child",
                           cycles[f"chain {depth} below one child"],
                           cycles[f"chain {depth} below last child"])
            # The documented cycle model: nodes cost one walker loop each, 2 * RamLat + 4
            # cycles (this build has RamLat = 2); cycles are exact, so this is no timing test.
            slope = ((cycles[f"chain {seq.chain} below one child"]
                      - cycles[f"chain {seq.SHALLOW} below one child"])
                     / (seq.chain - seq.SHALLOW))
            sb.check("walk cost per node visited <= 8 cycles", slope <= WALK_PER_NODE_BOUND,
                     f"{slope:.2f} cycles per node")
        sb.check("absent child found absent", seq.lookups["absent child"].rsp.a == 4 *
                 sb.params.page_size, f"matched {seq.lookups['absent child'].rsp.a}")
        await self.check_csrs()
