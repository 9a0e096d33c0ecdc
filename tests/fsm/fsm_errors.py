# SPDX-License-Identifier: Apache-2.0
"""fsm_errors: every error class: error result, no state change, counted by code.

Directed: each command error on each opcode it applies to, each followed by a
QUERY of the slot (the state must be unchanged), and one refused image per
loader check; then a random walk in which a third of the commands are
malformed. All of fsm.err.* must be covered. Runs on Verilator and Icarus.
"""

from __future__ import annotations

import pyuvm

from uvm_env.common.config import env_int
from uvm_env.fsm.fsm_base_test import FsmBaseTest
from uvm_env.fsm.fsm_seqs import RandomWalkSeq
from uvm_env.fsm.grammars import build, padded_vocab, random_grammar
from uvm_env.fsm.images import KINDS, PER_FIELD, corrupt, dirty_padding
from uvm_env.fsm.protocol import (
    OP_ADVANCE,
    OP_BIND,
    OP_LOAD,
    OP_MASK,
    OP_MASK_BATCH,
    OP_QUERY,
    OP_RESET,
    OP_VALIDATE,
)


@pyuvm.test()
class FsmErrorsTest(FsmBaseTest):
    coverage_prefix = "fsm.err"
    require_full_coverage = True

    async def scenario(self) -> None:
        env, p = self.env, self.env.params
        rng = self.rng("grammars")
        g0, g1 = random_grammar(rng), random_grammar(rng)
        await self.load({0: g0})               # grammar 1 stays unloaded for now
        seq = self.direct("errors")
        slot, free = 2, 5
        await seq.bind(slot, 0)
        for tok in seq.walk(slot, 3):
            await seq.advance(slot, tok)
        # Unknown opcodes.
        for op in (0x00, 0x09, 0x80, 0xFF):
            await seq.do(op, slot=slot)
        # Slot out of range, for every slot command.
        for op in (OP_BIND, OP_ADVANCE, OP_VALIDATE, OP_MASK, OP_MASK_BATCH, OP_RESET,
                   OP_QUERY):
            await seq.do(op, slot=p.n_slots, tokens=[0] if op == OP_VALIDATE else None)
            await seq.do(op, slot=0xFFFF, grammar=0)
        # Grammar out of range or not loaded; commands on an unbound slot.
        await seq.do(OP_BIND, slot=slot, grammar=1)
        await seq.do(OP_BIND, slot=slot, grammar=p.n_grammars)
        await seq.do(OP_BIND, slot=slot, grammar=0xFF)
        for op in (OP_ADVANCE, OP_VALIDATE, OP_MASK, OP_MASK_BATCH, OP_RESET, OP_QUERY):
            await seq.do(op, slot=free, tokens=[0] if op == OP_VALIDATE else None)
        await seq.query(slot)
        # Token >= V: ADVANCE, and anywhere in a VALIDATE (nothing applied).
        v = g0.vocab_size
        for tok in (v, v + 1, 0xFFFF_FFFF):
            await seq.do(OP_ADVANCE, slot=slot, token=tok)
        await seq.validate(slot, seq.walk(slot, 2) + [v])
        await seq.validate(slot, [v + 7] + seq.walk(slot, 2))
        await seq.query(slot)
        # A violated slot refuses ADVANCE and VALIDATE, not QUERY / MASK / RESET.
        await seq.advance(slot, seq.illegal(slot))
        await seq.do(OP_ADVANCE, slot=slot, token=0)
        await seq.validate(slot, [0])
        await seq.validate(slot, [])
        await seq.query(slot)
        await seq.mask(slot)
        # A batch with a bad slot and an unbound one between good ones (one result each).
        await seq.mask_batch([slot, p.n_slots, free, slot])
        await seq.reset(slot)
        # LOAD into a grammar that does not exist: the image is consumed, then refused.
        await seq.load(p.n_grammars, g1)
        # One refused image per loader check; grammar 0 keeps working after each.
        lrng = self.rng("images")
        # Every header field of the dimension rule and every section's size, each
        # alone (a rule that stopped checking one would pass a random pick of another).
        faults = [(k, None) for k in sorted(KINDS) if k not in PER_FIELD]
        faults += [(k, f) for k, fields in PER_FIELD.items() for f in fields]
        for kind, field in faults:
            data, keep = corrupt(g1.image, kind, lrng, p.load_w, field=field)
            await seq.load(0, g1, image=data, keep_last=keep)
            for tok in seq.walk(slot, 2):
                await seq.advance(slot, tok)
        big = build("too_big", "(yes|no)", padded_vocab("(yes|no)", p.vocab_max + 40))
        await seq.load(1, big)
        await seq.query(slot)
        await seq.load(1, g1)
        # Mask-row bits at and past V set in an image that passes every loader check:
        # the streamer must clear them (the loader does not read table values).
        # V between MaskW and 2 MaskW, not a multiple: the last beat is partial (with
        # V <= MaskW or a multiple of it no beat has bits past V to clear).
        # The vocabulary grows past the size asked for (specials, and every byte the
        # sampled texts use: up to a few hundred more), so ask for at most MaskW / 4
        # past MaskW and draw again, from the same seeded stream, if it still misses.
        for _ in range(8):
            gd = random_grammar(rng, size=p.mask_w + 1 + rng.randrange(p.mask_w // 4))
            if p.mask_w < gd.vocab_size < 2 * p.mask_w and gd.vocab_size % p.mask_w:
                break
        assert p.mask_w < gd.vocab_size < 2 * p.mask_w and gd.vocab_size % p.mask_w, \
            f"no vocabulary between MaskW and 2 MaskW in 8 draws (last {gd.vocab_size})"
        await seq.load(1, gd, image=dirty_padding(gd.image))
        await seq.bind(free, 1)
        await seq.mask(free)
        for tok in seq.walk(free, 3):
            await seq.advance(free, tok)
            await seq.mask(free)
        await seq.load(1, g1)
        # Random: a third malformed.
        await self.drain()
        walk = RandomWalkSeq("walk", env, self.rng("walk"), n_ops=env_int("N_OPS", 300),
                             slots=[0, 1, 2, 3, free], p_error=0.35)
        await walk.start(env.seqr)
        self.logger.info(f"{env.scoreboard.pred.csr_error_counts()} errors by code")
        assert OP_LOAD == 7
