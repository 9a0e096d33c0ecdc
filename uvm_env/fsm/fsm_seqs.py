# SPDX-License-Identifier: Apache-2.0
"""Sequences for the token-FSM validator.

They choose stimulus from the env's shadow predictor, which they advance as
they send (as a UVM sequence reads a register mirror); they never check: the
scoreboard's own predictor does, from the results.
"""

from __future__ import annotations

import random

from pyuvm import uvm_sequence

from uvm_env.common.checkpoints import Checkpoints
from uvm_env.fsm.fsm_item import FsmCmd
from uvm_env.fsm.fsm_predictor import Expected, FsmPredictor
from uvm_env.fsm.grammars import Grammar
from uvm_env.fsm.protocol import (
    MAX_BATCH,
    OP_ADVANCE,
    OP_BIND,
    OP_LOAD,
    OP_MASK,
    OP_MASK_BATCH,
    OP_QUERY,
    OP_RESET,
    OP_VALIDATE,
)


class FsmBaseSeq(uvm_sequence):
    def __init__(self, name: str, env: object, rng: random.Random) -> None:
        super().__init__(name)
        self.env, self.rng = env, rng
        self.shadow: FsmPredictor = env.shadow
        self.stopping = False   # set by a test that resets the DUT: issue nothing more
        self.checkpoints: Checkpoints | None = None   # CSR snapshots during traffic

    def stop(self) -> None:
        self.stopping = True

    async def do(self, op: int, slot: int = 0, grammar: int = 0, token: int = 0,
                 tokens: list[int] | None = None, image: bytes | None = None,
                 keep_last: int | None = None, tag: str = "") -> tuple[FsmCmd, Expected]:
        cmd = FsmCmd(op=op, slot=slot, grammar=grammar, token=token, tokens=tokens,
                     image=image, load_keep_last=keep_last)
        cmd.tag = tag or self.get_name()
        exp = self.shadow.predict(op, slot, grammar, token, tokens, image, keep_last)
        await self.start_item(cmd)
        await self.finish_item(cmd)
        return cmd, exp

    # ---- commands ------------------------------------------------------------
    async def load(self, gid: int, g: Grammar | None, image: bytes | None = None,
                   keep_last: int | None = None) -> tuple[FsmCmd, Expected]:
        data = image if image is not None else g.image
        cmd = FsmCmd(op=OP_LOAD, grammar=gid, image=data, load_keep_last=keep_last)
        cmd.grammar_name = g.name if g is not None else f"g{gid}"
        cmd.source = g if g is not None and data == g.image else None
        cmd.tag = cmd.grammar_name
        exp = self.shadow.predict(OP_LOAD, grammar=gid, image=data, keep_last=keep_last)
        await self.start_item(cmd)
        await self.finish_item(cmd)
        return cmd, exp

    async def bind(self, slot: int, gid: int) -> Expected:
        return (await self.do(OP_BIND, slot=slot, grammar=gid))[1]

    async def advance(self, slot: int, token: int) -> Expected:
        return (await self.do(OP_ADVANCE, slot=slot, token=token))[1]

    async def mask(self, slot: int) -> Expected:
        return (await self.do(OP_MASK, slot=slot))[1]

    async def mask_batch(self, slots: list[int]) -> list[Expected]:
        """One MASK_BATCH packet naming ``slots`` (one result and mask per slot)."""
        cmd = FsmCmd(op=OP_MASK_BATCH, slot=slots[0], slots=slots)
        cmd.tag = self.get_name()
        exps = self.shadow.predict_batch(slots)
        await self.start_item(cmd)
        await self.finish_item(cmd)
        return exps

    def batch_slots(self, pool: list[int], n: int | None = None) -> list[int]:
        """1..MAX_BATCH slots from ``pool`` in random order; now and then one named twice."""
        n = n or self.rng.randint(1, MAX_BATCH)
        slots = [self.rng.choice(pool) for _ in range(n)] if len(pool) < n else \
            self.rng.sample(pool, n)
        if n > 1 and self.rng.random() < 0.1:
            slots[-1] = slots[0]
        return slots

    async def query(self, slot: int) -> Expected:
        return (await self.do(OP_QUERY, slot=slot))[1]

    async def reset(self, slot: int) -> Expected:
        return (await self.do(OP_RESET, slot=slot))[1]

    async def validate(self, slot: int, tokens: list[int]) -> Expected:
        return (await self.do(OP_VALIDATE, slot=slot, tokens=tokens))[1]

    # ---- choices from the shadow ---------------------------------------------
    def allowed(self, slot: int) -> list[int]:
        s = self.shadow.bound(slot)
        if s is None:
            return []
        return [int(t) for t in self.shadow.grammars[s.grammar].allowed_ids(s.state)]

    def illegal(self, slot: int) -> int | None:
        """A token id < V that is not allowed in the slot's state (None if all are)."""
        s = self.shadow.bound(slot)
        fsm = self.shadow.grammars[s.grammar]
        ok = fsm.allowed(s.state)
        for _ in range(32):
            t = self.rng.randrange(fsm.vocab_size)
            if not ok[t]:
                return t
        bad = [int(t) for t in (~ok).nonzero()[0]]
        return self.rng.choice(bad) if bad else None

    def pick_allowed(self, slot: int, p_eos: float = 0.3) -> int | None:
        """An allowed token, EOS with probability p_eos when it is allowed."""
        s = self.shadow.bound(slot)
        fsm = self.shadow.grammars[s.grammar]
        eos = fsm.tables.eos_id
        ids = self.allowed(slot)
        if not ids:
            return None
        if eos in ids and (len(ids) == 1 or self.rng.random() < p_eos):
            return eos
        ids = [t for t in ids if t != eos] or ids
        return self.rng.choice(ids)

    def illegal_after(self, slot: int, prefix: list[int]) -> int | None:
        """A token not allowed after the slot's state and then ``prefix``."""
        s = self.shadow.bound(slot)
        fsm = self.shadow.grammars[s.grammar]
        state = s.state
        for t in prefix:
            state = fsm.advance(state, t)
        bad = (~fsm.allowed(state)).nonzero()[0]
        return int(self.rng.choice(list(bad))) if len(bad) else None

    def walk(self, slot: int, n: int) -> list[int]:
        """n allowed tokens from the slot's state, without sending anything."""
        s = self.shadow.bound(slot)
        fsm = self.shadow.grammars[s.grammar]
        state, out = s.state, []
        for _ in range(n):
            ids = fsm.allowed_ids(state)
            if len(ids) == 0:
                break
            t = int(self.rng.choice(list(ids)))
            out.append(t)
            state = fsm.advance(state, t)
        return out


