# SPDX-License-Identifier: Apache-2.0
"""Device faults as typed exceptions. Every refusal a core reports, every kernel status bit
and every malformed response buffer raises one of these, with the device's own status in
it, so a caller can never take a refused or lost command for a result."""

from __future__ import annotations

from .wire import FSM_ST_NAMES, RADIX_ST_NAMES, FsmStatus, RadixStatus


class DeviceError(RuntimeError):
    """A fault reported by (or about) a device. ``status`` is the device's code."""

    def __init__(self, message: str, status: int, op: int | None = None,
                 index: int | None = None) -> None:
        where = f" (command {index})" if index is not None else ""
        super().__init__(f"{message}{where}")
        self.status, self.op, self.index = status, op, index


class KernelError(DeviceError):
    """The kernel's status result flagged a buffer fault, or a run did not complete."""


class ResponseError(DeviceError):
    """The response buffer does not hold one well-formed answer per command."""


class RadixError(DeviceError):
    """The radix controller refused a command; nothing in the tree changed."""


class RadixCapacityError(RadixError):
    """No free node slot, token line or child-index entry for the command."""


class RadixHandleError(RadixError):
    """A stale or unknown node handle (the node was evicted or the tree reset)."""


class RadixLockError(RadixError):
    """UNLOCK below zero or LOCK past the 16-bit count on some node of the path."""


class RadixMemoryError(RadixError):
    """The controller's DDR (L2) tier failed: every command but RESET is refused until a
    RESET, after which the tree is empty and earlier handles are void."""


class RadixRequestError(RadixError):
    """A malformed request: opcode, length, namespace, KV count or framing."""


class FsmError(DeviceError):
    """The token-FSM validator refused a command."""


class FsmViolationError(FsmError):
    """The slot has already seen a token its grammar does not allow."""


class FsmSlotError(FsmError):
    """Slot out of range, or not bound to a loaded grammar."""


class FsmTokenError(FsmError):
    """A token id outside the grammar's vocabulary."""


class FsmLoadError(FsmError):
    """The loader refused a table image (length, magic, version, CRC, dimensions, fit)."""


class FsmRequestError(FsmError):
    """An unknown opcode."""


_RADIX = {RadixStatus.CAPACITY: RadixCapacityError, RadixStatus.HANDLE: RadixHandleError,
          RadixStatus.UNDERFLOW: RadixLockError, RadixStatus.OVERFLOW: RadixLockError,
          RadixStatus.MEMORY: RadixMemoryError}
_FSM = {FsmStatus.VIOLATED: FsmViolationError, FsmStatus.SLOT: FsmSlotError,
        FsmStatus.GRAMMAR: FsmSlotError, FsmStatus.TOKEN: FsmTokenError,
        FsmStatus.OPCODE: FsmRequestError}


def radix_error(status: int, op: int, index: int | None = None) -> RadixError:
    cls = _RADIX.get(status, RadixRequestError)   # type: ignore[call-overload]
    name = RADIX_ST_NAMES.get(status, hex(status))
    return cls(f"radix controller refused op {op:#x}: {name}", status, op, index)


def fsm_error(status: int, op: int, index: int | None = None) -> FsmError:
    cls = FsmLoadError if status in FSM_ST_NAMES and FSM_ST_NAMES[status].startswith(
        "LD_") else _FSM.get(status, FsmRequestError)   # type: ignore[call-overload]
    name = FSM_ST_NAMES.get(status, hex(status))
    return cls(f"token-FSM validator refused op {op:#x}: {name}", status, op, index)
