# SPDX-License-Identifier: Apache-2.0
"""fsm_same_slot: ADVANCE back to back on one slot at full rate (same-slot forwarding).

Phase 1, no idles and no back-pressure: runs of 8..48 commands on one slot, sent
back to back. A run is mostly ADVANCEs of allowed tokens; now and then an
illegal token (the slot becomes violated and the ADVANCEs behind it answer
VIOLATED), a RESET_SLOT, a QUERY or a VALIDATE packet, all on the same slot,
so every op behind every other op takes its state from the pipeline. A
HandshakeProbe counts, in clock cycles, the command beats the core takes: every
run must go in at one beat per cycle with no refused cycle. The measured rate
is logged and asserted. A MASK behind each run (outside the measured window)
checks the state the run left.

Phase 2, result credits: with the result sink stopped, a same-slot run of
3 x RspDepth commands is offered at once. The core takes a beat only while it
owes fewer than RspDepth results, and a command owes its result from its last
beat on (a VALIDATE packet's token beats before the last owe none), so it must
take exactly the beats up to the RspDepth-th result-owing one, and its input
register one more, and then refuse: fewer means a credit leaked, more overruns
the result buffer (which fsm_out_fifo also asserts). The sink then runs and
every result is checked.

Phase 3, random idles and back-pressure: random traffic on two slots with
long same-slot bursts and some malformed commands.

The scoreboard checks every result (verdict, state, position, flags) and mask.
"""

from __future__ import annotations

import pyuvm
from cocotb.triggers import ClockCycles

from uvm_env.common.config import env_int
from uvm_env.common.pause import set_pattern
from uvm_env.fsm.cycle_model import IN_REG_BEATS
from uvm_env.fsm.fsm_base_test import FsmBaseTest
from uvm_env.fsm.fsm_item import FsmCmd
from uvm_env.fsm.fsm_seqs import FsmBaseSeq, RandomWalkSeq
from uvm_env.fsm.grammars import random_grammar


async def same_slot_run(seq: FsmBaseSeq, slot: int, length: int) -> int:
    """``length`` commands on ``slot``, back to back; returns the command beats sent."""
    rng, beats = seq.rng, 0
    while beats < length:
        s = seq.shadow.bound(slot)
        r = rng.random()
        if s.violated or not seq.allowed(slot):
            if r < 0.3:       # keep knocking: VIOLATED results, still at full rate
                await seq.advance(slot, 0)
            else:
                await seq.reset(slot)
        elif r < 0.06:
            bad = seq.illegal(slot)
            await (seq.advance(slot, bad) if bad is not None else seq.query(slot))
        elif r < 0.10:
            await seq.query(slot)
        elif r < 0.16:
            toks = seq.walk(slot, rng.randint(0, 6))
            await seq.validate(slot, toks)
            beats += len(toks)
        else:
            await seq.advance(slot, seq.pick_allowed(slot, p_eos=0.05))
        beats += 1
    return beats


def credit_limit(cmds: list[FsmCmd], depth: int, held: int = IN_REG_BEATS) -> int:
    """Command beats a core with ``depth`` result credits takes from ``cmds`` while no
    result leaves: each beat S0 takes needs a free credit, and a command owes its result
    from its last beat on (only single-result commands: no MASK_BATCH); the input
    register then holds ``held`` more."""
    total = sum(len(cmd.beats()) for cmd in cmds)
    taken = owed = 0
    for cmd in cmds:
        n = len(cmd.beats())
        for i in range(n):
            if owed >= depth:
                return min(total, taken + held)
            taken += 1
            owed += i == n - 1
    return taken


@pyuvm.test()
class FsmSameSlotTest(FsmBaseTest):
    async def scenario(self) -> None:
        env = self.env
        rng = self.rng("grammars")
        probe = await self.load_and_probe({0: random_grammar(rng), 1: random_grammar(rng)})
        seq = self.direct("same")
        slots = [0, 5, env.params.n_slots - 1]
        for i, slot in enumerate(slots):
            await seq.bind(slot, i % 2)
        await self.drain()

        env.set_traffic(0.0, 0.0, "full")
        total_beats = total_cycles = refused = 0
        worst = 1.0
        for r in range(env_int("N_RUNS", 40)):
            slot = seq.rng.choice(slots)
            mark = probe.mark()
            beats = await same_slot_run(seq, slot, seq.rng.randint(8, 48))
            await seq.mask(slot)
            await self.drain()
            w = probe.cmd_window(mark, beats)
            assert w.beats == beats, f"run {r}: {w.beats} of {beats} command beats seen"
            total_beats += w.beats
            total_cycles += w.span
            refused += w.refused
            worst = min(worst, w.per_cycle)
        rate = total_beats / total_cycles
        self.logger.info(f"same-slot issue rate: {total_beats} command beats in {total_cycles} "
                         f"cycles = {rate:.3f} per cycle (worst run {worst:.3f}); "
                         f"{refused} cycles refused by the core")
        assert refused == 0 and total_beats == total_cycles, \
            f"same-slot runs were not taken at 1 per cycle: {rate:.3f}, {refused} refused"

        depth = env.params.rsp_depth
        for r in range(4):
            env.rsp_sink.pause = True
            mark = probe.mark()
            await same_slot_run(seq, slots[r % len(slots)], 3 * depth)
            offered = list(env.driver.inflight)
            await ClockCycles(self.clock, 8 * depth)
            taken, want = len(probe.cmd) - mark[0], credit_limit(offered, depth)
            set_pattern(env.rsp_sink, None)
            await self.drain()
            self.logger.info(f"credits, run {r}: {taken} of {sum(len(c.beats()) for c in offered)} "
                             f"command beats taken with the result sink stopped "
                             f"(RspDepth {depth}, expected {want})")
            assert taken == want, (f"credit run {r}: the core took {taken} command beats "
                                   f"with the result sink stopped, {want} expected")

        env.set_traffic(self.cfg.p_idle, self.cfg.p_stall, "rand")
        await RandomWalkSeq("walk", env, self.rng("walk"), n_ops=env_int("N_OPS", 600),
                            slots=slots[:2], burst=0.9, p_error=0.05).start(env.seqr)
