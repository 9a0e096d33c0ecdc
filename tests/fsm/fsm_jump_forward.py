# SPDX-License-Identifier: Apache-2.0
"""fsm_jump_forward: forced tokens (jump-forward) reported by ADVANCE and BIND, followed.

Grammar 0 spells its literals as single tokens, so most states force one;
grammar 1 is a random regex over a synthetic vocabulary. Whenever a result
says "forced", the sequence sends exactly that token; the scoreboard checks
every result's forced flag and token against the model.

Then grammar 1 is replaced by grammar 0's record repeated (DEEP_REPEATS times, over
700 states) and one slot follows it from the start to the end without a violation:
the forced states numbered LoadW and up read the info bitmaps past their first word,
which the small grammars never reach.
"""

from __future__ import annotations

import pyuvm

from uvm_env.common.config import env_int
from uvm_env.fsm.fsm_base_test import FsmBaseTest
from uvm_env.fsm.fsm_seqs import JumpForwardSeq
from uvm_env.fsm.grammars import JUMP_REGEX, RANDOM_REGEXES, build, jump_vocab, random_grammar

#: Copies of grammar 0's record in the deep grammar: 24 give 746 states, 154 of them
#: forced and numbered 512 or more.
DEEP_REPEATS = 24
#: Enough tokens to spell every copy and end: a copy takes at most 23 (every literal
#: spelt in its shortest tokens, the letters one by one).
DEEP_STEPS = DEEP_REPEATS * 23 + 2


@pyuvm.test()
class FsmJumpForwardTest(FsmBaseTest):
    coverage_prefix = "fsm.adv"
    require_full_coverage = True

    async def scenario(self) -> None:
        rng = self.rng("grammars")
        jump = build("jump", JUMP_REGEX, jump_vocab(rng))
        other = random_grammar(rng, RANDOM_REGEXES[0])
        for g in (jump, other):
            self.logger.info(g.summary())
        await self.load({0: jump, 1: other})
        runs = env_int("N_OPS", 300) // 20
        seqs = [JumpForwardSeq("jump0", self.env, self.rng("j0"), 0, [0, 1, 2], runs),
                JumpForwardSeq("jump1", self.env, self.rng("j1"), 1, [7, 8], runs)]
        for seq in seqs:
            await seq.start(self.env.seqr)
        followed = sum(s.forced_followed for s in seqs)
        self.logger.info(f"{followed} forced tokens followed")
        self.env.scoreboard.check("forced tokens followed", followed >= runs,
                                  f"only {followed} forced tokens in {2 * runs} runs")

        deep = build("jumps", f"({JUMP_REGEX},){{{DEEP_REPEATS}}}", jump_vocab(rng))
        self.logger.info(deep.summary())
        await self.load({1: deep})
        walk = JumpForwardSeq("deep", self.env, self.rng("deep"), 1, [9], 1,
                              steps=DEEP_STEPS, p_violate=0.0)
        await walk.start(self.env.seqr)
        self.logger.info(f"{walk.forced_deep} forced tokens in states >= LoadW")
        self.env.scoreboard.check("forced states past the bitmaps' first word reached",
                                  walk.forced_deep > 0,
                                  f"{deep.fsm.num_states} states, none >= LoadW forced on "
                                  "the walk")
