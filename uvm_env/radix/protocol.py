# SPDX-License-Identifier: Apache-2.0
"""Beat formats of the radix controller's streams (docs/radix-protocol.md), under the names
the radix bench uses. The encoders and decoders are the host's (sglang_fpga.wire), so every
radix simulation also tests what the driver sends and how it reads the answers.

Mirrors rtl/radix/radix_pkg.sv; tests/scripts/test_radix_protocol.py keeps the two equal.
"""

from __future__ import annotations

from sglang_fpga.wire import (  # noqa: F401  (re-exported for the bench)
    M32,
    RADIX_OP_NAMES,
    RADIX_ST_NAMES,
    TRAILER_BITS,
    RadixOp,
    RadixRsp,
    RadixStatus,
    data_beats,
    decode_rsp,
    encode_rsp,
    handle,
    header,
    pack_words,
    to_signed32,
    trailer_beats,
)
from uvm_env.radix.csr_regs import CSR  # noqa: F401  (generated from rtl/radix/radix_regs.yml)

OP_MATCH, OP_INSERT, OP_EVICT, OP_LOCK, OP_UNLOCK, OP_SIZES, OP_RESET = RadixOp
OP_NAMES, ST_NAMES = RADIX_OP_NAMES, RADIX_ST_NAMES
(ST_OK, ST_OPCODE, ST_LENGTH, ST_FRAMING, ST_KVCOUNT, ST_CAPACITY, ST_UNDERFLOW, ST_HANDLE,
 ST_NAMESPACE, ST_OVERFLOW, ST_MEMORY) = RadixStatus
