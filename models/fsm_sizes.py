# SPDX-License-Identifier: Apache-2.0
"""On-chip memory a token-FSM grammar needs in the RTL, and whether it fits a VCK5000.

The RTL (rtl/fsm/fsm_core.sv) keeps every image section in a ``common_ram_sdp``
of 512-bit words (``LoadW`` = 512), one region per bank, as the image stores it
(8/16/32-bit elements, 64-byte aligned sections, 512-bit aligned mask rows). A
memory's style follows its depth over all banks, as ``fsm_core.ram_style``:
UltraRAM from 4,096 words, block RAM from 64, LUT RAM below.  A 512-bit word is
8 URAM288 (4K x 72) or 8 BRAM36 (512 x 72) wide.

Budget (docs/fsm-protocol.md, "Memories and sizes"): the VC1902 on the VCK5000
has 463 URAM288 and 967 BRAM36 (AMD DS950, Versal AI Core series data sheet);
the token-FSM and the radix controller together may use 90 % of each, and the
radix controller's VCK5000 configuration takes 320 URAM and 129 BRAM36 in the
Yosys estimate (docs/radix-protocol.md; an estimate, not a Vivado result).
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass
from pathlib import Path

from .table_image import SECTION_NAMES, section_arrays, storage_bits
from .token_tables import TokenTables

WORD_BITS = 512
URAM_DEPTH, BRAM_DEPTH = 4096, 512
COLUMNS = -(-WORD_BITS // 72)  # 8 RAMs side by side for one 512-bit word
VC1902_URAM, VC1902_BRAM36 = 463, 967
SHARE = 0.9
RADIX_URAM, RADIX_BRAM36 = 320, 129


@dataclass(frozen=True)
class Budget:
    uram: int
    bram36: int


def fsm_budget(radix_uram: int = RADIX_URAM, radix_bram36: int = RADIX_BRAM36) -> Budget:
    """What the token-FSM may use beside the radix controller."""
    return Budget(int(SHARE * VC1902_URAM) - radix_uram, int(SHARE * VC1902_BRAM36) - radix_bram36)


def section_words(t: TokenTables) -> dict[str, int]:
    """512-bit words of each section in one bank."""
    out = {}
    for ident, (_, elem, arr) in section_arrays(t).items():
        out[SECTION_NAMES[ident]] = -(-arr.size * elem // WORD_BITS)
    return out


def rams(depth: int) -> tuple[int, int]:
    """(URAM288, BRAM36) of one 512-bit-wide memory of ``depth`` words."""
    if depth >= URAM_DEPTH:
        return COLUMNS * -(-depth // URAM_DEPTH), 0
    if depth >= 64:
        return 0, COLUMNS * -(-depth // BRAM_DEPTH)
    return 0, 0


def report(t: TokenTables, banks: int = 2, budget: Budget | None = None) -> dict[str, object]:
    """Dense and compressed next-state bits, memories for ``banks`` banks of this
    grammar (one resident grammar and the spare bank by default), and the fit."""
    budget = budget or fsm_budget()
    words = section_words(t)
    uram = bram = 0
    for depth in words.values():
        u, b = rams(banks * depth)
        uram, bram = uram + u, bram + b
    dense_stored = t.num_classes * t.num_states * storage_bits(t.state_bits)
    comb_stored = t.comb_size * 32 + t.num_states * storage_bits(t.base_bits)
    row_bits = t.words_per_row * 32
    padded_bits = -(-t.words_per_row // 16) * 512
    return {
        "states": t.num_states,
        "classes": t.num_classes,
        "mask_rows": t.num_mask_rows,
        "live_transitions": int((t.next_state != t.reject).sum()),
        "comb_size": t.comb_size,
        "dense_next_bits": dense_stored,
        "compressed_next_bits": comb_stored,
        "compression": round(dense_stored / comb_stored, 2),
        "mask_padding_bits": t.num_mask_rows * (padded_bits - row_bits),
        "mask_padding_pct": round(100 * (padded_bits - row_bits) / row_bits, 2),
        "words_per_bank": words,
        "banks": banks,
        "uram": uram,
        "bram36": bram,
        "uram_per_bank": round(uram / banks, 1),
        "bram36_per_bank": round(bram / banks, 1),
        "budget_uram": budget.uram,
        "budget_bram36": budget.bram36,
        "fits": uram <= budget.uram and bram <= budget.bram36,
    }


def format_report(name: str, r: dict[str, object]) -> str:
    return (
        f"{name}: {r['states']} states x {r['classes']} classes, "
        f"{r['live_transitions']:,} live -> comb {r['comb_size']:,}; next-state dense "
        f"{r['dense_next_bits']:,} bits, compressed {r['compressed_next_bits']:,} bits "
        f"({r['compression']}x); mask padding {r['mask_padding_pct']} %; per bank "
        f"{r['uram_per_bank']} URAM + {r['bram36_per_bank']} BRAM36; {r['banks']} banks "
        f"{r['uram']} URAM + {r['bram36']} BRAM36 vs budget {r['budget_uram']} URAM + "
        f"{r['budget_bram36']} BRAM36: {'fits' if r['fits'] else 'DOES NOT FIT'}"
    )


def config_rams(
    vocab_max: int, state_w: int, class_w: int, row_w: int, ns_cap: int, row_cap: int,
    n_grammars: int,
) -> tuple[int, int]:
    """(URAM288, BRAM36) of an ``fsm_top`` configuration with LoadW = 512: the
    region sizes of ``fsm_core`` (one region per bank, NGrammars + 1 banks)."""
    lb = WORD_BITS // 8
    s_max = (1 << state_w) - 1
    w_max = (vocab_max + 31) // 32
    base_w = max(1, (ns_cap - 1).bit_length())
    tok_w = max(1, (vocab_max - 1).bit_length())

    def elem(bits: int) -> int:
        return storage_bits(bits) // 8

    words = [
        -(-vocab_max * elem(class_w) // lb),  # token_class
        -(-s_max * elem(base_w) // lb),  # row_base
        -(-ns_cap * 4 // lb),  # comb
        -(-((s_max + 31) // 32) * 4 // lb),  # accepting
        -(-((s_max + 31) // 32) * 4 // lb),  # forced_valid
        -(-s_max * elem(row_w) // lb),  # mask_index
        -(-s_max * elem(tok_w) // lb),  # forced_token
        row_cap * -(-w_max // 16),  # mask_rows
    ]
    uram = bram = 0
    for w in words:
        u, b = rams((n_grammars + 1) * w)
        uram, bram = uram + u, bram + b
    return uram, bram


#: A schema with nested arrays (a matrix of small integers and a list of tag lists).
NESTED_ARRAYS_SCHEMA: dict[str, object] = {
    "type": "object",
    "properties": {
        "matrix": {
            "type": "array",
            "minItems": 1,
            "maxItems": 4,
            "items": {
                "type": "array",
                "minItems": 1,
                "maxItems": 4,
                "items": {"type": "integer", "minimum": 0, "maximum": 99},
            },
        },
        "tags": {
            "type": "array",
            "maxItems": 3,
            "items": {
                "type": "array",
                "maxItems": 3,
                "items": {"type": "string", "minLength": 1, "maxLength": 8},
            },
        },
    },
    "required": ["matrix", "tags"],
    "additionalProperties": False,
}


def grammars() -> dict[str, str]:
    """name -> regex of the grammars the size table covers (all on GPT-2)."""
    from .json_schema import FINANCIAL_SUMMARY_SCHEMA, schema_to_regex

    return {
        "summary/sentiment regex": (
            r'\{"summary":"[^"]{1,200}","sentiment":"(positive|neutral|negative)"\}'
        ),
        "financial-summary schema": schema_to_regex(FINANCIAL_SUMMARY_SCHEMA),
        "nested-arrays schema": schema_to_regex(NESTED_ARRAYS_SCHEMA),
    }


def tekken_path() -> Path | None:
    """mistral-common's tekken_240911.json (installed by make setup), or None."""
    spec = importlib.util.find_spec("mistral_common")
    for root in (spec.submodule_search_locations or []) if spec else []:
        path = Path(root) / "data" / "tekken_240911.json"
        if path.is_file():
            return path
    return None


