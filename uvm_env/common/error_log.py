# SPDX-License-Identifier: Apache-2.0
"""Errors a per-cycle check keeps in full, the first few also logged as they happen.

A check that runs every cycle fails the test at the end on all its errors; logging the
first ones when they happen puts them in the simulation log beside the transactions
around them, so the log shows where the first one fell against the scoreboard's first
mismatch."""

from __future__ import annotations

import logging

#: Errors logged when they happen; the rest are only kept.
LOGGED = 4


def log_error(errors: list[str], msg: str, log: logging.Logger) -> None:
    errors.append(msg)
    if len(errors) <= LOGGED:
        log.error(msg)
