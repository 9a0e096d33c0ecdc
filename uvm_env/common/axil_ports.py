# SPDX-License-Identifier: Apache-2.0
"""An AXI4-Lite bus on ports named with direction suffixes (s_awaddr_i, s_awready_o), as
lowRISC-style RTL names them; cocotbext-axi's from_prefix expects bare names (s_awaddr).

The channel bus classes take their signal lists from class attributes, and cocotb_bus
accepts a dict there (attribute -> port name), so a subclass per channel maps each
attribute to its suffixed port; everything else in cocotbext-axi sees the usual names.
"""

from __future__ import annotations

from cocotbext.axi import AxiLiteBus
from cocotbext.axi.axil_channels import (
    AxiLiteARBus,
    AxiLiteAWBus,
    AxiLiteBBus,
    AxiLiteRBus,
    AxiLiteWBus,
)

# The signals a slave drives; every other channel signal is a slave input.
SLAVE_OUTPUTS = frozenset({"awready", "wready", "bresp", "bvalid", "arready", "rdata",
                           "rresp", "rvalid"})


def _suffixed(cls: type) -> type:
    def name(sig: str) -> str:
        return f"{sig}_{'o' if sig in SLAVE_OUTPUTS else 'i'}"

    return type(cls.__name__, (cls,), {
        "_signals": {s: name(s) for s in cls._signals},
        "_optional_signals": {s: name(s) for s in cls._optional_signals},
    })


def slave_bus(dut: object, prefix: str) -> AxiLiteBus:
    """The AXI4-Lite bus of a slave whose ports are <prefix>_<signal>_i / _o."""
    aw, w, b, ar, r = (_suffixed(c).from_prefix(dut, prefix) for c in (
        AxiLiteAWBus, AxiLiteWBus, AxiLiteBBus, AxiLiteARBus, AxiLiteRBus))
    return AxiLiteBus.from_channels(aw, w, b, ar, r)
