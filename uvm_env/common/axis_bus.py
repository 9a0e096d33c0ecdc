# SPDX-License-Identifier: Apache-2.0
"""Bind cocotbext-axi stream models to ports named in the lowRISC style."""

from __future__ import annotations

from typing import Any

from cocotbext.axi import AxiStreamBus

_AXIS_SIGNALS = ("tdata", "tvalid", "tready", "tlast", "tkeep", "tuser", "tid", "tdest")


def axis_bus(dut: Any, signals: dict[str, str]) -> AxiStreamBus:
    """An AxiStreamBus over arbitrary port names, e.g. {"tvalid": "in_valid_i", ...}.

    cocotbext-axi expects `<prefix>_tvalid`; our ports carry _i/_o suffixes, so the
    mapping is explicit. Unknown logical names are refused rather than ignored.
    """
    unknown = set(signals) - set(_AXIS_SIGNALS)
    if unknown:
        raise ValueError(f"not AXI-Stream signals: {sorted(unknown)}")
    required = {k: v for k, v in signals.items() if k in ("tdata", "tvalid")}
    optional = {k: v for k, v in signals.items() if k not in required}
    # cocotb_bus.Bus accepts dicts of logical name -> port name; a nameless bus
    # uses the port names as given.
    mapped = type("MappedAxiStreamBus", (AxiStreamBus,),
                  {"_signals": required, "_optional_signals": optional})
    return mapped(dut, None)


def axis_ports(dut: Any, prefix: str, direction: str) -> AxiStreamBus:
    """Bus for ports `<prefix>_t<sig>_<i|o>`.

    direction is "in" for a stream the DUT consumes, "out" for one it produces.
    """
    fwd, back = ("i", "o") if direction == "in" else ("o", "i")
    names = {}
    for sig in _AXIS_SIGNALS:
        suffix = back if sig == "tready" else fwd
        port = f"{prefix}_{sig}_{suffix}"
        if hasattr(dut, port):
            names[sig] = port
    return axis_bus(dut, names)


def lane_bits(bus: AxiStreamBus) -> int:
    """cocotbext-axi's byte_size for a bus: 8 with tkeep, else the whole tdata word.

    Without tkeep, cocotbext-axi would still split tdata into 8-bit lanes and
    silently truncate any frame element above 255; one lane per beat makes a
    frame a list of whole words.
    """
    return 8 if hasattr(bus, "tkeep") else len(bus.tdata)
