# SPDX-License-Identifier: Apache-2.0
"""RadixRandomBase: the constrained-random test body every radix testpoint tunes."""

from __future__ import annotations

from uvm_env.common.checkpoints import Checkpoints
from uvm_env.common.config import env_int
from uvm_env.radix.radix_base_test import RadixBaseTest
from uvm_env.radix.radix_seqs import RandomOpsSeq

# RESET is rare: it empties the tree the other commands build up.
DEFAULT_MIX = {"match": 30, "insert": 30, "lock": 10, "unlock": 10, "evict": 12, "sizes": 3,
               "reset": 0.3}


class RadixRandomBase(RadixBaseTest):
    mix: dict[str, float] = DEFAULT_MIX
    p_error = 0.03
    alphabet = 4
    max_tokens = 40
    namespaces = 2
    p_long = 0.0

    def make_sequence(self, tag: str = "seq", n_ops: int | None = None) -> RandomOpsSeq:
        """One random sequence; ``tag`` names its random stream, so phases differ."""
        seq = RandomOpsSeq("random", self.env.scoreboard.pred, self.cfg.child_rng(tag),
                            n_ops=env_int("N_OPS", 500) if n_ops is None else n_ops,
                            weights=self.mix, p_error=self.p_error,
                            alphabet=self.alphabet, max_tokens=self.max_tokens,
                            namespaces=self.namespaces, p_long=self.p_long)
        seq.checkpoints = Checkpoints(self.snapshot)
        return seq

    async def snapshot(self, when: str) -> None:
        """Nothing in flight, then every CSR against the model."""
        await self.env.drain()
        await self.check_csrs(when)
