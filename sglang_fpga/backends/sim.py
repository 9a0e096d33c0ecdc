# SPDX-License-Identifier: Apache-2.0
"""The ``sim`` card: krnl_radix or krnl_fsm in Verilator, through cocotb, in a child
process. The host plays XRT: it writes buffers into the simulated DDR, sets the
arguments, starts the kernel and waits for its interrupt, all over a Unix socket to the
simulator (uvm_env/top/kernel_server.py serves it; scripts/sim_serve.py builds and starts
it). Exact and slow; it needs a checkout of the repository (RTL, build scripts) and its
development environment (``make setup``)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from ..errors import KernelError
from . import link

KERNELS = ("radix", "fsm")


def find_checkout(root: str | Path | None = None) -> Path:
    """``root``, else $SGLANG_FPGA_ROOT, else the checkout this package runs from."""
    for cand in (root, os.environ.get("SGLANG_FPGA_ROOT"), Path(__file__).resolve().parents[2]):
        if cand is not None and (Path(cand) / "rtl" / "top").is_dir():
            return Path(cand)
    raise FileNotFoundError("the sim back end needs a checkout of the sglang-fpga repository: "
                            "pass root= or set SGLANG_FPGA_ROOT")


class SimBuffer:
    def __init__(self, card: SimCard, address: int, nbytes: int) -> None:
        self.card, self.address, self.nbytes = card, address, nbytes

    def write(self, data: bytes) -> None:
        if len(data) > self.nbytes:
            raise ValueError(f"{len(data)} bytes into a buffer of {self.nbytes}")
        self.card.call({"op": "write", "addr": self.address}, bytes(data))

    def read(self, nbytes: int) -> bytes:
        return self.card.call({"op": "read", "addr": self.address, "n": nbytes})[1]


class SimCard:
    def __init__(self, kernel: str, root: str | Path | None = None,
                 params: dict[str, int] | None = None, start_timeout_s: float = 900.0) -> None:
        """``params`` override the kernel tests' build parameters (a separate build)."""
        if kernel not in KERNELS:
            raise ValueError(f"kernel {kernel!r}: one of {KERNELS}")
        self.root = find_checkout(root)
        self._dir = tempfile.TemporaryDirectory(prefix="sglang-fpga-sim-")
        path = str(Path(self._dir.name) / "sock")
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        listener.bind(path)
        listener.listen(1)
        listener.settimeout(1.0)
        self.log = Path(self._dir.name) / "serve.log"
        env = {**os.environ, "PYTHONPATH": str(self.root)}
        # The simulator runs in the checkout's development environment (cocotb, the
        # Verilator wrapper), which need not be the caller's.
        dev_python = self.root / ".venv" / "bin" / "python"
        python = str(dev_python) if dev_python.exists() else sys.executable
        self.proc = subprocess.Popen(
            [python, "-m", "scripts.sim_serve", "--kernel", kernel, "--socket", path,
             "--params", json.dumps(params or {})],
            cwd=self.root, env=env, stdin=subprocess.DEVNULL, stdout=self.log.open("w"),
            stderr=subprocess.STDOUT)
        deadline = time.monotonic() + start_timeout_s
        while True:
            try:
                self.sock, _ = listener.accept()
                break
            except TimeoutError:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    self.proc.kill()
                    raise RuntimeError(f"the {kernel} simulator did not start:\n"
                                       + self.log.read_text()[-3000:]) from None
        listener.close()
        self.sock.settimeout(None)
        hello, _ = link.recv(self.sock)
        self.params: dict[str, int] = {k: int(v) for k, v in hello["params"].items()}
        self.ram_bytes = int(hello["ram_bytes"])
        self._buffers: dict[str, SimBuffer] = {}
        self._next = 0
        self.cycles = 0      # kernel clock cycles of every run so far

    def buffer(self, name: str, nbytes: int, arg: int) -> SimBuffer:
        """A region of the simulated DDR, kept per name and grown (never moved back)."""
        buf = self._buffers.get(name)
        if buf is None or buf.nbytes < nbytes:
            size = -(-max(nbytes, 64) // 4096) * 4096
            if self._next + size > self.ram_bytes:
                raise KernelError(f"a {name} buffer of {nbytes} bytes does not fit the "
                                  f"simulated DDR ({self.ram_bytes} bytes): split the batch", 0)
            buf = self._buffers[name] = SimBuffer(self, self._next, size)
            self._next += size
        return buf

    def run(self, args: list[object]) -> list[int]:
        values = [a.address if isinstance(a, SimBuffer) else int(a) for a in args]  # type: ignore
        header, _ = self.call({"op": "run", "args": values})
        self.cycles += int(header["cycles"])  # type: ignore[call-overload]
        return [int(x) for x in header["outs"]]  # type: ignore[union-attr]

    def call(self, header: dict[str, object], payload: bytes = b"") -> tuple[dict, bytes]:
        link.send(self.sock, header, payload)
        reply, data = link.recv(self.sock)
        if reply.get("error"):
            raise KernelError(f"simulator: {reply['error']}", int(reply.get("status", -1)))
        return reply, data

    def close(self) -> None:
        if self.proc.poll() is None:
            try:
                link.send(self.sock, {"op": "close"})
                self.proc.wait(timeout=60)
            except (OSError, subprocess.TimeoutExpired):
                self.proc.kill()
                self.proc.wait()
        self.sock.close()
        self._dir.cleanup()
