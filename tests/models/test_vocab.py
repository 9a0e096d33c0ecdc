# SPDX-License-Identifier: Apache-2.0
"""Vocabulary loaders: tiktoken (real GPT-2), HF tokenizer.json, tekken, lists."""

from __future__ import annotations

import base64
import json
import subprocess
import sys

import pytest

from models.vocab import Vocabulary, bytes_to_unicode, gpt2_tiktoken_path


@pytest.fixture(scope="module")
def gpt2() -> Vocabulary:
    return Vocabulary.gpt2()


def test_gpt2_shape(gpt2):
    assert len(gpt2) == 50257
    assert gpt2.eos_id == 50256
    assert gpt2.tokens[50256] == b"<|endoftext|>"
    assert gpt2.special == frozenset({50256})
    assert gpt2.tokens[0] == b"!"
    assert all(gpt2.tokens[i] for i in range(50256))


def test_gpt2_known_ids(gpt2):
    assert gpt2.token_id(" the") == 262
    assert gpt2.token_id("Hello") == 15496
    assert gpt2.token_id("12") == 1065
    assert gpt2.token_id(".") == 13
    with pytest.raises(KeyError):
        gpt2.token_id("<|endoftext|>")  # specials are not content


def test_gpt2_greedy_encoding_round_trips(gpt2):
    text = '{"summary":"naïve café — 日本語 😀","sentiment":"neutral"}'
    ids = gpt2.encode_greedy(text)
    assert b"".join(gpt2.tokens[i] for i in ids) == text.encode()
    assert gpt2.eos_id not in ids


def test_gpt2_path_found_without_importing_whisper():
    code = (
        "import sys; from models.vocab import gpt2_tiktoken_path; "
        "p = gpt2_tiktoken_path(); assert p.name == 'gpt2.tiktoken'; "
        "assert 'whisper' not in sys.modules; print(p)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert out.returncode == 0, out.stderr
    assert gpt2_tiktoken_path().is_file()


def test_from_tiktoken_holes_and_specials(tmp_path):
    path = tmp_path / "tiny.tiktoken"
    lines = [
        f"{base64.b64encode(t).decode()} {r}"
        for t, r in [(b"a", 0), (b"b", 1), (b"\xc3", 3), (b"ab", 4)]
    ]
    path.write_text("\n".join(lines) + "\n")
    v = Vocabulary.from_tiktoken(path, special_tokens=("<|endoftext|>", "<|pad|>"))
    assert len(v) == 7
    assert v.tokens[:5] == [b"a", b"b", b"", b"\xc3", b"ab"]
    assert v.special == frozenset({2, 5, 6})  # hole 2 plus the two appended
    assert v.eos_id == 5 and v.tokens[6] == b"<|pad|>"
    bad = tmp_path / "bad.tiktoken"
    bad.write_text("YQ==\n")
    with pytest.raises(ValueError, match="expected 'base64 rank'"):
        Vocabulary.from_tiktoken(bad)


def test_from_list():
    v = Vocabulary.from_list(["a", b"\xe2\x82", "é", ""], eos="</s>", special=[2])
    assert v.tokens == [b"a", b"\xe2\x82", "é".encode(), b"", b"</s>"]
    assert v.eos_id == 4 and v.special == frozenset({2, 4})
    v2 = Vocabulary.from_list(["a", "b"], eos=1)
    assert v2.eos_id == 1 and v2.is_special(1)
    with pytest.raises(ValueError):
        Vocabulary.from_list(["a"], eos=5)


def test_bytes_to_unicode_table():
    table = bytes_to_unicode()
    assert len(table) == 256 and len(set(table.values())) == 256
    assert table[ord(" ")] == "Ġ" and table[ord("\n")] == "Ċ" and table[ord("a")] == "a"


def _write(path, data):
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_hf_byte_level(tmp_path):
    enc = bytes_to_unicode()
    word = "".join(enc[b] for b in " héllo".encode())
    data = {
        "added_tokens": [
            {"id": 4, "content": "<|endoftext|>", "special": True},
            {"id": 5, "content": "<|tool|>", "special": False},
        ],
        "pre_tokenizer": {"type": "Sequence", "pretokenizers": [{"type": "ByteLevel"}]},
        "decoder": {"type": "ByteLevel"},
        "model": {"type": "BPE", "vocab": {"a": 0, "Ġ": 1, word: 2, "Ċ": 3}},
    }
    v = Vocabulary.from_hf_tokenizer_json(_write(tmp_path / "tokenizer.json", data))
    assert v.tokens[:4] == [b"a", b" ", " héllo".encode(), b"\n"]
    assert v.special == frozenset({4, 5}) and v.eos_id == 4


def test_hf_sentencepiece_style_with_config(tmp_path):
    data = {
        "added_tokens": [
            {"id": 0, "content": "<unk>", "special": True},
            {"id": 1, "content": "<s>", "special": True},
            {"id": 2, "content": "</s>", "special": True},
        ],
        "decoder": {"type": "Sequence", "decoders": [{"type": "ByteFallback"}]},
        "model": {
            "type": "BPE",
            "byte_fallback": True,
            "vocab": {
                "<unk>": 0,
                "<s>": 1,
                "</s>": 2,
                "<0x0A>": 3,
                "<0xC3>": 4,
                "▁hello": 5,
                "world": 6,
            },
        },
    }
    path = _write(tmp_path / "tokenizer.json", data)
    _write(tmp_path / "tokenizer_config.json", {"eos_token": {"content": "</s>"}})
    v = Vocabulary.from_hf_tokenizer_json(path)
    assert v.tokens[3:] == [b"\n", b"\xc3", b" hello", b"world"]
    assert v.special == frozenset({0, 1, 2}) and v.eos_id == 2
    assert Vocabulary.from_hf_tokenizer_json(path, eos="<s>").eos_id == 1
    with pytest.raises(ValueError, match="not in"):
        Vocabulary.from_hf_tokenizer_json(path, eos="<nope>")


def test_hf_unigram_list_vocab(tmp_path):
    data = {
        "added_tokens": [],
        "model": {"type": "Unigram", "vocab": [["<pad>", 0.0], ["</s>", 0.0], ["▁a", -1.0]]},
    }
    v = Vocabulary.from_hf_tokenizer_json(_write(tmp_path / "t.json", data))
    assert v.tokens == [b"<pad>", b"</s>", b" a"] and v.eos_id == 1 and v.is_special(1)


def test_tekken(tmp_path):
    data = {
        "config": {"default_num_special_tokens": 3, "default_vocab_size": 6},
        "special_tokens": [
            {"rank": 0, "token_str": "<unk>"},
            {"rank": 1, "token_str": "<s>"},
            {"rank": 2, "token_str": "</s>"},
        ],
        "vocab": [
            {"rank": r, "token_bytes": base64.b64encode(t).decode()}
            for r, t in enumerate([b"a", b"\xe2", b" b", b"ignored"])
        ],
    }
    v = Vocabulary.from_tekken(_write(tmp_path / "tekken_x.json", data))
    assert v.tokens == [b"<unk>", b"<s>", b"</s>", b"a", b"\xe2", b" b"]
    assert v.special == frozenset({0, 1, 2}) and v.eos_id == 2
    # Without a special_tokens list: mistral-common's defaults, </s> at rank 2.
    del data["special_tokens"]
    v = Vocabulary.from_tekken(_write(tmp_path / "tekken_y.json", data))
    assert v.tokens[:3] == [b"<unk>", b"<s>", b"</s>"] and v.eos_id == 2
