# SPDX-License-Identifier: Apache-2.0
"""AxisItem: one AXI-Stream frame as a list of beat words."""

from __future__ import annotations

from pyuvm import uvm_sequence_item


class AxisItem(uvm_sequence_item):
    def __init__(self, name: str = "axis_item", data: list[int] | None = None) -> None:
        super().__init__(name)
        self.data: list[int] = list(data or [])

    def __eq__(self, other: object) -> bool:
        return isinstance(other, AxisItem) and self.data == other.data

    def __str__(self) -> str:
        return f"AxisItem({[hex(d) for d in self.data]})"
