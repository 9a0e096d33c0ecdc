# SPDX-License-Identifier: Apache-2.0
"""A second opinion on CAPACITY refusals that does not go through WalkPlan.

RadixPredictor asks RadixHw.fits() with the model's walk_plan(): a pure description of
where a MATCH/INSERT would split and add a leaf. A bug in walk_plan (or in how fits()
reads it) would make the predictor and the hardware agree on a wrong answer only if the
RTL had the same bug, but it would also hide a wrong refusal. This oracle instead applies
the command to a deep copy of the model and counts what actually appeared: the new
nodes (an upper half of a split has a child that existed before; a leaf has none), the
lines the new leaf needs, and the child-index entries the new nodes take, with the same
slot order the RTL uses (upper half first, from the top of the free stack).
"""

from __future__ import annotations

import copy

from models.radix_cache import RadixCache
from models.radix_hw import RadixHw, bucket_of, lines_of

# Deep-copying a big tree per command would dominate a run; beyond this the oracle
# abstains (it is a cross-check of the predictor, the scoreboard still checks the DUT).
MAX_NODES = 2048


def oracle_fits(model: RadixCache, hw: RadixHw, tokens: list[int], kvs: list[int],
                ns: int, op_insert: bool) -> bool | None:
    """Would the command fit, by applying it to a copy and counting; None: abstained."""
    if model.num_nodes() > MAX_NODES:
        return None
    before = {n.node_id for n in model.nodes()}
    m = copy.deepcopy(model)
    if op_insert:
        m.insert(tokens, kvs, ns)
    else:
        m.match_prefix(tokens, ns)
    new = [n for n in m.nodes() if n.node_id not in before]
    uppers = [n for n in new if any(c in before for c in n.child_ids)]
    leaves = [n for n in new if not n.child_ids]
    if len(new) > len(hw.free_slots):
        return False
    if sum(lines_of(0, len(n.key)) for n in leaves) > hw.free_lines:
        return False
    free = list(hw.free_slots)
    slot_of: dict[int, int] = {}
    for n in uppers + leaves:            # the RTL allocates the upper half first
        slot_of[n.node_id] = free.pop()
    used, stash = dict(hw.bucket_used), hw.geo.stash_depth - hw.stash_used
    page = hw.geo.page_size
    entries = []
    for n in uppers:                     # the cut-off child is re-keyed under the upper
        child = next(c for c in m.nodes() if c.node_id in n.child_ids and c.node_id in before)
        entries.append(bucket_of(ns, slot_of[n.node_id], child.key[:page],
                                 hw.geo.hash_buckets))
    for n in leaves:
        parent = slot_of.get(n.parent_id)
        if parent is None:
            parent = hw.slot(n.parent_id)
        entries.append(bucket_of(ns, parent, n.key[:page], hw.geo.hash_buckets))
    for b in entries:
        if used.get(b, 0) < hw.geo.hash_ways:
            used[b] = used.get(b, 0) + 1
        elif stash > 0:
            stash -= 1
        else:
            return False
    return True
