# SPDX-License-Identifier: Apache-2.0
"""fsm_bench: cycle counts of the token-FSM core, for `make bench` and docs/fsm-protocol.md.

Every result and mask is still checked by the scoreboard; in addition a probe
records the clock cycle of every handshake on the command, result and mask
streams, and the test writes bench.json (cycles only; microseconds at 300 MHz
are derived by the reader and assume timing closure, which nothing here shows).
No idles or back-pressure: this measures the core, not the testbench. The
numbers are held to the documented cycle model (uvm_env/fsm/cycle_model.py);
cycle counts are exact, so these are structural checks, not timing tests.

Measured, on the summary/sentiment regex over GPT-2 (V = 50,257, MaskW = 512), or over
tekken (V = 131,072) with BENCH_VOCAB=tekken (registry entry fsm_bench_tekken):
  * ADVANCE latency (command accepted -> result valid) on an idle core;
  * ADVANCE throughput over distinct slots and on one slot;
  * VALIDATE cycles per token;
  * MASK latency to the first beat, cycles per mask, back-to-back masks;
  * MASK_BATCH of 1 and of 8 slots: cycles from the command to the last beat;
  * table load: cycles per image beat.
"""

from __future__ import annotations

import json
import os
import statistics

import cocotb
import pyuvm
from cocotb.triggers import ClockCycles

from uvm_env.common.config import env_int
from uvm_env.fsm import cycle_model
from uvm_env.fsm.fsm_base_test import FsmBaseTest
from uvm_env.fsm.grammars import SUMMARY_REGEX, gpt2_grammar, tekken_grammar
from uvm_env.fsm.handshake_probe import HandshakeProbe

CLOCK_MHZ = 300


