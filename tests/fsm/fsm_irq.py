# SPDX-License-Identifier: Apache-2.0
"""fsm_irq: the violation interrupt: level, enable, W1C status, slot / position / token.

Directed steps (each checked on the pin and in the registers), then random
rounds: a walk with many illegal tokens, a drain, and the pin must equal
"pending and enabled" while the registers hold the first violation of the round.
"""

from __future__ import annotations

import pyuvm
from cocotb.triggers import ClockCycles

from uvm_env.common.config import env_int
from uvm_env.fsm.fsm_base_test import FsmBaseTest
from uvm_env.fsm.fsm_seqs import RandomWalkSeq
from uvm_env.fsm.grammars import random_grammar
from uvm_env.fsm.protocol import OP_ADVANCE


@pyuvm.test()
class FsmIrqTest(FsmBaseTest):
    coverage_prefix = "fsm.irq"
    require_full_coverage = True

    async def pin(self) -> int:
        await ClockCycles(self.clock, 2)
        return self.env.irq_mon.level

    async def expect(self, what: str, pending: int, level: int,
                     regs: tuple[int, int, int] | None = None) -> None:
        await self.drain()
        sb, env = self.env.scoreboard, self.env
        got_pending = await env.read_csr("IRQ_STATUS")
        sb.compare(f"{what}: IRQ_STATUS", pending, got_pending)
        sb.compare(f"{what}: irq_o", level, await self.pin())
        if regs is not None:
            got = (await env.read_csr("VIOL_SLOT"), await env.read_csr("VIOL_POS"),
                   await env.read_csr("VIOL_TOKEN"))
            sb.compare(f"{what}: VIOL_SLOT/POS/TOKEN", regs, got)

    async def scenario(self) -> None:
        env, cov = self.env, self.env.scoreboard.cov
        rng = self.rng("grammars")
        g = random_grammar(rng)
        self.logger.info(g.summary())
        await self.load({0: g, 1: random_grammar(rng)})
        seq = self.direct("irq")
        for slot in range(4):
            await seq.bind(slot, 0)

        async def violate(slot: int, walk: int) -> tuple[int, int, int]:
            for _ in range(walk):
                tok = seq.pick_allowed(slot, p_eos=0.0)
                if tok is None:
                    break
                await seq.advance(slot, tok)
            pos = env.shadow.bound(slot).pos
            bad = seq.illegal(slot)
            await seq.advance(slot, bad)
            return slot, pos, bad

        # Disabled: the status is set, the pin stays low.
        await env.write_csr("CTRL", 0)
        first = await violate(1, 3)
        await self.expect("violation, irq disabled", 1, 0, first)
        cov.sample_irq("masked")
        # Enabling raises the level at once.
        await env.write_csr("CTRL", 1)
        await self.expect("enabled while pending", 1, 1, first)
        cov.sample_irq("raised")
        # A second violation while pending: counted, registers keep the first.
        await violate(2, 2)
        await self.expect("second violation while pending", 1, 1, first)
        cov.sample_irq("held_while_pending")
        # W1C drops the pin; writing 0 does nothing.
        await env.write_csr("IRQ_STATUS", 0)
        await self.expect("write 0 to IRQ_STATUS", 1, 1, first)
        await env.clear_irq()
        await self.expect("cleared", 0, 0)
        cov.sample_irq("cleared")
        # An error (ADVANCE on a violated slot) is not a violation.
        await seq.do(OP_ADVANCE, slot=1, token=0)
        await self.expect("error is not a violation", 0, 0)
        # A violation inside VALIDATE: slot, the slot's position, the token.
        s = env.shadow.bound(3)
        good = seq.walk(3, 2)
        bad = seq.illegal_after(3, good)
        exp_regs = (3, s.pos + len(good), bad)
        await seq.validate(3, good + [bad] + seq.walk(3, 1))
        await self.expect("VALIDATE violation", 1, 1, exp_regs)
        await env.clear_irq()
        await self.expect("cleared again", 0, 0)

        # Random rounds.
        rounds = env_int("N_ROUNDS", 4)
        for r in range(rounds):
            enable = r % 2
            await env.write_csr("CTRL", enable)
            walk = RandomWalkSeq(f"walk{r}", env, self.rng(f"walk{r}"),
                                 n_ops=env_int("N_OPS", 300) // rounds,
                                 slots=[0, 1, 2, 3, 10, 20], burst=0.2,
                                 weights={"advance": 50, "illegal": 8, "mask": 5,
                                          "validate": 8, "reset": 3})
            await walk.start(env.seqr)
            pend = int(env.shadow.irq_pending)
            await self.expect(f"round {r}", pend, pend & enable, env.shadow.viol_regs)
            if pend and enable:
                cov.sample_irq("raised")
            await env.clear_irq()
            await self.expect(f"round {r} cleared", 0, 0)
        await env.write_csr("CTRL", 0)
        self.logger.info(f"irq_o changes: {len(env.irq_mon.changes)}, rises {env.irq_mon.rises}")