def size_table(banks: int = 2) -> tuple[list[dict[str, object]], str]:
    """Build every grammar on GPT-2 and tekken and tabulate its sizes (minutes)."""
    from .token_fsm import TokenFSM
    from .vocab import Vocabulary

    vocabs = [Vocabulary.gpt2()]
    tekken = tekken_path()
    if tekken is not None:
        vocabs.append(Vocabulary.from_tekken(tekken))
    rows = []
    lines = [
        f"budget beside the radix controller: {fsm_budget().uram} URAM, "
        f"{fsm_budget().bram36} BRAM36; {banks} banks (grammars + spare)",
        "| grammar | vocabulary | states x classes | live | comb | dense bits | compressed bits "
        "| ratio | URAM/bank | BRAM36/bank | fits |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for vocab in vocabs:
        for name, pattern in grammars().items():
            r = report(TokenFSM.from_regex(pattern, vocab).tables, banks=banks)
            r["grammar"], r["vocab"] = name, vocab.name
            rows.append(r)
            lines.append(
                f"| {name} | {vocab.name} | {r['states']} x {r['classes']} "
                f"| {r['live_transitions']:,} | {r['comb_size']:,} | {r['dense_next_bits']:,} "
                f"| {r['compressed_next_bits']:,} | {r['compression']} | {r['uram_per_bank']} "
                f"| {r['bram36_per_bank']} | {'yes' if r['fits'] else 'no'} |"
            )
    if tekken is None:
        lines.append("tekken: not measured (mistral-common's tekken_240911.json not found)")
    return rows, "\n".join(lines)


if __name__ == "__main__":
    print(size_table()[1])
