# SPDX-License-Identifier: Apache-2.0
"""Pieces every bench reuses: base test, stream agents, scoreboard base, coverage."""
