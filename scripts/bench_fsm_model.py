# SPDX-License-Identifier: Apache-2.0
"""Token-FSM golden model: build time and table sizes for the summary/sentiment regex on
GPT-2, next to outlines-core 0.2.14's Index build measured in the same run.

Run as ``python -m scripts.bench_fsm_model``.  Prints a summary and writes
build/bench/fsm_model.json.  Wall-clock numbers belong here, never in a test.
"""

from __future__ import annotations

import importlib.util
import json
import statistics
import time
from pathlib import Path

from models.regex_dfa import compile_regex
from models.table_image import image_bytes, parse_sections
from models.token_fsm import TokenFSM
from models.vocab import Vocabulary

SUMMARY_REGEX = r'\{"summary":"[^"]{1,200}","sentiment":"(positive|neutral|negative)"\}'
OUT = Path("build/bench/fsm_model.json")
# Reference sizes, measured with outlines-core / by hand on this machine class.
REFERENCE_SIZES = {
    "dfa_states": 1649,
    "token_states": 1645,
    "mask_rows": 82,
    "classes": 155,
    "outlines_index_s": 0.8,
}


def run(repeats: int = 5, outlines_repeats: int = 3) -> dict:
    """Measure ours (compile + build, median of ``repeats``) and outlines-core."""
    t0 = time.perf_counter()
    vocab = Vocabulary.gpt2()
    result: dict = {
        "regex": SUMMARY_REGEX,
        "vocab": "gpt2",
        "vocab_size": len(vocab),
        "vocab_load_s": round(time.perf_counter() - t0, 4),
    }
    result["ours"] = _ours(vocab, repeats)
    result["outlines_core"] = _outlines(vocab, outlines_repeats)
    if result["outlines_core"].get("available"):
        result["speedup_vs_outlines"] = round(
            result["outlines_core"]["index_build_s_median"] / result["ours"]["total_s_median"], 2
        )
    result["tekken"] = _tekken(repeats=1)
    result["reference_sizes"] = REFERENCE_SIZES
    return result


def main() -> int:
    result = run()
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(result, indent=2) + "\n")
    ours = result["ours"]
    print(f"regex: {SUMMARY_REGEX}")
    print(f"GPT-2 ({result['vocab_size']} tokens), vocab load {result['vocab_load_s']:.3f} s")
    print(
        f"ours : compile {ours['compile_s_median'] * 1e3:.1f} ms + tables "
        f"{ours['build_s_median'] * 1e3:.1f} ms = {ours['total_s_median'] * 1e3:.1f} ms median "
        f"(first run {ours['total_s_first'] * 1e3:.1f} ms)"
    )
    s = ours["sizes"]
    print(
        f"       DFA {s['dfa_states']} states (unminimised {s['dfa_states_unminimised']}), "
        f"token states {s['token_states']} (incl. FINAL), classes {s['classes']}, "
        f"mask rows {s['mask_rows']}, forced states {s['forced_states']}"
    )
    for name, nbytes in s["image_section_bytes"].items():
        print(f"       {name:<13} {nbytes:>10,} bytes")
    print(
        f"       image {s['image_bytes']:,} bytes; logical {s['total_bits']:,} bits "
        f"({s['total_bits'] / 8 / 2**20:.2f} MiB); undeduplicated masks would be "
        f"{s['undeduplicated_mask_bytes'] / 2**20:.2f} MiB"
    )
    oc = result["outlines_core"]
    if oc.get("available"):
        print(
            f"outlines-core {oc['version']}: Index build {oc['index_build_s_median']:.3f} s "
            f"median of {oc['repeats']}; {oc['states']} states, {oc['distinct_masks']} "
            f"distinct masks -> ours is {result['speedup_vs_outlines']}x faster"
        )
    else:
        print(f"outlines-core: {oc['note']}")
    print(f"tekken: {result['tekken'].get('note', result['tekken'])}")
    print(f"wrote {OUT}")
    return 0


