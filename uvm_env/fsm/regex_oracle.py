# SPDX-License-Identifier: Apache-2.0
"""RegexOracle: verdicts and mask bits from ``regex.fullmatch`` on detokenised text.

Independent of the compiled tables: it never looks at the byte DFA, the token
classes or the image, only at the grammar's pattern and its vocabulary's token
bytes. Per slot it keeps the text the slot has accepted since BIND / RESET_SLOT
and whether EOS ended it. A token is allowed iff

* the slot has not taken EOS yet, and
* EOS: the text so far fullmatches the pattern;
* a special or empty token: never (the protocol's rule, docs/fsm-protocol.md);
* otherwise: text + token bytes is well-formed UTF-8 and
  ``regex.fullmatch(pattern, text, partial=True, flags=regex.ASCII)`` matches
  (the text can still be completed to a match).

Text that ends inside a multi-byte UTF-8 character cannot be given to the
regex engine; such a check is skipped and counted (``skipped``), and the
slot's text follows the core's verdict there.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import regex

from models.vocab import Vocabulary


@dataclass
class _Text:
    grammar: int
    data: bytes = b""
    done: bool = False


@dataclass
class OracleGrammar:
    pattern: str
    vocab: Vocabulary
    compiled: regex.Pattern = field(init=False)

    def __post_init__(self) -> None:
        self.compiled = regex.compile(self.pattern, flags=regex.ASCII)


class RegexOracle:
    """``sample``: mask bits checked per mask (all of them when V <= sample)."""

    def __init__(self, sample: int, rng: random.Random) -> None:
        self.sample, self.rng = sample, rng
        self.grammars: dict[int, OracleGrammar] = {}
        self.slots: dict[int, _Text] = {}
        self.checks = 0          # verdicts and mask bits compared
        self.skipped = 0         # undecidable (text ends inside a UTF-8 character)

    # ---- grammar and slot life cycle ----------------------------------------------
    def load(self, gid: int, pattern: str | None, vocab: Vocabulary | None) -> None:
        """A grammar was (re)loaded: its slots are gone; no pattern = not checked."""
        self.slots = {k: v for k, v in self.slots.items() if v.grammar != gid}
        self.grammars.pop(gid, None)
        if pattern is not None and vocab is not None:
            self.grammars[gid] = OracleGrammar(pattern, vocab)

    def start(self, slot: int, gid: int) -> None:
        """BIND or RESET_SLOT with status OK."""
        if gid in self.grammars:
            self.slots[slot] = _Text(gid)
        else:
            self.slots.pop(slot, None)

    def tracks(self, slot: int) -> bool:
        return slot in self.slots

    # ---- verdicts ----------------------------------------------------------------
    def allowed(self, slot: int, token: int) -> bool | None:
        """Whether ``token`` is allowed next on ``slot``; None if undecidable."""
        t = self.slots[slot]
        return self._allowed(self.grammars[t.grammar], t, token)

    def take(self, slot: int, token: int) -> None:
        """The slot accepted ``token``."""
        t = self.slots[slot]
        v = self.grammars[t.grammar].vocab
        if token == v.eos_id:
            t.done = True
        else:
            t.data += v.tokens[token]

    def first_violation(self, slot: int, tokens: list[int],
                        core_first: int | None) -> tuple[int | None, bool]:
        """Index of the first token not allowed (None: all allowed) without changing the
        slot, and whether every verdict was decidable. Where undecidable the core's
        first violation (``core_first``) decides, so the walk can go on."""
        t = self.slots[slot]
        g = self.grammars[t.grammar]
        probe = _Text(t.grammar, t.data, t.done)
        decided = True
        for i, tok in enumerate(tokens):
            ok = self._allowed(g, probe, tok)
            if ok is None:
                decided = False
                ok = core_first != i
            if not ok:
                return i, decided
            if tok == g.vocab.eos_id:
                probe.done = True
            else:
                probe.data += g.vocab.tokens[tok]
        return None, decided

    def mask_ids(self, slot: int, allowed_ids: list[int]) -> list[int]:
        """Token ids whose mask bits to check: every id for a small vocabulary, else a
        sample: half from ``allowed_ids`` (the core's ones), half uniform."""
        n = len(self.grammars[self.slots[slot].grammar].vocab)
        if n <= self.sample:
            return list(range(n))
        half = self.sample // 2
        ids = set(self.rng.sample(allowed_ids, min(half, len(allowed_ids))))
        while len(ids) < self.sample:
            ids.add(self.rng.randrange(n))
        return sorted(ids)

    def _allowed(self, g: OracleGrammar, t: _Text, token: int) -> bool | None:
        if t.done:
            return False
        v = g.vocab
        if token == v.eos_id:
            text = _decode(t.data)      # ill-formed or cut UTF-8 never fullmatches
            return text is not None and g.compiled.fullmatch(text) is not None
        if token in v.special or not v.tokens[token]:
            return False
        data = t.data + v.tokens[token]
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as e:
            if e.reason != "unexpected end of data":
                return False         # ill-formed UTF-8 never matches
            # Ends inside a character: refuted if the whole characters before it are
            # no prefix of a match; otherwise undecidable here.
            head = _decode(data[:e.start])
            if head is None or g.compiled.fullmatch(head, partial=True) is None:
                return False
            return None
        return g.compiled.fullmatch(text, partial=True) is not None


def _decode(data: bytes) -> str | None:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None
