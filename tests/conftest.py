# SPDX-License-Identifier: Apache-2.0
"""Runs the tests marked `slow` first. `make test` spreads pytest over two pytest-xdist
workers (scripts/run_tests.py, --dist loadgroup: one test per work unit, handed out in
collection order), so the two Yosys runs of the tops, about 300 s each, start on
different workers at once instead of one after the other at the end."""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)
