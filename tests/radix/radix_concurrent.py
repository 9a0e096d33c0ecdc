# SPDX-License-Identifier: Apache-2.0
"""radix_concurrent: bursts of commands built to collide, sent back to back with the
driver's full window and random idles and stalls on both streams.

Each round is one of five races (docs/radix-concurrency.md): a MATCH racing the INSERT
of its key; an INSERT that splits an edge the next MATCH compares; an EVICT between
walks; a LOCK of a node an INSERT just split; the same new key inserted twice in a row.
The scoreboard is the serial model, as everywhere: the answers must be those of the
commands run one by one in arrival order. uvm_env/radix/race_coverage.py measures, from
the model's own read and write sets, which races reached the DUT with how many commands
in flight: the stimulus a multi-walk core's conflict detection must face.
RadixConcurrentTest runs it on the one-walk-at-a-time core (ordering under collision
traffic); RadixConcurrentOverlapTest (radix_concurrent_overlap) on the core with
Overlap = 1, where a commit's broadcast must hit a walk that then runs again."""

from __future__ import annotations

import cocotb
import pyuvm
from cocotb.triggers import ClockCycles

from uvm_env.common.checkpoints import Checkpoints
from uvm_env.common.config import env_int
from uvm_env.radix.overlap import check_overlap, start_coverage
from uvm_env.radix.protocol import OP_EVICT, OP_INSERT, OP_LOCK, OP_MATCH, OP_UNLOCK, ST_OK
from uvm_env.radix.race_coverage import RACES, RaceTracker
from uvm_env.radix.radix_base_test import RadixBaseTest
from uvm_env.radix.radix_seqs import RadixBaseSeq

#: (kind of the earlier write, earlier op, this op), as race_coverage.RACES
LOCK_THEN_SPLIT = ("lock", "LOCK", "INSERT")
RACE_NAMES = ("match_vs_insert", "split_under_walk", "evict_in_flight", "lock_of_split",
              "same_key_twice")


