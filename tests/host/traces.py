# SPDX-License-Identifier: Apache-2.0
"""Random operation traces that any two devices must answer identically: the radix trace
(MATCH/INSERT over shared prefixes, EVICT, LOCK/UNLOCK of returned handles, stale and
made-up handles, SIZES, a RESET) and a token-FSM trace, sent in batches of 1-8 commands.
Each answer is recorded as plain data, refusals included."""

from __future__ import annotations

import random

from sglang_fpga import FsmDevice, RadixDevice
from sglang_fpga.wire import FsmCommand, FsmOp, RadixCommand, RadixOp


def radix_trace(dev: RadixDevice, n_ops: int = 200, seed: int = 1) -> list[tuple]:
    rng = random.Random(seed)
    geo = dev.geometry
    prompts = [[rng.randrange(1, 50_000) for _ in range(rng.randint(8, 90))] for _ in range(6)]
    handles: list[int] = []
    out: list[tuple] = []
    kv = 1000
    done = 0
    while done < n_ops:
        batch: list[RadixCommand] = []
        for _ in range(min(rng.randint(1, 8), n_ops - done)):
            r = rng.random()
            if r < 0.55:
                base = rng.choice(prompts)
                toks = base[:rng.randint(1, len(base))] + [
                    rng.randrange(1, 50_000) for _ in range(rng.randint(0, 40))]
                toks = toks[:geo.max_len]
                if rng.random() < 0.5:
                    batch.append(RadixCommand(RadixOp.MATCH, rng.randrange(2), toks))
                else:
                    batch.append(RadixCommand(RadixOp.INSERT, rng.randrange(2), toks,
                                              list(range(kv, kv + len(toks)))))
                    kv += len(toks)
            elif r < 0.63:
                batch.append(RadixCommand(RadixOp.EVICT, arg=rng.randint(1, 120)))
            elif r < 0.85 and handles:
                op = RadixOp.LOCK if rng.random() < 0.6 else RadixOp.UNLOCK
                batch.append(RadixCommand(op, arg=rng.choice(handles)))
            elif r < 0.9:
                batch.append(RadixCommand(RadixOp.LOCK, arg=rng.randrange(1 << 28)))
            elif r < 0.995:
                batch.append(RadixCommand(RadixOp.SIZES))
            else:
                batch.append(RadixCommand(RadixOp.RESET))
        rsps = dev.execute(batch, check=False)
        for c, rsp in zip(batch, rsps, strict=True):
            if c.op in (RadixOp.MATCH, RadixOp.INSERT) and rsp.status == 0:
                handles.append(rsp.b)
            out.append((done, int(c.op), rsp.status, rsp.a, rsp.b, rsp.c, tuple(rsp.kvs)))
            done += 1
    return out


def fsm_trace(dev: FsmDevice, image: bytes, vocab: int, n_ops: int = 60,
              seed: int = 1) -> list[tuple]:
    """LOAD, then BIND/ADVANCE/VALIDATE/MASK/MASK_BATCH/QUERY/RESET_SLOT on random slots,
    tokens random or forced, a few out of range."""
    rng = random.Random(seed)
    out: list[tuple] = []
    rsps, masks = dev.execute([FsmCommand(FsmOp.LOAD, grammar=0)], image=image, check=False)
    out.append(("load", rsps[0].fields()))
    dev.vocab[0] = vocab
    slots = dev.geometry.n_slots
    allowed: dict[int, list[int]] = {}    # slot -> tokens its last mask allowed
    done = 0
    while done < n_ops:
        batch: list[FsmCommand] = []
        for _ in range(rng.randint(1, 6)):
            r, slot = rng.random(), rng.randrange(slots + 1)
            if r < 0.15:
                batch.append(FsmCommand(FsmOp.BIND, slot=slot, grammar=rng.randrange(2)))
            elif r < 0.55:
                tok = rng.randrange(vocab + 2)
                if allowed.get(slot) and rng.random() < 0.8:
                    tok = rng.choice(allowed.pop(slot))
                batch.append(FsmCommand(FsmOp.ADVANCE, slot=slot, token=tok))
            elif r < 0.65:
                batch.append(FsmCommand(FsmOp.VALIDATE, slot=slot,
                                        tokens=[rng.randrange(vocab) for _ in range(3)]))
            elif r < 0.8:
                batch.append(FsmCommand(FsmOp.MASK, slot=slot))
            elif r < 0.88:
                batch.append(FsmCommand(FsmOp.MASK_BATCH,
                                        slots=[rng.randrange(slots) for _ in range(3)]))
            elif r < 0.95:
                batch.append(FsmCommand(FsmOp.QUERY, slot=slot))
            else:
                batch.append(FsmCommand(FsmOp.RESET_SLOT, slot=slot))
        rsps, masks = dev.execute(batch, check=False)
        out += [("rsp", r.fields()) for r in rsps]
        out += [("mask", m.tobytes()) for m in masks]
        masked = [r.slot for r in rsps if r.status == 0 and r.op in (FsmOp.MASK,
                                                                      FsmOp.MASK_BATCH)]
        for slot, m in zip(masked, masks, strict=True):
            allowed[slot] = [int(t) for t in m.nonzero()[0]]
        done += len(batch)
    return out
