# SPDX-License-Identifier: Apache-2.0
"""The overlapped core's read signature, predicted from its own requests each cycle.

radix_core (Overlap = 1) clears its one walk context's signature when a walk starts,
adds each key the walk reads (a child-table bucket looked up, an edge compared) and
broadcasts each key a commit writes. read_sig_random proves the signature block alone;
this checks its use in the core, where a replay costs cycles but never an answer, so
the scoreboard cannot see a core that replays too often:

* every answer is exactly the Bloom answer of models.radix_signature for the keys the
  walk added (a core that flagged every walk, or that lost an answer, fails here);
* no broadcast of a key the walk added goes unanswered (no false negative);
* every replay follows a hit on the walk it repeats, so replays never exceed the hits.

Answers are classed as true conflicts (the walk's exact key set holds the key) or Bloom
false alarms, which gives the replay rate's two parts."""

from __future__ import annotations

import logging
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from models.radix_signature import ReadSignature
from uvm_env.common.error_log import log_error

_log = logging.getLogger("radix.sig_check")

#: The answer to a broadcast comes this many clock cycles after it (radix_read_sig).
HIT_LATENCY = 2


def _param(block: Any, name: str) -> int:
    try:
        return int(getattr(block, name).value)
    except AttributeError as exc:
        raise AttributeError(f"radix_read_sig parameter {name} is not visible to the "
                             "testbench") from exc


@dataclass
class _Ask:
    cycle: int
    key: int
    walk: int          # the walk (counted from its start) whose signature was asked
    predicted: bool    # the Bloom answer
    holds: bool        # the walk's exact key set holds the key


@dataclass
class SignatureCheck:
    """Stepped once per clock cycle (registers settled) by the ConflictChain, which
    numbers the cycles; see the module doc."""

    core: Any
    sig: ReadSignature = field(init=False)
    cycle: int = 0             # the cycle being stepped
    walk: int = 0              # walks started (each clear)
    synced: bool = False       # a clear has been seen, so the model is the core's
    true_hits: int = 0
    false_alarms: int = 0
    asked: int = 0
    replays: int = 0
    hit_walks: set[int] = field(default_factory=set)
    errors: list[str] = field(default_factory=list)
    _pending: deque[_Ask] = field(default_factory=deque)

    def __post_init__(self) -> None:
        block = self.core.g_sig.u_sig
        self.sig = ReadSignature(sig_bits=_param(block, "SigBits"),
                                 num_hash=_param(block, "NumHash"),
                                 key_w=_param(block, "KeyW"))

    def step(self, cycle: int, adv: bool) -> None:
        """``cycle``: the clock cycle's number (one more each cycle); ``adv``: the core
        advanced this cycle."""
        core = self.core
        self.cycle = cycle
        ask = (self._pending.popleft()
               if self._pending and self._pending[0].cycle == self.cycle - HIT_LATENCY
               else None)
        hit = bool(int(core.sig_hit.value))
        if ask is None:
            if hit and self.synced:
                log_error(self.errors, f"cycle {self.cycle}: a hit with no broadcast", _log)
        else:
            self._answer(ask, hit)
        if adv and int(core.replay_go.value) and self.synced:
            self.replays += 1
            if self.walk not in self.hit_walks:
                log_error(self.errors, f"cycle {self.cycle}: walk {self.walk} replayed "
                          "with no hit on it", _log)
        # This cycle's requests, in the block's order: clear, add, then the broadcast
        # sees both.
        if int(core.sig_clr.value):
            self.sig.clear()
            self.walk += 1
            self.synced = True
        if int(core.sig_add.value):
            self.sig.add(int(core.sig_add_key.value))
        if int(core.sig_bc.value) and self.synced:
            key = int(core.bc_key_q[0].value)
            self._pending.append(_Ask(self.cycle, key, self.walk, self.sig.may_hold(key),
                                      self.sig.holds(key)))

    def reset(self) -> None:
        """rst_ni: the core's signature and answer pipeline are cleared."""
        self._pending.clear()
        self.sig.clear()
        self.synced = False

    def _answer(self, ask: _Ask, hit: bool) -> None:
        self.asked += 1
        if hit != ask.predicted:
            log_error(self.errors, f"cycle {self.cycle}: key {ask.key:#010x} answered "
                      f"{int(hit)}, the signature of walk {ask.walk} gives "
                      f"{int(ask.predicted)}", _log)
        if ask.holds and not hit:
            log_error(self.errors, f"cycle {self.cycle}: key {ask.key:#010x}, read by walk "
                      f"{ask.walk}, missed", _log)
        if hit:
            self.hit_walks.add(ask.walk)
            if ask.holds:
                self.true_hits += 1
            else:
                self.false_alarms += 1

    def summary(self) -> dict[str, int]:
        return {"broadcasts answered": self.asked, "true conflicts": self.true_hits,
                "false alarms": self.false_alarms, "walks hit": len(self.hit_walks),
                "replays": self.replays}
