# SPDX-License-Identifier: Apache-2.0
"""BenchConfig: every knob of a bench in one object, shared through ConfigDB."""

from __future__ import annotations

import os
import random
from dataclasses import dataclass, field
from pathlib import Path


def env_int(name: str, default: int) -> int:
    """Read an integer knob that the registry or the user put in the environment."""
    raw = os.environ.get(name)
    return default if raw in (None, "") else int(raw, 0)


@dataclass
class BenchConfig:
    seed: int
    n_items: int = 1000
    clk_period_ns: int = 10
    reset_cycles: int = 5
    timeout_us: int = 10_000
    # Probability that a source idles / a sink stalls on a given cycle.
    p_idle: float = 0.3
    p_stall: float = 0.3
    out_dir: Path = field(default_factory=lambda: Path(os.environ.get("SIM_OUT_DIR", ".")))
    rng: random.Random = field(init=False, repr=False)

    def __post_init__(self) -> None:
        # One generator per bench, derived from the replayable cocotb seed.
        self.rng = random.Random(self.seed)

    def child_rng(self, tag: str) -> random.Random:
        """An independent stream per user, so adding a user does not shift the others."""
        return random.Random(f"{self.seed}:{tag}")
