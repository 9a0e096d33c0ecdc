# SPDX-License-Identifier: Apache-2.0
"""On-chip memory a token-FSM grammar needs in the RTL, and whether it fits a VCK5000.

The RTL (rtl/fsm/fsm_core.sv) keeps every section of a version-3 image (the
linked comb, docs/table-format.md) in a RAM of 512-bit words (``LoadW`` = 512),
one region per bank, as the image stores it (8/16/32-bit elements, 64-byte
aligned sections, 512-bit aligned mask rows). A
memory's style follows its depth over all banks, as ``fsm_core.ram_style``:
UltraRAM from 4,096 words, block RAM from 64, LUT RAM below.  A 512-bit word is
8 URAM288 (4K x 72) or 8 BRAM36 (512 x 72) wide.

Budget (docs/fsm-protocol.md, "Memories and sizes"): the VC1902 on the VCK5000
has 463 URAM288 and 967 BRAM36 (AMD DS950, Versal AI Core series data sheet);
the token-FSM and the radix controller together may use 90 % of each.  The radix
controller's VCK5000 configuration is its L2 build (tables in DDR4 behind L1
caches), which takes 0 URAM and 223 BRAM36 in the Yosys estimate; its on-chip
build of the same node and token counts takes 320 URAM and 181 BRAM36
(docs/radix-protocol.md; estimates, not Vivado results).  The size table shows
the fit beside both.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from .table_image import SECTION_NAMES, section_arrays, storage_bits
from .token_tables import TokenTables

WORD_BITS = 512
URAM_DEPTH, BRAM_DEPTH = 4096, 512
COLUMNS = -(-WORD_BITS // 72)  # 8 RAMs side by side for one 512-bit word
VC1902_URAM, VC1902_BRAM36 = 463, 967
SHARE = 0.9
RADIX_URAM, RADIX_BRAM36 = 0, 223  # the L2 build, the board's configuration
# The on-chip build's estimate (docs/synthesis.md), with three query banks and two
# output-buffer banks (the walk/commit cut).
RADIX_ONCHIP_URAM, RADIX_ONCHIP_BRAM36 = 320, 181


@dataclass(frozen=True)
class Budget:
    uram: int
    bram36: int


def fsm_budget(radix_uram: int = RADIX_URAM, radix_bram36: int = RADIX_BRAM36) -> Budget:
    """What the token-FSM may use beside the radix controller."""
    return Budget(int(SHARE * VC1902_URAM) - radix_uram, int(SHARE * VC1902_BRAM36) - radix_bram36)


def onchip_radix_budget() -> Budget:
    """What the token-FSM may use beside the radix controller's on-chip build."""
    return fsm_budget(RADIX_ONCHIP_URAM, RADIX_ONCHIP_BRAM36)


