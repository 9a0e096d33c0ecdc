# SPDX-License-Identifier: Apache-2.0
"""radix_core's state numbers, read from the RTL source (so a new state cannot shift
them under a monitor that keys on them). The sequencer's state register is one-hot:
bit S of state_q is set in state S."""

from __future__ import annotations

from pathlib import Path

from uvm_env.common.sv_pkg import rtl_enum

CORE_SV = Path(__file__).resolve().parents[2] / "rtl" / "radix" / "radix_core.sv"

_WALK = rtl_enum("W_IDLE", CORE_SV)
_STATE = rtl_enum("S_INIT", CORE_SV)
#: radix_core's walk states between W_START and W_DRAIN (walk_e): a walk in progress.
WALKING = tuple(range(_WALK["W_START"], _WALK["W_DRAIN"] + 1))
#: radix_core's sequencer states (state_e) the monitor keys on.
S_DECIDE, S_L_START = _STATE["S_DECIDE"], _STATE["S_L_START"]


def in_state(state_q: int, state: int) -> bool:
    """Whether the one-hot sequencer state register's value state_q is in state."""
    return bool((state_q >> state) & 1)


_PF = rtl_enum("PF_IDLE", CORE_SV)
#: the walker's lookup FSM (pf_state_e): the page is read, then the lookup waits
PF_PAGE, PF_LWAIT = _PF["PF_PAGE"], _PF["PF_LWAIT"]
