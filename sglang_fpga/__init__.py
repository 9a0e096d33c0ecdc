# SPDX-License-Identifier: Apache-2.0
"""Host software for the sglang-fpga cores: the radix KV-cache controller and the token-FSM
validator.

* ``RadixDevice`` and ``FsmDevice``: one driver API over three back ends, ``model`` (the
  golden models in process), ``sim`` (the RTL kernels in Verilator; needs a checkout of
  the repository) and ``xrt`` (a card through XRT's pyxrt);
* ``sglang_fpga.compiler``: regex / JSON schema -> token-FSM table image (and its CLI,
  ``sglang-fpga-compile``); ``sglang_fpga.regex2sv``: regex -> SystemVerilog;
* ``sglang_fpga.models``: the golden models; ``sglang_fpga.wire``: the bytes on the wire;
* ``sglang_fpga.sglang``: SGLang plug-ins (extra ``[sglang]``).
"""

from .backends.fsm_model import FsmGeometry
from .backends.radix_model import RadixGeometry
from .errors import (
    DeviceError,
    FsmError,
    FsmLoadError,
    FsmSlotError,
    FsmTokenError,
    FsmViolationError,
    KernelError,
    RadixCapacityError,
    RadixError,
    RadixHandleError,
    RadixLockError,
    RadixMemoryError,
    RadixRequestError,
    ResponseError,
)
from .fsm_device import FsmDevice, SlotState
from .radix_device import RadixDevice

__version__ = "0.1.0"
__all__ = ["DeviceError", "FsmDevice", "FsmError", "FsmGeometry", "FsmLoadError",
           "FsmSlotError", "FsmTokenError", "FsmViolationError", "KernelError",
           "RadixCapacityError", "RadixDevice", "RadixError", "RadixGeometry",
           "RadixHandleError", "RadixLockError", "RadixMemoryError", "RadixRequestError",
           "ResponseError",
           "SlotState"]