def loads_into(t: TokenTables, config: Mapping[str, int]) -> bool:
    """Whether an ``fsm_top`` built with ``config`` takes this grammar (the
    loader's capacity checks: widths, comb entries, mask rows, vocabulary)."""
    tok_w = max(1, (config["VocabMax"] - 1).bit_length())
    return (
        t.state_bits <= config["StateW"]
        and t.class_bits <= config["ClassW"]
        and t.row_bits <= config.get("RowW", 16)
        and t.token_bits <= tok_w
        and t.linked.size <= config["NsCap"]
        and t.num_mask_rows <= config["RowCap"]
        and t.vocab_size <= config["VocabMax"]
    )


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
    """Dense and compressed (linked comb, what the RTL holds) next-state bits, the
    version-2 comb beside it, memories for ``banks`` banks of this grammar (one
    resident grammar and the spare bank by default), and the fit."""
    budget = budget or fsm_budget()
    words = section_words(t)
    uram = bram = 0
    for depth in words.values():
        u, b = rams(banks * depth)
        uram, bram = uram + u, bram + b
    dense_stored = t.num_classes * t.num_states * storage_bits(t.state_bits)
    comb_stored = t.linked.size * 32
    row_bits = t.words_per_row * 32
    padded_bits = -(-t.words_per_row // 16) * 512
    return {
        "states": t.num_states,
        "classes": t.num_classes,
        "mask_rows": t.num_mask_rows,
        "live_transitions": int((t.next_state != t.reject).sum()),
        "comb_size": t.linked.size,
        "row_base_comb_size": t.comb_size,
        "linked_extra_pct": round(100 * (t.linked.size / t.comb_size - 1), 1),
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
        "fits_beside_onchip_radix": (uram <= onchip_radix_budget().uram
                                     and bram <= onchip_radix_budget().bram36),
    }


def format_report(name: str, r: dict[str, object]) -> str:
    return (
        f"{name}: {r['states']} states x {r['classes']} classes, "
        f"{r['live_transitions']:,} live -> linked comb {r['comb_size']:,} (version-2 comb "
        f"{r['row_base_comb_size']:,}, +{r['linked_extra_pct']} %); next-state dense "
        f"{r['dense_next_bits']:,} bits, compressed {r['compressed_next_bits']:,} bits "
        f"({r['compression']}x); mask padding {r['mask_padding_pct']} %; per bank "
        f"{r['uram_per_bank']} URAM + {r['bram36_per_bank']} BRAM36; {r['banks']} banks "
        f"{r['uram']} URAM + {r['bram36']} BRAM36 vs budget {r['budget_uram']} URAM + "
        f"{r['budget_bram36']} BRAM36 beside the radix controller's L2 build: "
        f"{'fits' if r['fits'] else 'DOES NOT FIT'} (beside its on-chip build: "
        f"{'fits' if r['fits_beside_onchip_radix'] else 'does not fit'})"
    )


def config_rams(
    vocab_max: int, state_w: int, class_w: int, row_w: int, ns_cap: int, row_cap: int,
    n_grammars: int,
) -> tuple[int, int]:
    """(URAM288, BRAM36) of an ``fsm_top`` configuration with LoadW = 512: the
    region sizes of ``fsm_core`` (one region per bank, NGrammars + 1 banks): the
    comb with 2^ClassW entries of slack, state-indexed tables of 2^StateW."""
    lb = WORD_BITS // 8
    s_max = 1 << state_w
    w_max = (vocab_max + 31) // 32
    tok_w = max(1, (vocab_max - 1).bit_length())

    def elem(bits: int) -> int:
        return storage_bits(bits) // 8

    words = [
        -(-vocab_max * elem(class_w) // lb),  # token_class
        -(-(ns_cap + (1 << class_w)) * 4 // lb),  # comb
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


def size_table(
    banks: int = 2, config: Mapping[str, int] | None = None
) -> tuple[list[dict[str, object]], str]:
    """Build every grammar on GPT-2 and tekken and tabulate its sizes (minutes).
    ``config``: an ``fsm_top`` configuration (the board's); the table then says
    whether each grammar loads into that build."""
    from .token_fsm import TokenFSM
    from .vocab import Vocabulary

    vocabs = [Vocabulary.gpt2()]
    tekken = tekken_path()
    if tekken is not None:
        vocabs.append(Vocabulary.from_tekken(tekken))
    rows = []
    onchip = onchip_radix_budget()
    lines = [
        f"budget beside the radix controller's L2 build (its VCK5000 configuration): "
        f"{fsm_budget().uram} URAM, {fsm_budget().bram36} BRAM36; beside its on-chip build: "
        f"{onchip.uram} URAM, {onchip.bram36} BRAM36; {banks} banks (grammar + spare)",
        "| grammar | vocabulary | states x classes | live | comb | dense bits | compressed bits "
        "| ratio | URAM/bank | BRAM36/bank | fits (L2 radix) | fits (on-chip radix) "
        "| loads into the VCK5000 build | version-2 comb |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for vocab in vocabs:
        for name, pattern in grammars().items():
            t = TokenFSM.from_regex(pattern, vocab).tables
            r = report(t, banks=banks)
            r["grammar"], r["vocab"] = name, vocab.name
            r["loads_into_build"] = None if config is None else loads_into(t, config)
            rows.append(r)
            loads = "-" if config is None else ("yes" if r["loads_into_build"] else "no")
            lines.append(
                f"| {name} | {vocab.name} | {r['states']} x {r['classes']} "
                f"| {r['live_transitions']:,} | {r['comb_size']:,} | {r['dense_next_bits']:,} "
                f"| {r['compressed_next_bits']:,} | {r['compression']} | {r['uram_per_bank']} "
                f"| {r['bram36_per_bank']} | {'yes' if r['fits'] else 'no'} "
                f"| {'yes' if r['fits_beside_onchip_radix'] else 'no'} | {loads} "
                f"| {r['row_base_comb_size']:,} (linked +{r['linked_extra_pct']} %) |"
            )
    if config is not None:
        uram, bram = config_rams(
            config["VocabMax"], config["StateW"], config["ClassW"], config["RowW"],
            config["NsCap"], config["RowCap"], config["NGrammars"])
        verdict = "fits" if uram <= fsm_budget().uram and bram <= fsm_budget().bram36 \
            else "DOES NOT FIT"
        lines.append(
            f"VCK5000 build of fsm_top ({config['NGrammars']} grammars + spare bank, "
            f"NsCap {config['NsCap']:,}, RowCap {config['RowCap']}): {uram} URAM + {bram} "
            f"BRAM36, {verdict} beside the radix controller's L2 build")
    if tekken is None:
        lines.append("tekken: not measured (mistral-common's tekken_240911.json not found)")
    return rows, "\n".join(lines)


if __name__ == "__main__":
    print(size_table()[1])