class RaceSeq(RadixBaseSeq):
    """``n_rounds`` races, each picked at random; keys over a small alphabet share
    prefixes with earlier ones, so splits land inside existing edges."""

    alphabet = 3
    max_tokens = 48

    def __init__(self, name: str, pred: object, rng: object, n_rounds: int) -> None:
        super().__init__(name, pred, rng)
        self.n_rounds = n_rounds
        self.keys: list[tuple[int, list[int]]] = []   # (namespace, tokens) inserted
        self.rounds = dict.fromkeys(RACE_NAMES, 0)
        self.last: object | None = None   # the latest command sent

    async def do(self, wait: bool = False, **kw: object) -> object:
        self.last = await super().do(wait=wait, **kw)
        return self.last

    async def fillers(self, ns: int) -> None:
        """0-4 MATCHes ahead of a race, so it meets the DUT with more in flight."""
        for _ in range(self.rng.randint(0, 4)):
            await self.do(op=OP_MATCH, ns=ns, tokens=self.key(ns))

    def idle(self) -> bool:
        return self.last is None or self.last.done.is_set()

    def victim(self) -> tuple[int, list[int]] | None:
        """(namespace, key) of the leaf an EVICT takes first, from the model."""
        model = self.pred.model
        order = model.leaf_order()
        if not order:
            return None
        info = {i.node_id: i for i in model.nodes()}
        node, key = info[order[0]], []
        while node.parent_id is not None:
            key[:0] = node.key
            node = info[node.parent_id]
        return info[order[0]].namespace, key

    def oldest(self, ns: int, i: int) -> list[int]:
        """The i-th least recently inserted key: what an EVICT most likely cut."""
        mine = [k for n, k in self.keys if n == ns]
        return mine[min(i, len(mine) - 1)] if mine else [0]

    def key(self, ns: int) -> list[int]:
        rng = self.rng
        mine = [k for n, k in self.keys if n == ns]
        base = list(rng.choice(mine)[:rng.randint(0, self.max_tokens)]) if mine else []
        tail = [rng.randrange(self.alphabet) for _ in range(rng.randint(1, self.max_tokens))]
        return (base + tail)[:self.max_tokens]

    def diverge(self, tokens: list[int]) -> list[int]:
        """A key sharing a proper prefix of ``tokens`` and differing right after it, so
        inserting it splits the edge holding that position (unless it is a boundary)."""
        rng = self.rng
        j = rng.randint(1, max(1, len(tokens) - 1))
        turn = (tokens[j] + 1) % self.alphabet if j < len(tokens) else 0
        return tokens[:j] + [turn] + [rng.randrange(self.alphabet)
                                      for _ in range(rng.randint(0, 8))]

    async def insert(self, ns: int, tokens: list[int], wait: bool = False) -> object:
        self.keys.append((ns, tokens))
        await self.make_room(tokens, ns)
        return await self.do(op=OP_INSERT, ns=ns, tokens=tokens,
                             kvs=self.fresh_kvs(len(tokens)), wait=wait)

    async def body(self) -> None:
        for _ in range(self.n_rounds):
            if self.stopping:
                return
            race = self.rng.choice(RACE_NAMES)
            self.rounds[race] += 1
            if self.last is not None and self.rng.random() < 0.3:
                await self.last.done.wait()   # now and then a race starts from idle
            await getattr(self, race)(self.rng.randrange(min(2, self.pred.p.num_ns)))
            if self.checkpoints is not None:
                await self.checkpoints.after_op()

    async def match_vs_insert(self, ns: int) -> None:
        k = self.key(ns)
        await self.insert(ns, k)
        await self.do(op=OP_MATCH, ns=ns, tokens=k)
        await self.do(op=OP_MATCH, ns=ns, tokens=k[:self.rng.randint(1, len(k))])

    async def split_under_walk(self, ns: int) -> None:
        a = self.key(ns)
        await self.insert(ns, a, wait=True)
        b = self.diverge(a)
        # A third of the time the split and the MATCH behind it are the only two
        # commands in flight (``a`` is answered, so nothing older is): the walk then meets
        # the split with no other command to space them, which the fillers (0-4, so
        # rarely none) seldom leave.
        if self.rng.random() >= 1 / 3:
            await self.fillers(ns)
        await self.insert(ns, b)
        await self.do(op=OP_MATCH, ns=ns, tokens=a)
        await self.do(op=OP_MATCH, ns=ns, tokens=b)

    async def evict_in_flight(self, ns: int) -> None:
        rng, x = self.rng, self.key(ns)
        # With nothing in flight the model is the DUT's state: the first victim is known,
        # and no filler goes ahead (its MATCH could refresh the victim's stamp).
        victim = self.victim() if self.idle() else None
        if victim is None and rng.random() < 0.5:
            await self.fillers(ns)
        await self.do(op=OP_EVICT, arg=rng.choice([1, rng.randint(1, 64), rng.randint(64, 256)]))
        probe_ns, probe = victim if victim is not None else (ns, self.oldest(ns, 0))
        if rng.random() < 0.5:   # a walk right behind the EVICT: a MATCH or an INSERT
            await self.do(op=OP_MATCH, ns=probe_ns, tokens=probe)
        else:
            await self.insert(probe_ns, probe)
        await self.insert(ns, x)
        await self.do(op=OP_MATCH, ns=ns, tokens=self.oldest(ns, 1))

    async def lock_of_split(self, ns: int) -> None:
        a = self.key(ns)
        await self.insert(ns, a, wait=True)
        hit = await self.do(op=OP_MATCH, ns=ns, tokens=a, wait=True)
        if hit.rsp is None or hit.rsp.status != ST_OK or hit.rsp.a == 0:
            return
        handle = hit.rsp.b
        if self.rng.random() < 0.5:   # else the LOCK races the split alone
            await self.fillers(ns)
        await self.insert(ns, self.diverge(a))
        lock = await self.do(op=OP_LOCK, arg=handle)
        # The walk right behind the LOCK (beside it, with Overlap = 1): a MATCH of the
        # locked key, or an INSERT that may split the node whose lock count just changed.
        if self.rng.random() < 0.5:
            await self.do(op=OP_MATCH, ns=ns, tokens=a)
        else:
            await self.insert(ns, self.diverge(a))
        await lock.done.wait()
        if lock.ok():
            await self.do(op=OP_UNLOCK, arg=handle)

    async def same_key_twice(self, ns: int) -> None:
        k = self.key(ns)
        # Half the time the pair runs alone (nothing before it in flight, nothing after
        # it sent until it is answered): the second walk then races the first's new leaf
        # with exactly two commands in flight, a corner the back-to-back rounds rarely
        # leave open.
        alone = self.rng.random() < 0.5
        if alone and self.last is not None:
            await self.last.done.wait()
        await self.insert(ns, k)
        second = await self.insert(ns, k)
        if alone:
            await second.done.wait()
        await self.do(op=OP_MATCH, ns=ns, tokens=k)


