# SPDX-License-Identifier: Apache-2.0
"""The token-FSM core's cycle model (docs/fsm-protocol.md, "Pipeline and cycle model") as
bounds on fsm_bench's measurements. Cycle counts are exact for a design and seed, so
these are structural checks, not timing tests."""

from __future__ import annotations

from uvm_env.common.cycle_bounds import CycleBounds

ADVANCE_LATENCY = 6        # command accepted -> result valid, idle core (I, S0..S5)
VALIDATE_RESULT_LAG = 6    # last token beat -> result
MASK_FIRST_BEAT = 4        # command accepted -> beat 0 (I, S0, S1 hand-over, read)
IN_REG_BEATS = 1           # beats the input register takes ahead of S0


def check(res: dict, bounds: CycleBounds | None = None) -> CycleBounds:
    """Hold fsm_bench's result dict to the model."""
    b = bounds or CycleBounds()
    b.at_most("ADVANCE latency, cycles", res["advance_latency_cycles"], ADVANCE_LATENCY)
    b.at_least("ADVANCE on distinct slots, commands per cycle",
               res["advance_distinct_slots"]["commands_per_cycle"], 1.0)
    b.at_most("ADVANCE on one slot, cycles per command",
              res["advance_same_slot"]["cycles_per_command"], 1.0)
    b.at_most("VALIDATE, cycles per token", res["validate"]["cycles_per_token"], 1.0)
    b.at_most("VALIDATE, result after the last token",
              res["validate"]["latency_after_last_token"], VALIDATE_RESULT_LAG)
    m = res["mask"]
    beats = m["beats_per_mask"]
    b.at_most("MASK, first beat after the command", m["latency_to_first_beat"],
              MASK_FIRST_BEAT)
    b.at_most("MASK, cycles per mask on an idle core", m["cycles_per_mask_idle_core"],
              beats + MASK_FIRST_BEAT)
    b.at_least("MASK back to back, beats per cycle", m["back_to_back_beats_per_cycle"], 1.0)
    for k, mb in res["mask_batch"].items():
        b.exactly(f"MASK_BATCH of {k}, beats", mb["beats"], int(k) * beats)
        b.at_most(f"MASK_BATCH of {k}, command to last beat", mb["cycles"],
                  int(k) * beats + MASK_FIRST_BEAT)
        b.at_most(f"MASK_BATCH of {k}, first to last beat (no bubble)",
                  mb["beat_span_cycles"], mb["beats"])
    b.at_most("table load, cycles per beat", res["load"]["cycles_per_beat"], 1.0)
    return b