class LoadSeq(FsmBaseSeq):
    """Load each grammar into its id."""

    def __init__(self, name: str, env: object, rng: random.Random,
                 grammars: dict[int, Grammar]) -> None:
        super().__init__(name, env, rng)
        self.grammars = grammars

    async def body(self) -> None:
        self.cmds = []
        for gid, g in self.grammars.items():
            if self.stopping:
                return
            self.cmds.append((await self.load(gid, g))[0])


class RandomWalkSeq(FsmBaseSeq):
    """Constrained-random traffic on a set of slots over the loaded grammars: walks
    through allowed tokens (EOS when accepting), illegal tokens, masks, queries,
    resets, re-binds, VALIDATE packets clean or with a planted violation, and
    (with p_error) malformed commands. Slots are picked at random, so commands
    on one slot interleave with the others'; `burst` makes runs on one slot."""

    def __init__(self, name: str, env: object, rng: random.Random, n_ops: int,
                 slots: list[int], weights: dict[str, int] | None = None,
                 p_error: float = 0.0, burst: float = 0.3) -> None:
        super().__init__(name, env, rng)
        self.n_ops, self.slots, self.p_error, self.burst = n_ops, slots, p_error, burst
        self.weights = weights or {"advance": 60, "illegal": 4, "mask": 10, "query": 3,
                                   "reset": 2, "bind": 2, "validate": 6, "batch": 2}

    async def ensure_bound(self, slot: int) -> None:
        s = self.shadow.bound(slot)
        if s is None or s.violated or not self.allowed(slot):
            if s is not None and self.rng.random() < 0.5:
                await self.reset(slot)
            else:
                gids = sorted(self.shadow.grammars)
                await self.bind(slot, self.rng.choice(gids))

    async def body(self) -> None:
        rng = self.rng
        kinds, weights = list(self.weights), list(self.weights.values())
        slot = rng.choice(self.slots)
        for _ in range(self.n_ops):
            if self.stopping:
                return
            if rng.random() > self.burst:
                slot = rng.choice(self.slots)
            if rng.random() < self.p_error:
                await ErrorMixin.one_error(self, slot)
                if self.checkpoints is not None:
                    await self.checkpoints.after_op(refusal=True)
                continue
            await self.ensure_bound(slot)
            kind = rng.choices(kinds, weights)[0]
            if kind == "advance":
                tok = self.pick_allowed(slot)
                if tok is not None:
                    await self.advance(slot, tok)
            elif kind == "illegal":
                tok = self.illegal(slot)
                if tok is not None:
                    await self.advance(slot, tok)
            elif kind == "mask":
                await self.mask(slot)
            elif kind == "query":
                await self.query(slot)
            elif kind == "batch":
                await self.mask_batch([slot] + self.batch_slots(self.slots)[1:])
            elif kind == "reset":
                await self.reset(slot)
            elif kind == "bind":
                await self.bind(slot, rng.choice(sorted(self.shadow.grammars)))
            elif kind == "validate":
                toks = self.walk(slot, rng.randint(0, 12))
                if toks and rng.random() < 0.4:
                    i = rng.randrange(len(toks))
                    bad = self.illegal_after(slot, toks[:i])
                    if bad is not None:
                        toks = toks[:i] + [bad] + toks[i + 1:]
                await self.validate(slot, toks)
            if self.checkpoints is not None:
                await self.checkpoints.after_op()


