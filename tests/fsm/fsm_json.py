# SPDX-License-Identifier: Apache-2.0
"""fsm_json: JSON schemas, first the source document's financial-summary schema on GPT-2.

schema_to_regex(FINANCIAL_SUMMARY_SCHEMA) compiled on GPT-2 gives 14,201 states
and 359 classes: a 4.2 MB version-2 image (the comb is 2.7 MB), loaded through
the load stream into the VCK5000 configuration (two grammars and the spare bank,
scripts/boards/vck5000.toml). Documents sampled from the schema's language are tokenised
greedily and fed token by token on interleaved slots (with masks of 99 beats
now and then), then whole documents, clean and mutated, go through VALIDATE.
The sampled documents are also checked with jsonschema against the schema.
A second, smaller schema (a person record) over a synthetic vocabulary runs in
grammar 1 alongside. Runs on Verilator and Icarus.
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
from uvm_env.fsm.grammars import build, gpt2_grammar, synthetic_vocab

PERSON_SCHEMA = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "maxLength": 12},
        "age": {"type": "integer", "minimum": 0, "maximum": 150},
        "tags": {"type": "array", "items": {"enum": ["a", "b", "vip"]}, "maxItems": 3},
        "ok": {"type": "boolean"},
    },
    "required": ["name", "age", "tags", "ok"],
    "additionalProperties": False,
}


@pyuvm.test()
class FsmJsonTest(FsmBaseTest):
    require_oracle = True     # sampled tokens of GPT-2 (ORACLE_SAMPLE per mask)

    def extra_timeout_us(self) -> int:
        return 400_000       # 113k load beats under idles, at 10 ns per cycle

    async def scenario(self) -> None:
        g = gpt2_grammar("financial_gpt2", schema_to_regex(FINANCIAL_SUMMARY_SCHEMA))
        person_re = schema_to_regex(PERSON_SCHEMA)
        person = build("person", person_re, synthetic_vocab(person_re, self.rng("vocab"), 700))
        for gr in (g, person):
            self.logger.info(gr.summary())
        # The grammars' own samples are valid instances of their schemas.
        probe = random.Random(self.cfg.seed)
        for gr, schema in ((g, FINANCIAL_SUMMARY_SCHEMA), (person, PERSON_SCHEMA)):
            for _ in range(5):
                text = gr.sampler.accepted(probe, 300).decode("utf-8")
                jsonschema.validate(json.loads(text), schema)
        # The big load with light idles; everything else under the usual traffic.
        self.env.set_traffic(0.1, 0.1, "load")
        await self.load({0: g, 1: person})
        await self.drain()
        self.env.set_traffic(self.cfg.p_idle, self.cfg.p_stall, "docs")
        n_docs = env_int("N_DOCS", 6)
        docs = DocumentSeq("docs", self.env, self.rng("docs"), g, 0, slots=[1, 2, 3],
                           n_docs=n_docs, mask_every=env_int("MASK_EVERY", 40),
                           max_len=env_int("DOC_LEN", 160))
        people = DocumentSeq("people", self.env, self.rng("people"), person, 1,
                             slots=[4, 5], n_docs=2 * n_docs, mask_every=7, max_len=80)
        await docs.start(self.env.seqr)
        await people.start(self.env.seqr)
