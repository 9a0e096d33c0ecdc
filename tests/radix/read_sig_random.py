# SPDX-License-Identifier: Apache-2.0
"""read_sig_random: radix_read_sig against models.radix_signature, every cycle.

Random clears, adds and broadcasts on every context, each at most once per cycle and all
three often in the same cycle (the ordering contract's corner cases), keys from a small
pool so broadcasts find keys that were added, and resets mid-run with requests on the
inputs. Three checks: every signature equals the model's (white box), hit_o equals the
model's Bloom prediction bit for bit, and, independent of the hash the model mirrors,
every masked context whose exact key set holds the key hits (no false negative). The
ordering bins are sampled only where the rule changed an answer. Two idle cycles at the
end drain the last answers. Runs at two parameter sets (read_sig_random_small).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from random import Random

import pyuvm
from cocotb.triggers import FallingEdge
from cocotb_coverage.coverage import CoverPoint
from pyuvm import uvm_env

from models.radix_signature import (
    KIND_CHILD,
    KIND_EDGE,
    KIND_PARENT,
    ReadSignature,
    key_mask,
    key_of,
)
from uvm_env.common.base_test import BaseTest
from uvm_env.common.scoreboard_base import ScoreboardBase

PREFIX = "radix.read_sig"


def _cover_points(ctx: int, num_hash: int) -> tuple[Callable[[str], None],
                                                    Callable[[str], None]]:
    """Cover points sized to the DUT's parameters: each context's outcome, and each
    ordering rule where it changes an answer (a bin hit where it made no difference
    would cover nothing)."""
    outcomes = ("true_hit", "false_hit", "miss", "not_asked", "not_asked_but_holds")
    orders = ["bc_sees_add_same_cycle", "bc_sees_clear_same_cycle",
              "clear_then_add_same_cycle", "reset_mid_run"]
    if num_hash > 1:
        orders.append("bc_bits_from_old_and_add")   # some bits old, the rest this add's

    @CoverPoint(f"{PREFIX}.outcome", xf=lambda o: o,
                bins=[f"{c}:{o}" for c in range(ctx) for o in outcomes])
    def outcome(label: str) -> None:
        """One context's answer to one broadcast, as 'context:outcome'."""

    @CoverPoint(f"{PREFIX}.order", xf=lambda o: o, bins=orders)
    def order(label: str) -> None:
        """An ordering rule that decided an answer."""

    return outcome, order


@dataclass
class _Expect:
    cycle: int
    key: int
    mask: int
    hits: int       # the model's Bloom answer
    holds: int      # contexts whose exact set holds the key (in the mask or not)


