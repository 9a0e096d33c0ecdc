# SPDX-License-Identifier: Apache-2.0
"""Beat formats of the token-FSM validator's streams (docs/fsm-protocol.md), under the names
the fsm bench uses. The encoders and decoders are the host's (sglang_fpga.wire), so every
fsm simulation also tests what the driver sends and how it reads the answers.

Mirrors rtl/fsm/fsm_pkg.sv; tests/scripts/test_fsm_protocol.py keeps the two equal.
"""

from __future__ import annotations

from sglang_fpga.wire import (  # noqa: F401  (re-exported for the bench)
    FSM_CMD_ERRORS,
    FSM_CMD_W,
    FSM_LOAD_ERRORS,
    FSM_NUM_STATUS,
    FSM_OP_NAMES,
    FSM_RSP_W,
    FSM_ST_NAMES,
    M32,
    MASK_OPS,
    MAX_BATCH,
    NO_VIOLATION,
    FsmOp,
    FsmRsp,
    FsmStatus,
    cmd_beat,
    fsm_command_beats,
    mask_beats,
    mask_to_int,
    slot_beat,
    token_beat,
)

# The register map is generated from rtl/fsm/fsm_regs.yml (make regs).
from uvm_env.fsm.csr_regs import CSR, CSR_ERR_BASE, CSR_WORDS, FSM_ID  # noqa: F401

(OP_BIND, OP_ADVANCE, OP_VALIDATE, OP_MASK, OP_RESET, OP_QUERY, OP_LOAD,
 OP_MASK_BATCH) = FsmOp
OP_NAMES, ST_NAMES = FSM_OP_NAMES, FSM_ST_NAMES
ST_OK, ST_OPCODE, ST_SLOT, ST_GRAMMAR, ST_VIOLATED, ST_TOKEN = list(FsmStatus)[:6]
(ST_LD_LENGTH, ST_LD_MAGIC, ST_LD_VERSION, ST_LD_HDR_CRC, ST_LD_PAY_CRC, ST_LD_DIMS,
 ST_LD_CAPACITY) = FSM_LOAD_ERRORS
CMD_ERRORS, LOAD_ERRORS, NUM_STATUS = FSM_CMD_ERRORS, FSM_LOAD_ERRORS, FSM_NUM_STATUS
CMD_W, RSP_W = FSM_CMD_W, FSM_RSP_W
