# SPDX-License-Identifier: Apache-2.0
"""Read the integer localparams of a SystemVerilog package, so that tests can hold the
Python side of a protocol (uvm_env/<blk>/protocol.py) equal to the RTL package."""

from __future__ import annotations

import re
from pathlib import Path

_DECL = re.compile(r"localparam\s+(?:int|logic\s*\[[^\]]+\])\s+(\w+)\s*=\s*([^;]+);")


def localparams(path: Path) -> dict[str, int]:
    """Every `localparam int|logic [..] NAME = value;` whose value is a literal, an
    earlier name, or a sum of two of those."""
    out: dict[str, int] = {}
    for name, value in _DECL.findall(path.read_text()):
        value = value.strip()
        hexa = re.fullmatch(r"(?:\d+)?'[hH]([0-9a-fA-F_]+)", value)
        if hexa:
            out[name] = int(hexa.group(1).replace("_", ""), 16)
        elif re.fullmatch(r"(?:\d+)?'[dD]?(\d+)", value):
            out[name] = int(re.sub(r".*'[dD]?", "", value))
        elif value.isdigit():
            out[name] = int(value)
        elif value in out:
            out[name] = out[value]
        elif "+" in value:
            a, b = (v.strip() for v in value.split("+"))
            if a in out and b in out:
                out[name] = out[a] + out[b]
    return out
