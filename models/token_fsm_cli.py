# SPDX-License-Identifier: Apache-2.0
"""Command line of the token-FSM golden model: compile a grammar to a table image, check tokens.

    python -m models.token_fsm_cli compile --regex '...' --vocab gpt2 -o out/   # or --schema s.json
    python -m models.token_fsm_cli check --image out/fsm.bin --tokens 1,2,3

It sits above every model module it drives (builder, image writer, size report,
JSON-schema compiler), so none of them has to import it back. The JSON-schema
compiler is imported only for --schema, so a broken install of it is reported
as such instead of breaking --regex too.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from .fsm_sizes import format_report, report
from .regex_dfa import compile_regex
from .table_image import export_image, export_readmemh, load_image
from .token_fsm import TokenFSM
from .vocab import Vocabulary


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m models.token_fsm_cli",
        description="Compile and check token-FSM table images.",
    )
    sub = parser.add_subparsers(dest="cmd", required=True)
    comp = sub.add_parser("compile", help="regex or JSON schema -> table image + .hex files")
    src = comp.add_mutually_exclusive_group(required=True)
    src.add_argument("--regex", help="pattern in the dialect of docs/regex-dialect.md")
    src.add_argument("--schema", type=Path, help="JSON schema file (via models.json_schema)")
    comp.add_argument(
        "--vocab", default="gpt2", help="gpt2, or a .tiktoken / tokenizer.json / tekken .json path"
    )
    comp.add_argument("-o", "--out", type=Path, required=True, help="output directory")
    comp.add_argument("--name", default="fsm", help="image file stem (default: fsm)")
    comp.add_argument(
        "--banks", type=int, default=2, help="banks for the size report (default 2: one + spare)"
    )
    comp.add_argument(
        "--image-version",
        type=int,
        choices=(2, 3),
        default=3,
        help="image format (default 3, the linked comb the RTL loads; 2: row_base + comb; "
        "docs/table-format.md)",
    )
    chk = sub.add_parser("check", help="validate a token sequence against an image")
    chk.add_argument("--image", type=Path, required=True)
    chk.add_argument(
        "--tokens", required=True, help="comma/space separated ids, or a file containing them"
    )
    args = parser.parse_args(argv)
    try:
        return _cmd_compile(args) if args.cmd == "compile" else _cmd_check(args)
    except (ValueError, OSError, RuntimeError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


def load_vocab(spec: str) -> Vocabulary:
    """``gpt2`` or a vocabulary file, recognised by name and content."""
    if spec == "gpt2":
        return Vocabulary.gpt2()
    path = Path(spec)
    if path.suffix == ".tiktoken":
        return Vocabulary.from_tiktoken(path)
    if path.suffix == ".json":
        head = json.loads(path.read_text(encoding="utf-8"))
        if "config" in head and "vocab" in head and isinstance(head["vocab"], list):
            return Vocabulary.from_tekken(path)
        return Vocabulary.from_hf_tokenizer_json(path)
    raise ValueError(f"unknown vocabulary {spec!r}: use gpt2, *.tiktoken or *.json")


def _cmd_compile(args: argparse.Namespace) -> int:
    if args.schema is not None:
        try:
            from .json_schema import schema_to_regex
        except ImportError as exc:  # it ships with the package: only a broken install
            raise RuntimeError(
                f"--schema needs models.json_schema.schema_to_regex, which failed to import ({exc})"
            ) from exc
        pattern = schema_to_regex(json.loads(args.schema.read_text(encoding="utf-8")))
    else:
        pattern = args.regex
    vocab = load_vocab(args.vocab)
    t0 = time.perf_counter()
    dfa = compile_regex(pattern)
    fsm = TokenFSM.build(dfa, vocab)
    seconds = time.perf_counter() - t0
    args.out.mkdir(parents=True, exist_ok=True)
    image = args.out / f"{args.name}.bin"
    sizes = export_image(fsm.tables, image, args.image_version)
    export_readmemh(fsm.tables, args.out)
    t = fsm.tables
    print(f"pattern      : {pattern}")
    print(f"vocabulary   : {vocab.name} ({len(vocab)} tokens, eos={vocab.eos_id})")
    print(f"byte DFA     : {dfa.num_states} states, {dfa.num_classes} byte classes")
    print(
        f"token FSM    : {t.num_states} states, {t.num_classes} classes, "
        f"{t.num_mask_rows} distinct mask rows, {int(t.forced_valid.sum())} forced states"
    )
    print(
        f"widths       : state {t.state_bits}, class {t.class_bits}, row {t.row_bits}, "
        f"token {t.token_bits} bits"
    )
    for name, nbytes in sizes.items():
        print(f"  {name:<13}: {nbytes:>10,} bytes")
    print(f"sizes        : {format_report(args.name, report(t, banks=args.banks))}")
    print(f"image        : {image} ({image.stat().st_size:,} bytes), built in {seconds:.3f} s")
    return 0


def _cmd_check(args: argparse.Namespace) -> int:
    text = args.tokens
    path = Path(text)
    if path.is_file():
        text = path.read_text(encoding="utf-8")
    tokens = [int(x) for x in text.replace(",", " ").split()]
    fsm = TokenFSM.from_tables(load_image(args.image))
    first = fsm.validate(tokens)
    print(first)
    return 0 if first < 0 else 1


if __name__ == "__main__":
    sys.exit(main())
