# SPDX-License-Identifier: Apache-2.0
"""`python -m models.token_fsm_cli compile|check`."""

from __future__ import annotations

import base64
import json
import re
import subprocess
import sys
import types

import pytest

from models.table_image import load_image
from models.token_fsm_cli import main

TOKENS = [b"{", b"}", b'"', b"a", b"b", b"ab", b"1", b"12", b".", b'{"', b'"}']


@pytest.fixture()
def tiny_vocab(tmp_path):
    path = tmp_path / "tiny.tiktoken"
    path.write_text("".join(f"{base64.b64encode(t).decode()} {i}\n" for i, t in enumerate(TOKENS)))
    return path  # + <|endoftext|> appended as id 11


def test_compile_and_check(tiny_vocab, tmp_path, capsys):
    out = tmp_path / "out"
    rc = main(["compile", "--regex", r'\{"[ab]+"\}', "--vocab", str(tiny_vocab), "-o", str(out)])
    text = capsys.readouterr().out
    assert rc == 0
    assert "token FSM" in text and "distinct mask rows" in text and "comb" in text
    assert "next-state dense" in text and "compressed" in text and "fits" in text
    image = out / "fsm.bin"
    tables = load_image(image)
    assert tables.vocab_size == len(TOKENS) + 1 and tables.eos_id == len(TOKENS)
    assert (out / "comb.hex").is_file() and (out / "params.svh").is_file()

    assert main(["check", "--image", str(image), "--tokens", "9,5,10,11"]) == 0
    assert capsys.readouterr().out.strip() == "-1"
    assert main(["check", "--image", str(image), "--tokens", "0 2 1"]) == 1
    assert capsys.readouterr().out.strip() == "2"
    seq = tmp_path / "seq.txt"
    seq.write_text("9\n3\n10\n11\n0\n")
    assert main(["check", "--image", str(image), "--tokens", str(seq)]) == 1
    assert capsys.readouterr().out.strip() == "4", "nothing may follow EOS"


def test_compile_gpt2_brief_prints_sizes(tmp_path, capsys):
    rx = r'\{"summary":"[^"]{1,200}","sentiment":"(positive|neutral|negative)"\}'
    assert main(["compile", "--regex", rx, "--vocab", "gpt2", "-o", str(tmp_path)]) == 0
    text = capsys.readouterr().out
    assert "50257 tokens" in text
    m = re.search(r"(\d+) states, (\d+) classes, (\d+) distinct mask rows", text)
    assert m is not None and int(m[2]) <= 155 and int(m[3]) <= 82
    assert "linked comb 37,896 (version-2 comb 33,578, +12.9 %)" in text


def test_compile_version_3_image_checks_the_same(tiny_vocab, tmp_path, capsys):
    """--image-version 2 writes a row_base image, 3 (the default) a linked comb;
    `check` reads either version and gives the same verdicts."""
    verdicts = {}
    for version in ("2", "3"):
        out = tmp_path / version
        args = ["compile", "--regex", r'\{"[ab]+"\}', "--vocab", str(tiny_vocab), "-o", str(out)]
        assert main([*args, "--image-version", version]) == 0
        capsys.readouterr()
        image = out / "fsm.bin"
        assert image.read_bytes()[4] == int(version)
        verdicts[version] = []
        for seq in ("9,5,10,11", "0 2 1", "9,3,10,11,0"):
            verdicts[version].append(main(["check", "--image", str(image), "--tokens", seq]))
            verdicts[version].append(capsys.readouterr().out.strip())
    assert verdicts["3"] == verdicts["2"] == [0, "-1", 1, "2", 1, "4"]


def test_schema_uses_json_schema_module(tiny_vocab, tmp_path, monkeypatch, capsys):
    fake = types.ModuleType("models.json_schema")
    seen = {}

    def schema_to_regex(schema: dict, whitespace: str = "compact") -> str:
        seen["schema"] = schema
        return r'\{"[ab]+"\}'

    fake.schema_to_regex = schema_to_regex
    monkeypatch.setitem(sys.modules, "models.json_schema", fake)
    schema = tmp_path / "s.json"
    schema.write_text(json.dumps({"type": "string"}))
    rc = main(
        ["compile", "--schema", str(schema), "--vocab", str(tiny_vocab), "-o", str(tmp_path / "o")]
    )
    assert rc == 0 and seen["schema"] == {"type": "string"}
    assert '\\{"[ab]+"\\}' in capsys.readouterr().out


def test_schema_without_module_is_a_clear_error(tiny_vocab, tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "models.json_schema", None)  # import now fails
    schema = tmp_path / "s.json"
    schema.write_text("{}")
    rc = main(
        ["compile", "--schema", str(schema), "--vocab", str(tiny_vocab), "-o", str(tmp_path / "o")]
    )
    assert rc == 2
    assert "models.json_schema" in capsys.readouterr().err


def test_bad_regex_is_reported(tiny_vocab, tmp_path, capsys):
    rc = main(["compile", "--regex", "a(?=b)", "--vocab", str(tiny_vocab), "-o", str(tmp_path)])
    assert rc == 2
    assert "look-ahead" in capsys.readouterr().err


def test_module_entry_point(tiny_vocab, tmp_path):
    out = tmp_path / "o"
    run = [sys.executable, "-m", "models.token_fsm_cli"]
    comp = subprocess.run(
        run
        + [
            "compile",
            "--regex",
            "(ab)+",
            "--vocab",
            str(tiny_vocab),
            "-o",
            str(out),
            "--name",
            "x",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert comp.returncode == 0, comp.stderr
    ok = subprocess.run(
        run + ["check", "--image", str(out / "x.bin"), "--tokens", "5,5,11"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert (ok.returncode, ok.stdout.strip()) == (0, "-1")
    bad = subprocess.run(
        run + ["check", "--image", str(out / "x.bin"), "--tokens", "5,4"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert (bad.returncode, bad.stdout.strip()) == (1, "1")
