# SPDX-License-Identifier: Apache-2.0
"""L1TagModel: the L1 cache's replacement policy, worked by hand and against true LRU."""

from __future__ import annotations

from collections import OrderedDict

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from uvm_env.radix.l1_tag_model import L1TagModel, Outcome

# 8-byte entries: 8 per 64-byte line, so entry 8 * line is the first of a line.
EB = 8


def line(n: int) -> int:
    return 8 * n


def read(m: L1TagModel, n: int) -> Outcome:
    return m.access(re=True, raddr=line(n), we=False, waddr=0, flush=False)


def write(m: L1TagModel, n: int) -> Outcome:
    return m.access(re=False, raddr=0, we=True, waddr=line(n), flush=False)


def test_fills_take_the_lowest_invalid_way() -> None:
    m = L1TagModel(sets=2, ways=4, entry_bytes=EB)
    for n in (0, 2, 4):                  # lines 0, 2, 4 all map to set 0
        read(m, n)
    assert m.tag[0] == [0, 1, 2, None]


def test_tree_plru_victim_by_hand() -> None:
    # Fills 0..3 into ways 0..3; the tree then points away from way 3 (the last touch)
    # to way 0. Touching way 0 sends the root to the upper half, whose node points at 2.
    m = L1TagModel(sets=2, ways=4, entry_bytes=EB)
    for n in (0, 2, 4, 6):
        read(m, n)
    read(m, 0)
    out = read(m, 8)
    assert (out.hits, out.misses) == (0, 1)
    assert m.tag[0] == [0, 1, 4, 3]      # line 4 (tag 2) was way 2's; tag 4 is line 8


def test_write_allocates_dirty_and_is_written_back() -> None:
    m = L1TagModel(sets=2, ways=1, entry_bytes=EB)
    assert (write(m, 0).misses, write(m, 0).hits) == (1, 1)
    out = read(m, 2)                     # same set, direct-mapped: evicts dirty line 0
    assert (out.misses, out.wbs) == (1, 1)
    assert read(m, 0).wbs == 0           # line 2 was filled by a read: clean


def test_write_hit_does_not_touch_recency() -> None:
    m = L1TagModel(sets=2, ways=2, entry_bytes=EB)
    read(m, 0)
    read(m, 2)
    write(m, 0)                          # a write hit: way 0 stays least recent
    read(m, 4)
    assert m.tag[0] == [2, 1]


def test_read_and_write_of_one_line_in_one_request() -> None:
    m = L1TagModel(sets=2, ways=2, entry_bytes=EB)
    out = m.access(re=True, raddr=line(0), we=True, waddr=line(0) + 3, flush=False)
    assert (out.hits, out.misses, out.wbs) == (1, 1, 0)
    assert m.dirty[0][0]


def test_flush_writes_back_each_dirty_line_once() -> None:
    m = L1TagModel(sets=2, ways=2, entry_bytes=EB)
    for n in (0, 1, 2):
        write(m, n)
    out = m.access(re=False, raddr=0, we=False, waddr=0, flush=True)
    assert out.wbs == 3
    assert m.access(re=False, raddr=0, we=False, waddr=0, flush=True).wbs == 0
    m.clear()
    assert read(m, 0).misses == 1


@pytest.mark.parametrize("sets, ways", [(3, 2), (1, 2), (4, 3)])
def test_rejects_geometry_the_rtl_refuses(sets: int, ways: int) -> None:
    with pytest.raises(ValueError):
        L1TagModel(sets=sets, ways=ways, entry_bytes=EB)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.booleans(), st.integers(0, 15)), max_size=120))
def test_two_ways_is_true_lru(ops: list[tuple[bool, int]]) -> None:
    """With two ways tree pseudo-LRU is exact LRU over fills and read hits."""
    m = L1TagModel(sets=2, ways=2, entry_bytes=EB)
    lru: list[OrderedDict[int, bool]] = [OrderedDict(), OrderedDict()]
    for is_write, n in ops:
        s = n % 2
        hit = n in lru[s]
        wb = False
        if hit and not is_write:
            lru[s].move_to_end(n)
        elif hit:
            lru[s][n] = True
        else:
            if len(lru[s]) == 2:
                _, wb = lru[s].popitem(last=False)
            lru[s][n] = is_write
        out = write(m, n) if is_write else read(m, n)
        assert (out.hits, out.misses, out.wbs) == (int(hit), int(not hit), int(wb))
