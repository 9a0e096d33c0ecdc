# SPDX-License-Identifier: Apache-2.0
"""uvm_env.radix.sig_check on a scripted core: the check passes a core that answers as
the Bloom filter does, and names each way a core can answer otherwise."""

from __future__ import annotations

from types import SimpleNamespace

from models.radix_signature import KIND_CHILD, KIND_EDGE, ReadSignature, key_of
from uvm_env.radix.sig_check import HIT_LATENCY, SignatureCheck


class _Sig:
    def __init__(self, value: int = 0) -> None:
        self.value = value


def _core() -> SimpleNamespace:
    names = ("sig_hit", "replay_go", "sig_clr", "sig_add", "sig_add_key", "sig_bc")
    core = SimpleNamespace(**{n: _Sig() for n in names})
    core.bc_key_q = [_Sig()]
    core.g_sig = SimpleNamespace(u_sig=SimpleNamespace(SigBits=_Sig(256), NumHash=_Sig(3),
                                                       KeyW=_Sig(32)))
    return core


def _run(cycles: list[dict[str, int]], reset_at: int | None = None) -> SignatureCheck:
    """Steps the check once per cycle with these signal values (others 0, adv 1), with
    rst_ni pulsed before cycle ``reset_at``."""
    core = _core()
    check = SignatureCheck(core)
    for i, values in enumerate(cycles):
        if i == reset_at:
            check.reset()
        for name in ("sig_hit", "replay_go", "sig_clr", "sig_add", "sig_add_key", "sig_bc"):
            getattr(core, name).value = values.get(name, 0)
        core.bc_key_q[0].value = values.get("bc_key", 0)
        check.step(i, bool(values.get("adv", 1)))
    return check


READ = key_of(KIND_EDGE, 7)
OTHER = key_of(KIND_CHILD, 12345)


def _walk(bc_key: int, hit: int, replay: int = 0) -> list[dict[str, int]]:
    """A walk that reads READ, a broadcast of bc_key answered with hit, then maybe a
    replay."""
    cycles: list[dict[str, int]] = [{"sig_clr": 1}, {"sig_add": 1, "sig_add_key": READ},
                                    {"sig_bc": 1, "bc_key": bc_key}]
    cycles += [{} for _ in range(HIT_LATENCY - 1)]
    cycles += [{"sig_hit": hit}, {"replay_go": replay}]
    return cycles


def test_exact_answers_pass_and_are_classed() -> None:
    sig = ReadSignature()
    sig.add(READ)
    assert not sig.may_hold(OTHER)    # so OTHER must miss
    check = _run(_walk(READ, hit=1, replay=1) + _walk(OTHER, hit=0))
    assert not check.errors
    assert check.summary() == {"broadcasts answered": 2, "true conflicts": 1,
                               "false alarms": 0, "walks hit": 1, "replays": 1}


def test_a_hit_the_filter_rules_out_fails() -> None:
    check = _run(_walk(OTHER, hit=1))
    assert any("gives 0" in e for e in check.errors)


def test_a_missed_key_the_walk_added_fails() -> None:
    check = _run(_walk(READ, hit=0))
    assert any("missed" in e for e in check.errors)


def test_a_replay_without_a_hit_fails() -> None:
    check = _run(_walk(OTHER, hit=0, replay=1))
    assert any("no hit" in e for e in check.errors)


def test_a_hit_with_no_broadcast_fails() -> None:
    check = _run([{"sig_clr": 1}, {}, {}, {"sig_hit": 1}])
    assert any("no broadcast" in e for e in check.errors)



def test_reset_drops_the_answer_in_flight_and_waits_for_a_clear() -> None:
    """rst_ni between a broadcast and its answer: the core's answer pipeline is cleared,
    so no answer comes; the model is the core's again only from the next clear."""
    check = _run(_walk(READ, hit=0)[:3] + [{}] * (HIT_LATENCY + 1), reset_at=3)
    assert not check.errors and not check.synced and check.asked == 0
