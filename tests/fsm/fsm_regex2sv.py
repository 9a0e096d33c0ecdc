# SPDX-License-Identifier: Apache-2.0
"""fsm_regex2sv: modules from scripts/regex2sv.py against regex.fullmatch, byte by byte.

The DUT (fsm_regex2sv_top, generated with its modules when the test is built;
see GeneratedSimTest in scripts/regex2sv.py) runs every pattern of REGEXES on
one byte stream. Strings: samples of each pattern's language, the same with
bytes flipped, inserted, deleted or cut, and random bytes (ASCII and UTF-8).
After every byte, accept_o and reject_o of every module are checked. The input
has random idle cycles (valid_i low) and a clear between strings.
"""

from __future__ import annotations

import random

import pyuvm
from cocotb.triggers import RisingEdge
from pyuvm import uvm_env

from models.dfa_sample import DfaSampler
from models.regex_dfa import compile_regex
from scripts.regex2sv import TEST_REGEXES
from uvm_env.common.base_test import BaseTest
from uvm_env.common.config import BenchConfig, env_int
from uvm_env.fsm.r2s_scoreboard import R2sScoreboard

#: (module name, pattern), in the DUT's bit order.
REGEXES = TEST_REGEXES


class R2sEnv(uvm_env):
    def build_phase(self) -> None:
        self.scoreboard = R2sScoreboard("scoreboard", self)
        self.scoreboard.patterns = list(REGEXES)
        self.scoreboard.dfas = [compile_regex(p) for _, p in REGEXES]


@pyuvm.test()
class FsmRegex2svTest(BaseTest):
    def make_config(self) -> BenchConfig:
        cfg = super().make_config()
        cfg.timeout_us = 20_000 + 40 * env_int("N_STRINGS", 300)
        return cfg

    def make_env(self) -> R2sEnv:
        return R2sEnv("env", self)

    def strings(self, rng: random.Random) -> list[bytes]:
        samplers = [DfaSampler(d) for d in self.env.scoreboard.dfas]
        out: list[bytes] = []
        for _ in range(env_int("N_STRINGS", 300)):
            kind = rng.random()
            base = rng.choice(samplers).accepted(rng, rng.choice((8, 24, 64, 220))) or b""
            if kind < 0.35:
                out.append(base)
            elif kind < 0.8:
                s = bytearray(base)
                for _ in range(rng.randint(1, 3)):
                    op = rng.randrange(4)
                    pos = rng.randrange(len(s) + 1)
                    if op == 0 and s:
                        s[min(pos, len(s) - 1)] ^= 1 << rng.randrange(8)
                    elif op == 1:
                        s.insert(pos, rng.choice(b'"{}[],.:@-e0aZ \n\xc3\xa9\xff'))
                    elif op == 2 and s:
                        del s[min(pos, len(s) - 1)]
                    else:
                        s = s[:pos]
                out.append(bytes(s))
            elif kind < 0.9:
                out.append(bytes(rng.randrange(32, 127) for _ in range(rng.randint(0, 12))))
            else:
                out.append("".join(rng.choice("aé日😀{\"1") for _ in range(rng.randint(1, 6)))
                           .encode("utf-8")[:rng.randint(1, 12)])
        return out

    async def body(self) -> None:
        dut, sb = self.dut, self.env.scoreboard
        rng = self.cfg.child_rng("strings")
        idle = self.cfg.child_rng("idle")
        dut.clear_i.value = 0
        dut.valid_i.value = 0
        dut.byte_i.value = 0
        await RisingEdge(self.clock)
        total = 0
        for s in self.strings(rng):
            dut.clear_i.value = 1
            await RisingEdge(self.clock)
            dut.clear_i.value = 0
            await RisingEdge(self.clock)
            sb.check_prefix(b"", int(dut.accept_o.value), int(dut.reject_o.value))
            for k, b in enumerate(s):
                while idle.random() < self.cfg.p_idle:
                    await RisingEdge(self.clock)
                dut.byte_i.value = b
                dut.valid_i.value = 1
                await RisingEdge(self.clock)
                dut.valid_i.value = 0
                await RisingEdge(self.clock)
                assert int(dut.valid_o.value) == (1 << len(REGEXES)) - 1
                sb.check_prefix(s[:k + 1], int(dut.accept_o.value), int(dut.reject_o.value))
            sb.strings += 1
            total += len(s)
        self.logger.info(f"{sb.strings} strings, {total} bytes; accepting prefixes per "
                         f"module: {dict(zip((n for n, _ in REGEXES), sb.accepts, strict=True))}")
        for (name, _), n in zip(REGEXES, sb.accepts, strict=True):
            sb.check(f"{name} accepted something", n > 0, "no string was ever accepted")
