# SPDX-License-Identifier: Apache-2.0
"""A stand-in for XRT's pyxrt module, served by the ``sim`` card: what the xrt back end
calls (device, xclbin, kernel, bo, sync, run, wait, read_register) with the shapes pyxrt
has, the buffers living in the simulated DDR. ``install()`` puts it in sys.modules."""

from __future__ import annotations

import enum
import sys
import types
from pathlib import Path

from sglang_fpga.backends.sim import SimCard
from sglang_fpga.wire import FSM_ARGS, FSM_OUTS, RADIX_ARGS, RADIX_OUTS, result_offsets


class xclBOSyncDirection(enum.IntEnum):  # noqa: N801 - pyxrt's names
    XCL_BO_SYNC_BO_TO_DEVICE = 0
    XCL_BO_SYNC_BO_FROM_DEVICE = 1


class ert_cmd_state(enum.IntEnum):  # noqa: N801
    ERT_CMD_STATE_COMPLETED = 4
    ERT_CMD_STATE_ERROR = 5


class xclbin:  # noqa: N801
    def __init__(self, path: str) -> None:
        self.path = path


class device:  # noqa: N801
    def __init__(self, index: int) -> None:
        self.index = index
        self.card: SimCard | None = None
        self.root: Path | None = None

    def load_xclbin(self, xb: xclbin) -> str:
        return f"uuid-of-{Path(xb.path).name}"


class bo:  # noqa: N801
    normal = 0

    def __init__(self, dev: device, size: int, flags: int, group: int) -> None:
        assert dev.card is not None, "a kernel is opened before its buffers"
        self.size, self.group = size, group
        self.sim = dev.card.buffer(f"bo{id(self)}", size, group)
        self.shadow = bytearray(size)

    def write(self, data: bytes, offset: int) -> None:
        self.shadow[offset:offset + len(data)] = data

    def read(self, size: int, offset: int) -> memoryview:
        return memoryview(bytes(self.shadow[offset:offset + size]))

    def sync(self, direction: xclBOSyncDirection, size: int, offset: int) -> None:
        assert offset == 0
        if direction == xclBOSyncDirection.XCL_BO_SYNC_BO_TO_DEVICE:
            self.sim.write(bytes(self.shadow[:size]))
        else:
            self.shadow[:size] = self.sim.read(size)

    def address(self) -> int:
        return self.sim.address


class run:  # noqa: N801
    def __init__(self, state: ert_cmd_state) -> None:
        self.state = state

    def wait(self, timeout_ms: int = 0) -> ert_cmd_state:
        return self.state


class kernel:  # noqa: N801
    class cu_access_mode(enum.IntEnum):  # noqa: N801
        exclusive = 0
        shared = 1

    def __init__(self, dev: device, uuid: str, name: str, mode: int) -> None:
        which = {"krnl_radix": "radix", "krnl_fsm": "fsm"}[name]
        dev.card = SimCard(which, root=dev.root)
        CARDS.append(dev.card)
        self.card = dev.card
        n_args, n_outs = (FSM_ARGS, FSM_OUTS) if which == "fsm" else (RADIX_ARGS, RADIX_OUTS)
        self.regs = dict.fromkeys(result_offsets(n_args, n_outs), 0)
        self.status_or = 0          # tests set bits here to play a faulty card

    def group_id(self, arg: int) -> int:
        return 0

    def __call__(self, *args: object) -> run:
        values = [a.address() if isinstance(a, bo) else int(a) for a in args]  # type: ignore
        outs = self.card.run(values)
        outs[-1] |= self.status_or
        self.regs = dict(zip(self.regs, outs, strict=True))
        return run(ert_cmd_state.ERT_CMD_STATE_COMPLETED)

    def read_register(self, offset: int) -> int:
        return self.regs[offset]


CARDS: list[SimCard] = []   # every simulator started, for close_all()


def close_all() -> None:
    while CARDS:
        CARDS.pop().close()


def install() -> types.ModuleType:
    """Register this module as ``pyxrt``; returns it."""
    mod = sys.modules[__name__]
    sys.modules["pyxrt"] = mod
    return mod
