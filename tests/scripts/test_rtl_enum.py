# SPDX-License-Identifier: Apache-2.0
"""uvm_env.common.sv_pkg.rtl_enum: the overlap monitor keys on radix_core's state
numbers, read from the RTL source so that a new state cannot shift them silently."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from uvm_env.common.sv_pkg import rtl_enum
from uvm_env.radix.core_states import (
    CORE_SV,
    PF_LWAIT,
    PF_PAGE,
    S_DECIDE,
    S_L_START,
    WALKING,
    in_state,
)


def test_reads_members_in_order_past_comments(tmp_path: Path) -> None:
    sv = tmp_path / "x.sv"
    sv.write_text("typedef enum logic [1:0] {A_ONE, // first\n  A_TWO, A_THREE} a_e;\n"
                  "typedef enum logic [2:0] { B_X, B_Y } b_e;\n")
    assert rtl_enum("A_ONE", sv) == {"A_ONE": 0, "A_TWO": 1, "A_THREE": 2}
    assert rtl_enum("B_X", sv) == {"B_X": 0, "B_Y": 1}


def test_missing_enum_and_explicit_values_raise(tmp_path: Path) -> None:
    sv = tmp_path / "x.sv"
    sv.write_text("typedef enum logic [1:0] {C_A = 2'd1, C_B} c_e;\n")
    with pytest.raises(LookupError):
        rtl_enum("NOPE", sv)
    with pytest.raises(ValueError):
        rtl_enum("C_A", sv)


def test_radix_core_states() -> None:
    states = rtl_enum("S_INIT", CORE_SV)
    names = list(states)
    # the decision follows the walk, and LOCK's walk starts after the eviction states
    assert names.index("S_DECIDE") == names.index("S_WALK") + 1
    assert S_DECIDE == names.index("S_DECIDE") and S_L_START == names.index("S_L_START")
    assert names.index("S_L_START") > names.index("S_E_UNLINK")
    assert states["S_INIT"] == 0 and len(states) <= 2 ** 6   # state_e is logic [5:0]
    assert WALKING == (1, 2, 3, 4)
    assert (PF_PAGE, PF_LWAIT) == (1, 2)


def test_one_hot_state_register_is_sized_by_the_last_state() -> None:
    # radix_core sizes its one-hot state_q from one enum member: a state added after
    # it would have no bit.
    names = list(rtl_enum("S_INIT", CORE_SV))
    sizing = re.search(r"NumStates\s*=\s*int'\((\w+)\)\s*\+\s*1\s*;", CORE_SV.read_text())
    assert sizing is not None
    assert sizing.group(1) == names[-1]


def test_in_state_reads_one_bit() -> None:
    value = 1 << S_L_START
    assert in_state(value, S_L_START)
    assert not in_state(value, S_DECIDE)
