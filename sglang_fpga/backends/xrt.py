# SPDX-License-Identifier: Apache-2.0
"""The ``xrt`` card: a kernel on a VCK5000 through XRT's Python binding, pyxrt.

Never run on a card: pyxrt ships with XRT, not on PyPI, and no card was available. The
tests run this module against a stand-in pyxrt whose buffers and runs are served by the
``sim`` card, so the call sequence is exercised, but XRT's own behaviour is not.

The sequence (docs/kernels.md): open the device, load the xclbin, open the kernel,
allocate each buffer in the memory bank of the argument it is passed as
(``kernel.group_id``), write and sync it to the device, run with the arguments, wait for
completion (the kernel's done interrupt), read the result registers, sync back and read
the output buffers."""

from __future__ import annotations

import importlib
from pathlib import Path

from ..errors import KernelError
from ..wire import FSM_ARGS, FSM_OUTS, RADIX_ARGS, RADIX_OUTS, result_offsets

KERNEL_NAMES = {"radix": "krnl_radix", "fsm": "krnl_fsm"}
RUN_TIMEOUT_MS = 10_000


class XrtBuffer:
    def __init__(self, xrt: object, bo: object, nbytes: int) -> None:
        self.xrt, self.bo, self.nbytes = xrt, bo, nbytes

    def write(self, data: bytes) -> None:
        self.bo.write(bytes(data), 0)  # type: ignore[attr-defined]
        self.bo.sync(self.xrt.xclBOSyncDirection.XCL_BO_SYNC_BO_TO_DEVICE,  # type: ignore
                     len(data), 0)

    def read(self, nbytes: int) -> bytes:
        if nbytes == 0:
            return b""
        self.bo.sync(self.xrt.xclBOSyncDirection.XCL_BO_SYNC_BO_FROM_DEVICE,  # type: ignore
                     nbytes, 0)
        return bytes(self.bo.read(nbytes, 0))  # type: ignore[attr-defined]


class XrtCard:
    def __init__(self, xclbin: Path, kernel: str, device_index: int,
                 params: dict[str, int]) -> None:
        try:
            self.xrt = importlib.import_module("pyxrt")
        except ImportError as exc:
            raise RuntimeError("the xrt back end needs pyxrt, which comes with XRT "
                               "(source /opt/xilinx/xrt/setup.sh)") from exc
        x = self.xrt
        self.params = dict(params)
        self.device = x.device(device_index)
        uuid = self.device.load_xclbin(x.xclbin(str(xclbin)))
        self.kernel = x.kernel(self.device, uuid, KERNEL_NAMES[kernel],
                               x.kernel.cu_access_mode.exclusive)
        n_args, n_outs = (FSM_ARGS, FSM_OUTS) if kernel == "fsm" else (RADIX_ARGS, RADIX_OUTS)
        self.outs = result_offsets(n_args, n_outs)
        self._buffers: dict[str, XrtBuffer] = {}

    def buffer(self, name: str, nbytes: int, arg: int) -> XrtBuffer:
        buf = self._buffers.get(name)
        if buf is None or buf.nbytes < nbytes:
            size = -(-max(nbytes, 64) // 4096) * 4096
            bo = self.xrt.bo(self.device, size, self.xrt.bo.normal, self.kernel.group_id(arg))
            buf = self._buffers[name] = XrtBuffer(self.xrt, bo, size)
        return buf

    def run(self, args: list[object]) -> list[int]:
        values = [a.bo if isinstance(a, XrtBuffer) else int(a) for a in args]  # type: ignore
        run = self.kernel(*values)
        state = run.wait(RUN_TIMEOUT_MS)
        done = self.xrt.ert_cmd_state.ERT_CMD_STATE_COMPLETED
        if state != done:
            raise KernelError(f"kernel run ended in state {state}", int(state))
        return [int(self.kernel.read_register(off)) for off in self.outs]

    def close(self) -> None:
        self._buffers.clear()
