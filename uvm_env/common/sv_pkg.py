# SPDX-License-Identifier: Apache-2.0
"""Read integer localparams and enum numbering from SystemVerilog source, so that tests
and monitors hold their Python side of a protocol (uvm_env/<blk>/protocol.py) or a
state number equal to the RTL's."""

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


def rtl_enum(first: str, path: Path) -> dict[str, int]:
    """The values of the enum in ``path`` whose first member is ``first``, numbered in
    order (explicit values are refused rather than guessed)."""
    text = re.sub(r"//[^\n]*", "", path.read_text())
    m = re.search(r"typedef\s+enum\s+logic\s*\[[^]]*\]\s*\{\s*(" + re.escape(first)
                  + r"\b[^}]*)\}", text)
    if m is None:
        raise LookupError(f"no enum starting with {first} in {path}")
    names = [n.strip() for n in m.group(1).split(",")]
    if any("=" in n for n in names):
        raise ValueError(f"enum {first}: explicit values are not supported")
    return {name: i for i, name in enumerate(names)}
