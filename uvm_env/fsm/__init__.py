# SPDX-License-Identifier: Apache-2.0
"""pyuvm environment of the token-FSM validator (rtl/fsm, docs/fsm-protocol.md)."""
