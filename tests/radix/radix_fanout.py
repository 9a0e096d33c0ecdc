# SPDX-License-Identifier: Apache-2.0
"""radix_fanout: one node with CHILDREN children; the first, last and an absent child are
looked up, and finding a child costs the same walk cycles as with a single child."""

from __future__ import annotations

import json

import pyuvm

from uvm_env.common.config import env_int
from uvm_env.radix.radix_base_test import RadixBaseTest
from uvm_env.radix.radix_directed_seqs import FanoutSeq


@pyuvm.test()
class RadixFanoutTest(RadixBaseTest):
    def make_config(self):  # noqa: ANN201 - same type as the base
        cfg = super().make_config()
        cfg.timeout_us += 2 * env_int("CHILDREN", 10_000)
        return cfg

    async def body(self) -> None:
        seq = FanoutSeq("fanout", self.env.scoreboard.pred, self.cfg.child_rng("seq"),
                        children=env_int("CHILDREN", 10_000))
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
            {"children": seq.children, "walk_cycles": cycles,
             "walk_nodes": {"one child": 2, "first child": 2, "last child": 2,
                            "absent child": 1}}, indent=1))
        sb = self.env.scoreboard
        sb.compare("walk cycles: one child vs first/last of many",
                   {"first child": cycles["one child"], "last child": cycles["one child"]},
                   {"first child": cycles["first child"], "last child": cycles["last child"]})
        sb.check("absent child found absent", seq.lookups["absent child"].rsp.a == 4 *
                 sb.params.page_size, f"matched {seq.lookups['absent child'].rsp.a}")
        await self.check_csrs()
