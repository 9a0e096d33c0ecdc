# SPDX-License-Identifier: Apache-2.0
"""fsm_table_load: loads, reloads and refused images; no partial corruption.

Rounds: traffic on slots bound to both grammars, then a LOAD of a corrupted
image (every kind, aimed at each loader check) into a grammar in use; the
traffic after it must still follow the old tables. Now and then a good image
replaces a grammar: its slots are unbound (GRAMMAR errors) until re-bound, and
the spare bank rotates through every bank. The predictor's verdict for each
image is checked against the aim of the corruption and against
models.table_image.load_image (which must refuse exactly the refused ones).
"""

from __future__ import annotations

import pyuvm

from models.table_image import TableImageError, load_image
from uvm_env.common.config import env_int
from uvm_env.fsm.fsm_base_test import FsmBaseTest
from uvm_env.fsm.fsm_predictor import hw_verdict, received_bytes
from uvm_env.fsm.fsm_seqs import RandomWalkSeq
from uvm_env.fsm.grammars import build, padded_vocab, random_grammar
from uvm_env.fsm.images import KINDS, corrupt
from uvm_env.fsm.protocol import OP_ADVANCE, ST_LD_CAPACITY, ST_NAMES, ST_OK


@pyuvm.test()
class FsmTableLoadTest(FsmBaseTest):
    coverage_prefix = "fsm.err.load"
    require_full_coverage = True

    def check_image(self, data: bytes, keep: int | None, aim: int | None) -> None:
        """Predictor verdict vs the corruption's aim and vs the model's loader."""
        p, sb = self.env.params, self.env.scoreboard
        got, keep_err = received_bytes(data, p.load_w, keep)
        verdict = hw_verdict(data[:got], keep_err, p)
        if aim is not None:
            sb.compare(f"verdict of a '{ST_NAMES[aim]}' image", ST_NAMES[aim], ST_NAMES[verdict])
        try:
            load_image(data if not keep_err else data + b"\0")
            model_ok = True
        except TableImageError:
            model_ok = False
        if verdict != ST_LD_CAPACITY:
            sb.check("hardware and model loaders agree", model_ok == (verdict == ST_OK),
                     f"verdict {ST_NAMES[verdict]}, load_image {'ok' if model_ok else 'refused'}")

    async def scenario(self) -> None:
        env, p = self.env, self.env.params
        rng = self.rng("grammars")
        pool = [random_grammar(rng) for _ in range(4)]
        for g in pool:
            self.logger.info(g.summary())
        current = {0: pool[0], 1: pool[1]}
        await self.load(current)
        seq = self.direct("loads")
        slots = [0, 1, 2, 3, 4, 5]
        lrng = self.rng("images")
        kinds = sorted(KINDS)
        # Every third round reloads a good image; the others take the kinds in turn.
        rounds = env_int("N_ROUNDS", 3 * len(kinds))
        n_bad = 0
        for r in range(rounds):
            await RandomWalkSeq(f"walk{r}", env, self.rng(f"walk{r}"),
                                n_ops=env_int("N_OPS", 600) // rounds, slots=slots,
                                weights={"advance": 60, "illegal": 3, "mask": 15,
                                         "validate": 6, "reset": 3, "bind": 3}
                                ).start(env.seqr)
            gid = r % 2
            if r % 3 == 2:
                new = lrng.choice(pool)
                self.check_image(new.image, None, ST_OK)
                await seq.load(gid, new)
                current[gid] = new
                # Slots on the reloaded grammar are unbound now.
                for slot in slots:
                    if env.shadow.bound(slot) is None:
                        await seq.do(OP_ADVANCE, slot=slot, token=0)
                        break
            else:
                kind = kinds[n_bad % len(kinds)]
                n_bad += 1
                src = lrng.choice(pool)
                data, keep = corrupt(src.image, kind, lrng, p.load_w)
                self.check_image(data, keep, KINDS[kind])
                await seq.load(gid, src, image=data, keep_last=keep)
        # Refused: beyond the parameters, and a grammar id that does not exist.
        big = build("too_big", "(yes|no)", padded_vocab("(yes|no)", p.vocab_max + 1))
        self.check_image(big.image, None, ST_LD_CAPACITY)
        await seq.load(0, big)
        await seq.load(p.n_grammars, pool[2])
        await seq.load(0xFF, pool[3])
        # Back-to-back reloads of one grammar rotate the spare bank through all banks.
        for i in range(p.n_grammars + 2):
            await seq.load(1, pool[i % len(pool)])
            await seq.bind(6, 1)
            for tok in seq.walk(6, 4):
                await seq.advance(6, tok)
            await seq.mask(6)
        await RandomWalkSeq("final", env, self.rng("final"), n_ops=100,
                            slots=slots + [6]).start(env.seqr)