def _ours(vocab: Vocabulary, repeats: int) -> dict:
    compile_s, build_s, total_s = [], [], []
    fsm = dfa = None
    for _ in range(repeats):
        t0 = time.perf_counter()
        dfa = compile_regex(SUMMARY_REGEX)
        t1 = time.perf_counter()
        fsm = TokenFSM.build(dfa, vocab)
        t2 = time.perf_counter()
        compile_s.append(t1 - t0)
        build_s.append(t2 - t1)
        total_s.append(t2 - t0)
    assert fsm is not None and dfa is not None
    t = fsm.tables
    image = image_bytes(t)
    bits = t.table_bits()
    return {
        "repeats": repeats,
        "compile_s_median": round(statistics.median(compile_s), 4),
        "build_s_median": round(statistics.median(build_s), 4),
        "total_s_median": round(statistics.median(total_s), 4),
        "total_s_first": round(total_s[0], 4),
        "sizes": {
            "dfa_states": dfa.num_states,
            "dfa_states_unminimised": compile_regex(SUMMARY_REGEX, minimise=False).num_states,
            "byte_classes": dfa.num_classes,
            "reachable_dfa_states": fsm.info.reachable_states,
            "token_states": t.num_states,
            "classes": t.num_classes,
            "mask_rows": t.num_mask_rows,
            "forced_states": int(t.forced_valid.sum()),
            "widths_bits": {
                "state": t.state_bits,
                "class": t.class_bits,
                "row": t.row_bits,
                "token": t.token_bits,
            },
            "table_bits": bits,
            "total_bits": sum(bits.values()),
            "image_section_bytes": {sec.name: sec.length for sec in parse_sections(image)},
            "image_bytes": len(image),
            "undeduplicated_mask_bytes": t.num_states * t.words_per_row * 4,
        },
    }


def _outlines(vocab: Vocabulary, repeats: int) -> dict:
    try:
        import outlines_core
        from outlines_core import Index
        from outlines_core import Vocabulary as OVocab
    except ImportError as exc:
        return {
            "available": False,
            "note": f"outlines-core not installed ({exc}); ours reported alone",
        }
    from importlib.metadata import version

    tokens: dict[bytes, list[int]] = {}
    for i, tok in enumerate(vocab.tokens):
        if i not in vocab.special:
            tokens.setdefault(tok, []).append(i)
    ovocab = OVocab(vocab.eos_id, tokens)
    times = []
    index = None
    for _ in range(repeats):
        t0 = time.perf_counter()
        index = Index(SUMMARY_REGEX, ovocab)
        times.append(time.perf_counter() - t0)
    assert index is not None
    trans = index.get_transitions()
    masks = set()
    for state, nxt in trans.items():
        eos = {vocab.eos_id} if index.is_final_state(state) else set()
        masks.add(frozenset(nxt) | eos)
    return {
        "available": True,
        "version": version("outlines-core"),
        "repeats": repeats,
        "index_build_s_median": round(statistics.median(times), 4),
        "index_build_s_all": [round(x, 4) for x in times],
        "states": len(trans),
        "distinct_masks": len(masks),
        "module": outlines_core.__name__,
    }


def _tekken(repeats: int) -> dict:
    spec = importlib.util.find_spec("mistral_common")
    path = None
    if spec is not None and spec.submodule_search_locations:
        for root in spec.submodule_search_locations:
            cand = Path(root) / "data" / "tekken_240911.json"
            if cand.is_file():
                path = cand
    if path is None:
        return {
            "available": False,
            "note": "mistral-common (tekken_240911.json) not installed: tekken skipped",
        }
    vocab = Vocabulary.from_tekken(path)
    ours = _ours(vocab, repeats)
    return {"available": True, "vocab_size": len(vocab), **ours}


if __name__ == "__main__":
    raise SystemExit(main())