class ErrorMixin:
    """One malformed command of a random kind (every error class of the protocol)."""

    @staticmethod
    async def one_error(seq: FsmBaseSeq, slot: int) -> None:
        rng, p = seq.rng, seq.shadow.p
        kind = rng.randrange(7)
        if kind == 0:
            await seq.do(rng.choice([0x00, 0x09, 0x3F, 0xFF]), slot=slot)
        elif kind == 1:
            op = rng.choice([OP_BIND, OP_ADVANCE, OP_MASK, OP_MASK_BATCH, OP_QUERY, OP_RESET,
                             OP_VALIDATE])
            bad = rng.choice([p.n_slots, p.n_slots + 1, 0xFFFF, rng.randrange(p.n_slots, 0x10000)])
            await seq.do(op, slot=bad, grammar=0, tokens=[0] if op == OP_VALIDATE else None)
        elif kind == 2:
            await seq.do(OP_BIND, slot=slot, grammar=rng.choice([p.n_grammars, 0xFF]))
        elif kind == 3:
            unloaded = [g for g in range(p.n_grammars) if g not in seq.shadow.grammars]
            if unloaded:
                await seq.do(OP_BIND, slot=slot, grammar=rng.choice(unloaded))
            else:
                free = [s for s in range(p.n_slots) if seq.shadow.bound(s) is None]
                if free:
                    await seq.do(rng.choice([OP_ADVANCE, OP_MASK, OP_QUERY, OP_RESET]),
                                 slot=rng.choice(free))
        elif kind == 4:
            s = seq.shadow.bound(slot)
            if s is not None:
                v = seq.shadow.grammars[s.grammar].vocab_size
                tok = rng.choice([v, v + 1, 0xFFFF_FFFF, rng.randrange(v, 1 << 24)])
                if rng.random() < 0.5:
                    await seq.do(OP_ADVANCE, slot=slot, token=tok)
                else:
                    good = seq.walk(slot, rng.randint(0, 4))
                    await seq.do(OP_VALIDATE, slot=slot,
                                 tokens=good + [tok] + seq.walk(slot, rng.randint(0, 2)))
        else:
            # A violated slot: make one, then ADVANCE / VALIDATE on it.
            s = seq.shadow.bound(slot)
            if s is None:
                return
            if not s.violated:
                bad = seq.illegal(slot)
                if bad is None:
                    return
                await seq.advance(slot, bad)
            op = rng.choice([OP_ADVANCE, OP_VALIDATE])
            await seq.do(op, slot=slot, token=0, tokens=[0, 1] if op == OP_VALIDATE else None)