@pyuvm.test()
class FsmBenchTest(FsmBaseTest):
    def make_config(self):  # noqa: ANN201 - same type as the base
        cfg = super().make_config()
        cfg.p_idle = cfg.p_stall = 0.0
        cfg.timeout_us *= 4
        return cfg

    def extra_timeout_us(self) -> int:
        return 60_000

    async def settle(self) -> None:
        await self.drain()
        await ClockCycles(self.clock, 4)

    async def scenario(self) -> None:
        env = self.env
        vocab = os.environ.get("BENCH_VOCAB", "gpt2")
        if vocab not in ("gpt2", "tekken"):
            raise ValueError(f"BENCH_VOCAB must be gpt2 or tekken, not {vocab!r}")
        g = (tekken_grammar("brief_tekken", SUMMARY_REGEX) if vocab == "tekken"
             else gpt2_grammar("brief_gpt2", SUMMARY_REGEX))
        self.logger.info(g.summary())
        probe = HandshakeProbe(self.dut, self.clock)
        cocotb.start_soon(probe.run())
        seq = self.direct("bench")
        res: dict = {"clock_mhz": CLOCK_MHZ, "grammar": g.summary(),
                     "params": env.params.__dict__}

        # Table load.
        m0 = probe.mark()
        await self.load({0: g})
        beats = probe.load[m0[3]:]
        res["load"] = {"bytes": len(g.image), "beats": len(beats),
                       "cycles": beats[-1] - beats[0] + 1,
                       "cycles_per_beat": round((beats[-1] - beats[0] + 1) / len(beats), 3)}

        n_slots = env.params.n_slots
        for slot in range(n_slots):
            await seq.bind(slot, 0)
        await self.settle()

        # ADVANCE latency: one command on an idle core.
        lat = []
        for slot in range(8):
            m = probe.mark()
            await seq.advance(slot, seq.pick_allowed(slot, p_eos=0.0))
            await self.settle()
            lat.append(probe.rsp[m[1]] - probe.cmd[m[0]])
        res["advance_latency_cycles"] = statistics.mode(lat)

        # ADVANCE throughput across slots: one command per slot, round robin.
        n = env_int("N_BENCH", 512)
        m = probe.mark()
        for i in range(n):
            slot = i % n_slots
            tok = seq.pick_allowed(slot, p_eos=0.0)
            if tok is None:
                await seq.bind(slot, 0)
                tok = seq.pick_allowed(slot, p_eos=0.0)
            await seq.advance(slot, tok)
        await self.settle()
        c, r = probe.cmd[m[0]:], probe.rsp[m[1]:]
        res["advance_distinct_slots"] = {
            "commands": len(c), "accept_cycles": c[-1] - c[0] + 1,
            "commands_per_cycle": round(len(c) / (c[-1] - c[0] + 1), 3),
            "results_per_cycle": round(len(r) / (r[-1] - r[0] + 1), 3)}

        # ADVANCE back to back on one slot (forwarding: one bubble per command).
        for slot in (0, 1):
            await seq.bind(slot, 0)
        await self.settle()
        m = probe.mark()
        k = 0
        for _ in range(64):
            tok = seq.pick_allowed(0, p_eos=0.0)
            if tok is None:
                break
            await seq.advance(0, tok)
            k += 1
        await self.settle()
        c = probe.cmd[m[0]:]
        res["advance_same_slot"] = {"commands": k,
                                    "cycles_per_command": round((c[-1] - c[0]) / (k - 1), 3)}

        # VALIDATE: one packet of T tokens.
        await seq.bind(2, 0)
        toks = seq.walk(2, 120)
        await self.settle()
        m = probe.mark()
        await seq.validate(2, toks)
        await self.settle()
        c = probe.cmd[m[0]:]
        res["validate"] = {"tokens": len(toks),
                           "cycles_per_token": round((c[-1] - c[0]) / len(toks), 3),
                           "latency_after_last_token": probe.rsp[m[1]] - c[-1]}

        # MASK: latency to the first beat, then masks back to back on distinct slots.
        lat, per = [], []
        for slot in range(3, 11):
            m = probe.mark()
            await seq.mask(slot)
            await self.settle()
            beats = probe.mask[m[2]:]
            lat.append(beats[0][0] - probe.cmd[m[0]])
            per.append(beats[-1][0] - probe.cmd[m[0]] + 1)
        m = probe.mark()
        nm = 16
        for slot in range(11, 11 + nm):
            await seq.mask(slot)
        await self.settle()
        beats = probe.mask[m[2]:]
        span = beats[-1][0] - beats[0][0] + 1
        mask_cycles = statistics.mode(per)
        res["mask"] = {"vocab": g.vocab_size, "mask_w": env.params.mask_w,
                       "beats_per_mask": len(beats) // nm,
                       "latency_to_first_beat": statistics.mode(lat),
                       "cycles_per_mask_idle_core": mask_cycles,
                       "us_per_mask_at_300mhz": round(mask_cycles / CLOCK_MHZ, 3),
                       "back_to_back_beats_per_cycle": round(len(beats) / span, 3),
                       "back_to_back_cycles_per_mask": round(span / nm, 2)}

        # MASK_BATCH: one command for 1 and for 8 slots, on an idle core.
        res["mask_batch"] = {}
        for k in (1, 8):
            for slot in range(k):
                await seq.bind(slot, 0)
            await self.settle()
            m = probe.mark()
            await seq.mask_batch(list(range(k)))
            await self.settle()
            beats = probe.mask[m[2]:]
            cyc = beats[-1][0] - probe.cmd[m[0]] + 1
            res["mask_batch"][str(k)] = {
                "slots": k, "beats": len(beats), "cycles": cyc,
                "cycles_per_slot": round(cyc / k, 2),
                "beat_span_cycles": beats[-1][0] - beats[0][0] + 1}

        bounds = cycle_model.check(res)
        res["bounds"] = bounds.as_dict()
        path = self.cfg.out_dir / "bench.json"
        path.write_text(json.dumps(res, indent=1))
        probe.running = False
        self.logger.info("bench:\n" + json.dumps(res, indent=1))
        self.logger.info(f"wrote {path}")
        for c in bounds.checks:
            self.logger.info(f"cycle bound {c}")
        bounds.verdict()
