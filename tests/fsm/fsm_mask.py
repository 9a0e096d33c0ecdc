# SPDX-License-Identifier: Apache-2.0
"""fsm_mask: the mask of every state a walk visits equals the model's, bit for bit.

Grammar 0 is a random regex over a synthetic vocabulary of 1.5k-3k tokens (3-6
beats per mask, rows at every 32-bit alignment); grammar 1 is the summary/sentiment regex's
regex on GPT-2 (99 beats per mask, EOS in the last beat). After the walks, the
test asserts that every state entered had its mask compared.
"""

from __future__ import annotations

import pyuvm

from uvm_env.common.config import env_int
from uvm_env.fsm.fsm_base_test import FsmBaseTest
from uvm_env.fsm.fsm_seqs import MaskWalkSeq
from uvm_env.fsm.grammars import RANDOM_REGEXES, SUMMARY_REGEX, gpt2_grammar, random_grammar


@pyuvm.test()
class FsmMaskTest(FsmBaseTest):
    coverage_prefix = "fsm.mask"

    def extra_timeout_us(self) -> int:
        return 40_000     # GPT-2 image (17k beats) and 99-beat masks under back-pressure

    async def scenario(self) -> None:
        rng = self.rng("grammars")
        small = random_grammar(rng, rng.choice(RANDOM_REGEXES[:6]), rng.randint(1500, 3000))
        brief = gpt2_grammar("brief_gpt2", SUMMARY_REGEX)
        for g in (small, brief):
            self.logger.info(g.summary())
        await self.load({0: small, 1: brief})
        n = env_int("N_OPS", 500)
        await MaskWalkSeq("walk0", self.env, self.rng("walk0"), 0, [3, 9, 17, 40],
                          n_steps=n).start(self.env.seqr)
        await MaskWalkSeq("walk1", self.env, self.rng("walk1"), 1, [5, 6],
                          n_steps=env_int("N_GPT2_MASKS", 24)).start(self.env.seqr)
        await self.drain()
        sb = self.env.scoreboard
        masked = sb.masked_states
        visited = sb.visited_states
        missing = visited - masked
        sb.check("every visited state's mask compared", not missing,
                 f"{len(missing)} visited states never masked, e.g. {sorted(missing)[:5]}")
        self.logger.info(f"{len(masked)} distinct (grammar, state) masks compared, "
                         f"{sb.n_masks} MASK commands")