class DocumentSeq(FsmBaseSeq):
    """Outputs sampled from the grammar (for a JSON schema: documents), tokenised
    greedily and fed token by token on interleaved slots, each ending with EOS;
    plus VALIDATE of whole documents, clean and mutated."""

    def __init__(self, name: str, env: object, rng: random.Random, grammar: Grammar,
                 gid: int, slots: list[int], n_docs: int, mask_every: int = 0,
                 max_len: int = 200) -> None:
        super().__init__(name, env, rng)
        self.g, self.gid, self.slots = grammar, gid, slots
        self.n_docs, self.mask_every, self.max_len = n_docs, mask_every, max_len

    async def body(self) -> None:
        rng, g = self.rng, self.g
        eos = g.fsm.tables.eos_id
        docs = {s: [] for s in self.slots}
        done = 0
        step = 0
        while done < self.n_docs:
            for slot in self.slots:
                if not docs[slot]:
                    if done >= self.n_docs:
                        continue
                    await self.bind(slot, self.gid)
                    docs[slot] = g.sample_tokens(rng, self.max_len) + [eos]
                    done += 1
                tok = docs[slot].pop(0)
                await self.advance(slot, tok)
                step += 1
                if self.mask_every and step % self.mask_every == 0:
                    await self.mask(slot)
        for slot in self.slots:
            while docs[slot]:
                await self.advance(slot, docs[slot].pop(0))
        # Whole documents through VALIDATE, clean and mutated.
        for i in range(max(1, self.n_docs // 2)):
            slot = self.slots[i % len(self.slots)]
            await self.bind(slot, self.gid)
            toks = g.sample_tokens(rng, self.max_len)
            if i % 2 and toks:
                j = rng.randrange(len(toks))
                toks[j] = rng.randrange(g.vocab_size)
            await self.validate(slot, toks + ([eos] if rng.random() < 0.5 else []))


class JumpForwardSeq(FsmBaseSeq):
    """Follow forced tokens: whenever the result says forced, send exactly that token."""

    def __init__(self, name: str, env: object, rng: random.Random, gid: int,
                 slots: list[int], n_runs: int, steps: int = 64,
                 p_violate: float = 0.08) -> None:
        super().__init__(name, env, rng)
        self.gid, self.slots, self.n_runs = gid, slots, n_runs
        self.steps, self.p_violate = steps, p_violate
        self.forced_followed = 0
        #: Forced tokens reported in states past the info bitmaps' first word (one bit
        #: per state, LoadW bits per word).
        self.forced_deep = 0

    async def body(self) -> None:
        rng = self.rng
        for run in range(self.n_runs):
            slot = self.slots[run % len(self.slots)]
            exp = await self.bind(slot, self.gid)
            for _ in range(self.steps):
                if exp.rsp.forced_valid:
                    if self.shadow.bound(slot).state >= self.shadow.p.load_w:
                        self.forced_deep += 1
                    if rng.random() < self.p_violate:
                        # Anything but the forced token is a violation there.
                        bad = self.illegal(slot)
                        if bad is not None:
                            await self.advance(slot, bad)
                            break
                    exp = await self.advance(slot, exp.rsp.forced)
                    self.forced_followed += 1
                    continue
                tok = self.pick_allowed(slot, p_eos=0.2)
                if tok is None:
                    break
                exp = await self.advance(slot, tok)
                if rng.random() < 0.2:
                    await self.mask(slot)


class MaskWalkSeq(FsmBaseSeq):
    """A MASK in every state a walk enters: bind, then MASK / ADVANCE alternately
    until the slot reaches FINAL (or a step budget), on several slots in turn."""

    def __init__(self, name: str, env: object, rng: random.Random, gid: int,
                 slots: list[int], n_steps: int, p_eos: float = 0.15) -> None:
        super().__init__(name, env, rng)
        self.gid, self.slots, self.n_steps, self.p_eos = gid, slots, n_steps, p_eos

    async def body(self) -> None:
        for slot in self.slots:
            await self.bind(slot, self.gid)
        for step in range(self.n_steps):
            slot = self.slots[step % len(self.slots)]
            await self.mask(slot)
            tok = self.pick_allowed(slot, self.p_eos)
            if tok is None:      # FINAL (or a dead end): start over
                await self.bind(slot, self.gid)
                continue
            await self.advance(slot, tok)
        for slot in self.slots:      # the states the last steps entered
            await self.mask(slot)


class InterleaveSeq(FsmBaseSeq):
    """Bind every slot (grammars alternate), then rounds over the slots: each slot
    gets `same_slot_run` ADVANCEs in a row (1 = a different slot every command),
    a MASK right behind the last, and a re-bind when it can go no further."""

    def __init__(self, name: str, env: object, rng: random.Random, slots: list[int],
                 rounds: int, same_slot_run: int = 1) -> None:
        super().__init__(name, env, rng)
        self.slots, self.rounds, self.run = slots, rounds, same_slot_run

    async def body(self) -> None:
        gids = sorted(self.shadow.grammars)
        for i, slot in enumerate(self.slots):
            await self.bind(slot, gids[i % len(gids)])
        for r in range(self.rounds):
            for slot in self.slots:
                for _ in range(self.run):
                    tok = self.pick_allowed(slot, p_eos=0.05)
                    if tok is None:
                        await self.bind(slot, self.rng.choice(gids))
                        break
                    await self.advance(slot, tok)
                if self.run > 1 or r % 4 == 3:
                    await self.mask(slot)