@dataclass
class _Req:
    clr: bool
    clr_ctx: int
    add: bool
    add_ctx: int
    add_key: int
    bc: bool
    bc_key: int
    mask: int


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

    @staticmethod
    def _random_req(rng: Random, ctx: int, pool: list[int]) -> _Req:
        clr, add, bc = rng.random() < 0.04, rng.random() < 0.7, rng.random() < 0.5
        add_key = rng.choice(pool) if rng.random() < 0.9 else rng.getrandbits(32)
        if bc and add and rng.random() < 0.3:
            bc_key = add_key                 # the same-cycle bypass
        else:
            bc_key = rng.choice(pool) if rng.random() < 0.85 else rng.getrandbits(32)
        mask = rng.getrandbits(ctx) if rng.random() < 0.5 else (1 << ctx) - 1
        return _Req(clr, rng.randrange(ctx), add, rng.randrange(ctx), add_key, bc, bc_key,
                    mask)

    def _drive(self, r: _Req) -> None:
        # Keys wider than KeyW lose their top bits on the port, as the model's do.
        dut, kmask = self.dut, (1 << len(self.dut.add_key_i)) - 1
        dut.clr_i.value, dut.clr_ctx_i.value = int(r.clr), r.clr_ctx
        dut.add_i.value, dut.add_ctx_i.value = int(r.add), r.add_ctx
        dut.add_key_i.value = r.add_key & kmask
        dut.bc_i.value, dut.bc_mask_i.value = int(r.bc), r.mask
        dut.bc_key_i.value = r.bc_key & kmask

    async def body(self) -> None:
        dut, sb, rng = self.dut, self.env.scoreboard, self.cfg.child_rng("sig")
        ctx = int(dut.Ctx.value)
        geo = dict(sig_bits=int(dut.SigBits.value), num_hash=int(dut.NumHash.value),
                   key_w=int(dut.KeyW.value))
        cover_outcome, cover_order = _cover_points(ctx, geo["num_hash"])
        sigs = [ReadSignature(**geo) for _ in range(ctx)]
        pool = [key_of(rng.choice((KIND_CHILD, KIND_EDGE, KIND_PARENT)),
                       rng.randrange(1 << 20)) for _ in range(48)]
        idle = _Req(False, 0, False, 0, 0, False, 0, 0)
        pending: deque[_Expect] = deque()
        # The model's signatures after each cycle's requests; the DUT shows cycle t's
        # during cycle t + 2. A white-box check: it pins a wrong hash at its first add,
        # where hit_o alone shows one only through a differing false hit.
        hist: dict[int, tuple[int, ...]] = {}
        asked = false_hits = resets = 0
        n = self.cfg.n_items
        for cycle in range(n + 2):          # two idle cycles drain the last answers
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
                         exp.mask & exp.holds & ~got == 0, f"holds {exp.holds:#x} hit {got:#x}")
                for c in range(ctx):
                    bit = 1 << c
                    cover_outcome(f"{c}:" + (
                        ("not_asked_but_holds" if exp.holds & bit else "not_asked")
                        if not exp.mask & bit else
                        "true_hit" if exp.holds & bit else
                        "false_hit" if got & bit else "miss"))
                    false_hits += bool(exp.mask & got & ~exp.holds & bit)
            else:
                sb.compare(f"cycle {cycle} hit_o without a broadcast", 0, got)
            if (want := hist.pop(cycle - 2, None)) is not None:
                sb.compare(f"cycle {cycle} signatures", want,
                           tuple(int(dut.sig_q[c].value) for c in range(ctx)))

            req = self._random_req(rng, ctx, pool) if cycle < n else idle
            self._drive(req)
            if cycle < n and rng.random() < 0.003:
                # Reset, with requests on the inputs: every signature empties, and this
                # and the last cycle's requests reach neither a signature nor an answer.
                resets += 1
                cover_order("reset_mid_run")
                dut.rst_ni.value = 0
                for s in sigs:
                    s.clear()
                while pending and pending[-1].cycle >= cycle - 1:
                    pending.pop()
                hist[cycle - 1] = hist[cycle] = (0,) * ctx
                continue
            dut.rst_ni.value = 1
            self._apply(req, sigs, cycle, pending, cover_order)
            hist[cycle] = tuple(s.bits for s in sigs)
        sb.check("broadcasts answered", asked > n // 4, f"{asked} answered")
        self.figures.update(broadcasts=asked, false_hits=false_hits, resets=resets)
        self.logger.info(f"{asked} broadcasts, {false_hits} false hits (Bloom), "
                         f"{resets} resets")

    @staticmethod
    def _apply(r: _Req, sigs: list[ReadSignature], cycle: int, pending: deque[_Expect],
               cover_order: Callable[[str], None]) -> None:
        """The contract: clear, then add, then the broadcast sees both. Ordering bins
        are sampled where the rule changed an answer."""
        s0 = sigs[0]
        need = key_mask(r.bc_key, s0.sig_bits, s0.num_hash, s0.key_w)
        before = [s.bits for s in sigs]
        if r.clr:
            sigs[r.clr_ctx].clear()
        cleared = [s.bits for s in sigs]
        if r.add:
            sigs[r.add_ctx].add(r.add_key)
        if r.clr and r.add and r.clr_ctx == r.add_ctx:
            cover_order("clear_then_add_same_cycle")
        if not r.bc:
            return
        hits = holds = 0
        for c, s in enumerate(sigs):
            holds |= s.holds(r.bc_key) << c
            if r.mask >> c & 1:
                hits |= s.may_hold(r.bc_key) << c
        pending.append(_Expect(cycle, r.bc_key, r.mask, hits, holds))
        if r.add and r.mask >> r.add_ctx & 1 and hits >> r.add_ctx & 1:
            old = cleared[r.add_ctx] & need
            if old != need:          # the add completed the answer
                cover_order("bc_bits_from_old_and_add" if old else "bc_sees_add_same_cycle")
        c = r.clr_ctx
        if r.clr and r.mask >> c & 1 and before[c] & need == need and not hits >> c & 1:
            cover_order("bc_sees_clear_same_cycle")
