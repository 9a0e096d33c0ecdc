# SPDX-License-Identifier: Apache-2.0
"""fsm_json: the source document's financial-summary JSON schema on the GPT-2 vocabulary.

schema_to_regex(FINANCIAL_SUMMARY_SCHEMA) compiled on GPT-2 gives 14,201 states
and 354 classes: an 11 MB image (next_state alone is 10 MB), loaded through
the load stream. Documents sampled from the schema's language are tokenised
greedily and fed token by token on interleaved slots (with masks of 99 beats
now and then), then whole documents, clean and mutated, go through VALIDATE.
The sampled documents are also checked with jsonschema against the schema.
Runs on Verilator and Icarus.
"""

from __future__ import annotations

import json
import random

import jsonschema
import pyuvm

from models.json_schema import FINANCIAL_SUMMARY_SCHEMA, schema_to_regex
from uvm_env.common.config import env_int
from uvm_env.fsm.fsm_base_test import FsmBaseTest
from uvm_env.fsm.fsm_seqs import DocumentSeq
from uvm_env.fsm.grammars import gpt2_grammar


@pyuvm.test()
class FsmJsonTest(FsmBaseTest):
    def extra_timeout_us(self) -> int:
        return 400_000       # 178k load beats under idles, at 10 ns per cycle

    async def scenario(self) -> None:
        g = gpt2_grammar("financial_gpt2", schema_to_regex(FINANCIAL_SUMMARY_SCHEMA))
        self.logger.info(g.summary())
        # The grammar's own samples are valid instances of the schema.
        probe = random.Random(self.cfg.seed)
        for _ in range(5):
            text = g.sampler.accepted(probe, 300).decode("utf-8")
            jsonschema.validate(json.loads(text), FINANCIAL_SUMMARY_SCHEMA)
        # The big load with light idles; everything else under the usual traffic.
        self.env.set_traffic(0.1, 0.1, "load")
        await self.load({0: g})
        await self.drain()
        self.env.set_traffic(self.cfg.p_idle, self.cfg.p_stall, "docs")
        await DocumentSeq("docs", self.env, self.rng("docs"), g, 0, slots=[1, 2, 3],
                          n_docs=env_int("N_DOCS", 6), mask_every=env_int("MASK_EVERY", 40),
                          max_len=env_int("DOC_LEN", 160)).start(self.env.seqr)
