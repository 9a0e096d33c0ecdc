# SPDX-License-Identifier: Apache-2.0
"""R2sScoreboard: generated regex FSMs against the `regex` package, byte by byte.

After every byte of a string, for every generated module:
  accept_o == regex.fullmatch(pattern, prefix, flags=regex.ASCII) is not None
    (a prefix that is not well-formed UTF-8 is never accepted);
  reject_o == no continuation can match, i.e. fullmatch(..., partial=True) is None
    when the prefix decodes; mid-character it is compared with the model's DFA.
"""

from __future__ import annotations

import regex

from models.regex_dfa import ByteDFA
from uvm_env.common.scoreboard_base import ScoreboardBase


class R2sScoreboard(ScoreboardBase):
    patterns: list[tuple[str, str]]      # (module name, pattern), in DUT bit order
    dfas: list[ByteDFA]

    def build_phase(self) -> None:
        super().build_phase()
        self.compiled = [regex.compile(p, flags=regex.ASCII) for _, p in self.patterns]
        self.strings = 0
        self.accepts = [0] * len(self.patterns)

    def expected(self, i: int, prefix: bytes) -> tuple[bool, bool]:
        try:
            text = prefix.decode("utf-8")
        except UnicodeDecodeError:
            text = None
        if text is not None:
            acc = self.compiled[i].fullmatch(text) is not None
            dead = self.compiled[i].fullmatch(text, partial=True) is None
            return acc, dead
        dfa = self.dfas[i]
        return False, dfa.run(dfa.start, prefix) < 0

    def check_prefix(self, prefix: bytes, accept: int, reject: int) -> None:
        for i, (name, _) in enumerate(self.patterns):
            exp_acc, exp_dead = self.expected(i, prefix)
            got = (bool(accept >> i & 1), bool(reject >> i & 1))
            if not self.compare(f"{name} after {prefix[-24:]!r} ({len(prefix)} bytes) "
                                "(accept, reject)", (exp_acc, exp_dead), got):
                return
            self.accepts[i] += got[0] and len(prefix) > 0
