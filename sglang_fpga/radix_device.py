# SPDX-License-Identifier: Apache-2.0
"""RadixDevice: the radix KV-cache controller behind one API, on any back end.

    dev = RadixDevice("model")                  # golden models in process
    dev = RadixDevice("sim")                    # krnl_radix RTL in Verilator (a checkout)
    dev = RadixDevice("xrt", xclbin="krnl.xclbin", geometry=RadixGeometry(...))

Single calls (``match``, ``insert``, ...) are batches of one; ``execute`` sends a whole
batch in one kernel run, which is what amortises a card's round trip. A refusal raises
the typed ``RadixError`` for its status (``sglang_fpga.errors``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .backends import open_card
from .backends.radix_model import RadixGeometry, RadixModelBackend
from .errors import ResponseError, radix_error
from .wire import RadixCommand, RadixOp, RadixRsp, to_signed32

BACKENDS = ("model", "sim", "xrt")


@dataclass(frozen=True)
class Match:
    length: int
    kv_indices: np.ndarray      # int64, one per matched token
    handle: int                 # the last matched node (the root's handle if none)


@dataclass(frozen=True)
class Insert:
    prefix_len: int             # tokens that were already cached
    handle: int                 # the node the key ends on


@dataclass(frozen=True)
class Evict:
    kv_indices: np.ndarray      # freed, in eviction order
    nodes: int


@dataclass(frozen=True)
class Sizes:
    evictable: int
    protected: int
    total: int


@dataclass
class RadixCounters:
    """What the driver has seen, for metrics: calls, commands and the tokens they moved."""

    calls: int = 0
    commands: int = 0
    match_tokens: int = 0
    hit_tokens: int = 0
    evicted_tokens: int = 0
    refusals: dict[str, int] = field(default_factory=dict)


class RadixDevice:
    def __init__(self, backend: str = "model", *, geometry: RadixGeometry | None = None,
                 xclbin: str | Path | None = None, device_index: int = 0,
                 root: str | Path | None = None) -> None:
        if backend == "model":
            self.geometry = geometry or RadixGeometry()
            self._be: object = RadixModelBackend(self.geometry)
        elif backend in ("sim", "xrt"):
            from .backends.kernel import RadixKernelBackend
            card = open_card(backend, "radix", geometry and geometry.to_params(), xclbin,
                             device_index, root)
            self.geometry = geometry or RadixGeometry.from_params(card.params)
            self._be = RadixKernelBackend(card)
        else:
            raise ValueError(f"backend {backend!r}: one of {', '.join(BACKENDS)}")
        self.backend = backend
        self.counters = RadixCounters()

    # ---- batches -------------------------------------------------------------------
    def execute(self, cmds: Sequence[RadixCommand], check: bool = True) -> list[RadixRsp]:
        """Run ``cmds`` in one call. With ``check``, the first refused command raises
        (commands after it have run: the controller answers each in order)."""
        cmds = list(cmds)
        rsps = self._be.execute(cmds)  # type: ignore[attr-defined]
        if len(rsps) != len(cmds):
            raise ResponseError(f"{len(rsps)} responses for {len(cmds)} commands", -1)
        self._count(cmds, rsps)
        if check:
            for i, (c, r) in enumerate(zip(cmds, rsps, strict=True)):
                if r.status:
                    raise radix_error(r.status, c.op, i)
        return rsps

    # ---- single commands -----------------------------------------------------------
    def match(self, tokens: Sequence[int], ns: int = 0) -> Match:
        r = self._one(RadixCommand(RadixOp.MATCH, ns, [int(t) for t in tokens]))
        return Match(r.a, np.asarray(r.kvs, dtype=np.int64), r.b)

    def insert(self, tokens: Sequence[int], kv_indices: Sequence[int], ns: int = 0) -> Insert:
        r = self._one(RadixCommand(RadixOp.INSERT, ns, [int(t) for t in tokens],
                                   [int(k) for k in kv_indices]))
        return Insert(r.a, r.b)

    def evict(self, num_tokens: int) -> Evict:
        r = self._one(RadixCommand(RadixOp.EVICT, arg=int(num_tokens)))
        return Evict(np.asarray(r.kvs, dtype=np.int64), r.b)

    def lock(self, handle: int) -> int:
        """Lock the node and its ancestors; returns the change in evictable tokens."""
        return to_signed32(self._one(RadixCommand(RadixOp.LOCK, arg=handle)).a)

    def unlock(self, handle: int) -> int:
        return to_signed32(self._one(RadixCommand(RadixOp.UNLOCK, arg=handle)).a)

    def sizes(self) -> Sizes:
        r = self._one(RadixCommand(RadixOp.SIZES))
        return Sizes(r.a, r.b, r.c)

    def reset(self) -> None:
        self._one(RadixCommand(RadixOp.RESET))

    def close(self) -> None:
        self._be.close()  # type: ignore[attr-defined]

    def __enter__(self) -> RadixDevice:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ---- helpers -------------------------------------------------------------------
    def _one(self, cmd: RadixCommand) -> RadixRsp:
        return self.execute([cmd])[0]

    def _count(self, cmds: list[RadixCommand], rsps: list[RadixRsp]) -> None:
        k = self.counters
        k.calls += 1
        k.commands += len(cmds)
        for c, r in zip(cmds, rsps, strict=True):
            if r.status:
                name = str(r.status)
                k.refusals[name] = k.refusals.get(name, 0) + 1
            elif c.op == RadixOp.MATCH:
                k.match_tokens += len(c.tokens)
                k.hit_tokens += r.a
            elif c.op == RadixOp.EVICT:
                k.evicted_tokens += r.a

