# SPDX-License-Identifier: Apache-2.0
"""Serves a kernel (krnl_radix or krnl_fsm) to the host driver's ``sim`` back end.

Not a test: ``serve`` connects to the socket in $SGLANG_FPGA_SOCKET, says which
parameters the DUT was built with, then does what it is asked (write DDR, read DDR, run
the kernel with arguments) until told to close. The simulation stands still between
requests. scripts/sim_serve.py builds the kernel and starts this.
"""

from __future__ import annotations

import os
import socket

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, with_timeout
from cocotb.utils import get_sim_time

from sglang_fpga.backends import link
from sglang_fpga.wire import FSM_ARGS, FSM_OUTS, RADIX_ARGS, RADIX_OUTS
from uvm_env.top.kernel_host import KernelHost

RAM_BYTES = 1 << 24
CLOCK_NS = 10
RUN_TIMEOUT_US = 200_000
_PARAMS = ("NodeCap", "TokenCap", "MaxLen", "PageSize", "NumNs", "HashBuckets", "HashWays",
           "StashDepth", "VocabMax", "ClassW", "StateW", "RowW", "NsCap", "RowCap", "NSlots",
           "NGrammars", "L2", "L1Lines", "L1Ways", "L2Timeout", "L2Prefetch")


@cocotb.test()
async def serve(dut: object) -> None:
    fsm = os.environ["SGLANG_FPGA_KERNEL"] == "fsm"
    clock, reset = dut.ap_clk, dut.ap_rst_n
    cocotb.start_soon(Clock(clock, CLOCK_NS, unit="ns").start())
    reset.value = 0
    await ClockCycles(clock, 10)
    reset.value = 1
    await ClockCycles(clock, 2)
    host = KernelHost(dut, clock, reset, RAM_BYTES,
                      num_args=FSM_ARGS if fsm else RADIX_ARGS,
                      num_outs=FSM_OUTS if fsm else RADIX_OUTS,
                      masters=("m_axi_gmem", "m_axi_gmem1") if fsm else ("m_axi_gmem", "m_axi_l2"))
    params = {p: int(getattr(dut, p).value) for p in _PARAMS if hasattr(dut, p)}
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.connect(os.environ["SGLANG_FPGA_SOCKET"])
    link.send(sock, {"params": params, "ram_bytes": RAM_BYTES})
    while True:
        req, data = link.recv(sock)
        if req["op"] == "close":
            break
        if req["op"] == "write":
            host.ram.write(int(req["addr"]), data)
            link.send(sock, {})
        elif req["op"] == "read":
            link.send(sock, {}, host.ram.read(int(req["addr"]), int(req["n"])))
        elif req["op"] == "run":
            start = get_sim_time("ns")
            try:
                outs = await with_timeout(host.run([int(a) for a in req["args"]]),
                                          RUN_TIMEOUT_US, "us")
            except TimeoutError:
                link.send(sock, {"error": f"no ap_done within {RUN_TIMEOUT_US} us"})
                continue
            # Clock cycles from the first argument write to the results read back: what a
            # host waits on the card, less the PCIe and driver time.
            link.send(sock, {"outs": outs, "cycles": int(get_sim_time("ns") - start) // CLOCK_NS})
        else:
            link.send(sock, {"error": f"unknown request {req['op']!r}"})
    sock.close()
