# SPDX-License-Identifier: Apache-2.0
"""RadixDriver: sends a command frame, waits for its response frame, hands both on.

The controller answers every command with exactly one response frame, in
order, so pairing by order is exact; a missing response ends in the test's
timeout rather than a silent pass.
"""

from __future__ import annotations

from cocotb.simtime import get_sim_time
from cocotbext.axi import AxiStreamFrame, AxiStreamSink, AxiStreamSource
from pyuvm import uvm_analysis_port, uvm_driver

from uvm_env.radix.protocol import OP_EVICT, OP_MATCH, decode_rsp


class RadixDriver(uvm_driver):
    source: AxiStreamSource
    sink: AxiStreamSink

    def build_phase(self) -> None:
        self.ap = uvm_analysis_port("ap", self)

    async def run_phase(self) -> None:
        while True:
            cmd = await self.seq_item_port.get_next_item()
            cmd.t_sent = get_sim_time("ns")
            await self.source.send(AxiStreamFrame(tdata=cmd.beats()))
            frame = await self.sink.recv()
            cmd.t_done = get_sim_time("ns")
            beats = list(frame.tdata)
            # The trailer says how many KV indices the data beats hold.
            t0 = beats[-2] if len(beats) >= 2 else 0
            kv_count = (t0 >> 32) if (t0 & 0xFF) in (OP_MATCH, OP_EVICT) else 0
            cmd.rsp = decode_rsp(beats, kv_count)
            self.ap.write(cmd)
            self.seq_item_port.item_done()