class RadixConcurrentBase(RadixBaseTest):
    """The five races at the driver's full window, checked against the serial model."""

    async def body(self) -> None:
        env = self.env
        await env.wait_init_done()
        tracker = RaceTracker(env.scoreboard.pred, env.driver.window)
        env.scoreboard.race = tracker
        seq = RaceSeq("races", env.scoreboard.pred, self.cfg.child_rng("races"),
                      env_int("N_ROUNDS", 200))
        seq.checkpoints = Checkpoints(self.snapshot, every=16)   # rounds, not commands
        reader = cocotb.start_soon(self.read_in_flight_under_traffic())
        await seq.start(env.seqr)
        reader.kill()
        await env.drain()
        await self.check_csrs()
        self.logger.info(f"rounds per race: {seq.rounds}; races seen (kind, earlier op, "
                         f"op): {dict(tracker.seen)}")
        # Also required, without a coverage cross: an INSERT in flight behind a LOCK that
        # reads a node whose lock count the LOCK changed (what lock_of_split aims at: a
        # decision beside the LOCK must read the count again, not keep the walk's copy).
        missed = [r for r in (*RACES, LOCK_THEN_SPLIT) if not tracker.seen[r]]
        env.scoreboard.check("every aimed race reached the DUT with another command in "
                             "flight", not missed, f"never: {missed}")
        self.figures["races"] = {" ".join(k): v for k, v in tracker.seen.items()}
        env.scoreboard.check("IN_FLIGHT was compared while commands were in flight",
                             self.busy_reads > 0, "every read under traffic saw 0")

    busy_reads = 0   # IN_FLIGHT reads under traffic that saw commands in flight

    async def read_in_flight_under_traffic(self) -> None:
        """IN_FLIGHT read every few hundred cycles while the races run: each read is
        compared with the count in the cycle it was taken (checkpoints only see 0)."""
        while True:
            await ClockCycles(self.clock, 97)
            if await self.check_in_flight_now("under traffic"):
                self.busy_reads += 1

    async def snapshot(self, when: str) -> None:
        await self.env.drain()
        await self.check_csrs(when)


@pyuvm.test()
class RadixConcurrentTest(RadixConcurrentBase):
    """The races on the one-walk-at-a-time core (Overlap = 0)."""


@pyuvm.test()
class RadixConcurrentOverlapTest(RadixConcurrentBase):
    """The races on the overlapped core (Overlap = 1): answers still the serial
    model's, and the races must have made a commit's broadcast hit a walk, and a
    walk beside a LOCK must have split a node that LOCK had just locked."""

    async def body(self) -> None:
        cov = start_coverage(self)
        await super().body()
        await check_overlap(self, need_replay=True, cov=cov, need_lock_split=True)
