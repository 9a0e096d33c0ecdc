# SPDX-License-Identifier: Apache-2.0
"""read_sig_random: radix_read_sig against models.radix_signature, every cycle.

Random clears, adds and broadcasts on every context, each at most once per cycle and all
three often in the same cycle (the ordering contract's corner cases), keys from a small
pool so broadcasts find keys that were added, and resets mid-run. Two checks per
broadcast: hit_o equals the model's Bloom prediction bit for bit, and, independent of
the hash the model mirrors, every context whose exact key set holds the key hits (no
false negative). False positives are counted and reported.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

import pyuvm
from cocotb.triggers import FallingEdge
from cocotb_coverage.coverage import CoverPoint
from pyuvm import uvm_env

from models.radix_signature import KIND_CHILD, KIND_EDGE, KIND_PARENT, ReadSignature, key_of
from uvm_env.common.base_test import BaseTest
from uvm_env.common.scoreboard_base import ScoreboardBase

PREFIX = "radix.read_sig"
OUTCOMES = ("true_hit", "false_hit", "miss", "not_asked")
ORDERS = ("bc_sees_add_same_cycle", "bc_sees_clear_same_cycle", "clear_then_add_same_cycle",
          "reset_mid_run", "none")


@CoverPoint(f"{PREFIX}.outcome", xf=lambda o: o, bins=list(OUTCOMES))
def _cover_outcome(outcome: str) -> None:
    """One context's answer to one broadcast."""


@CoverPoint(f"{PREFIX}.order", xf=lambda o: o, bins=list(ORDERS))
def _cover_order(order: str) -> None:
    """Which ordering rule a cycle's requests exercised."""


@dataclass
class _Expect:
    cycle: int
    key: int
    mask: int
    hits: int       # the model's Bloom answer
    holds: int      # contexts whose exact set holds the key


class _Env(uvm_env):
    def build_phase(self) -> None:
        self.scoreboard = ScoreboardBase("scoreboard", self)


@pyuvm.test()
class ReadSigRandomTest(BaseTest):
    coverage_prefix = PREFIX
    require_full_coverage = True

    def make_env(self) -> _Env:
        return _Env("env", self)

    async def apply_reset(self) -> None:
        # Idle requests before reset ends: an X request valid would reach the stage.
        for port in ("clr_i", "add_i", "bc_i"):
            getattr(self.dut, port).value = 0
        await super().apply_reset()

    async def body(self) -> None:
        dut, sb, rng = self.dut, self.env.scoreboard, self.cfg.child_rng("sig")
        ctx = int(dut.Ctx.value)
        geo = dict(sig_bits=int(dut.SigBits.value), num_hash=int(dut.NumHash.value),
                   key_w=int(dut.KeyW.value))
        sigs = [ReadSignature(**geo) for _ in range(ctx)]
        pool = [key_of(rng.choice((KIND_CHILD, KIND_EDGE, KIND_PARENT)),
                       rng.randrange(1 << 20)) for _ in range(48)]
        pending: deque[_Expect] = deque()
        # The model's signatures after each cycle's requests; the DUT shows cycle t's
        # during cycle t + 2. A white-box check: it pins a wrong hash at its first add,
        # where hit_o alone shows one only through a differing false hit.
        hist: dict[int, tuple[int, ...]] = {}
        asked = false_hits = resets = 0
        for cycle in range(self.cfg.n_items):
            await FallingEdge(self.clock)
            # Outputs of this cycle: the broadcast issued two cycles ago, if any.
            exp = pending.popleft() if pending and pending[0].cycle == cycle - 2 else None
            sb.compare(f"cycle {cycle} hit_valid_o", int(exp is not None),
                       int(dut.hit_valid_o.value))
            got = int(dut.hit_o.value)
            if exp is not None:
                asked += 1
                sb.compare(f"cycle {cycle} hit_o for key {exp.key:#010x}", exp.hits, got)
                sb.check(f"cycle {cycle} no false negative for key {exp.key:#010x}",
                         exp.holds & ~got == 0, f"holds {exp.holds:#x} hit {got:#x}")
                for c in range(ctx):
                    bit = 1 << c
                    _cover_outcome("not_asked" if not exp.mask & bit else
                                   "true_hit" if exp.holds & bit else
                                   "false_hit" if got & bit else "miss")
                    false_hits += bool(exp.mask & got & ~exp.holds & bit)
            else:
                sb.compare(f"cycle {cycle} hit_o without a broadcast", 0, got)
            if (want := hist.pop(cycle - 2, None)) is not None:
                sb.compare(f"cycle {cycle} signatures", want,
                           tuple(int(dut.sig_q[c].value) for c in range(ctx)))

            if rng.random() < 0.003:
                # Reset: every signature empties; this and the last cycle's requests
                # never reach a signature or an answer.
                resets += 1
                _cover_order("reset_mid_run")
                dut.rst_ni.value = 0
                for port in ("clr_i", "add_i", "bc_i"):
                    getattr(dut, port).value = 0
                for s in sigs:
                    s.clear()
                while pending and pending[-1].cycle >= cycle - 1:
                    pending.pop()
                hist[cycle - 1] = hist[cycle] = (0,) * ctx
                continue
            dut.rst_ni.value = 1

            clr, add, bc = (rng.random() < 0.04, rng.random() < 0.7, rng.random() < 0.5)
            clr_ctx, add_ctx = rng.randrange(ctx), rng.randrange(ctx)
            add_key = rng.choice(pool) if rng.random() < 0.9 else rng.getrandbits(32)
            if bc and add and rng.random() < 0.3:
                bc_key = add_key                 # the same-cycle bypass
            else:
                bc_key = rng.choice(pool) if rng.random() < 0.85 else rng.getrandbits(32)
            mask = rng.getrandbits(ctx) if rng.random() < 0.5 else (1 << ctx) - 1
            dut.clr_i.value, dut.clr_ctx_i.value = int(clr), clr_ctx
            dut.add_i.value, dut.add_ctx_i.value, dut.add_key_i.value = int(add), add_ctx, add_key
            dut.bc_i.value, dut.bc_key_i.value, dut.bc_mask_i.value = int(bc), bc_key, mask

            # The contract: clear, then add, then the broadcast sees both.
            if clr:
                sigs[clr_ctx].clear()
            if add:
                sigs[add_ctx].add(add_key)
            order = "none"
            if clr and add and clr_ctx == add_ctx:
                order = "clear_then_add_same_cycle"
            if bc:
                hits = holds = 0
                for c, s in enumerate(sigs):
                    if mask >> c & 1:
                        hits |= s.may_hold(bc_key) << c
                        holds |= s.holds(bc_key) << c
                pending.append(_Expect(cycle, bc_key, mask, hits, holds))
                if add and bc_key == add_key and mask >> add_ctx & 1:
                    order = "bc_sees_add_same_cycle"
                elif clr and mask >> clr_ctx & 1:
                    order = "bc_sees_clear_same_cycle"
            _cover_order(order)
            hist[cycle] = tuple(s.bits for s in sigs)
        sb.check("broadcasts answered", asked > self.cfg.n_items // 4, f"{asked} answered")
        self.figures.update(broadcasts=asked, false_hits=false_hits, resets=resets)
        self.logger.info(f"{asked} broadcasts, {false_hits} false hits (Bloom), "
                         f"{resets} resets")
