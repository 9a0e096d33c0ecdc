# SPDX-License-Identifier: Apache-2.0
"""Token vocabularies as byte strings, with loaders for tiktoken, HF and tekken files.

A token's *content* is the bytes it adds to the output.  Special tokens (EOS,
BOS, padding, chat markers, holes in a rank table) carry a display string but no
content: they never match regex content, and only EOS has a role (allowed iff
the constraint is in an accepting state).
"""

from __future__ import annotations

import base64
import importlib.util
import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

GPT2_EOS = "<|endoftext|>"
# EOS spellings tried, in order, when a tokenizer.json comes without a config.
_EOS_GUESSES = (
    "<|endoftext|>",
    "</s>",
    "<|end_of_text|>",
    "<|eot_id|>",
    "<|im_end|>",
    "<eos>",
    "<|end|>",
)
_BYTE_TOKEN = re.compile(r"<0x([0-9A-Fa-f]{2})>")


@dataclass(eq=False)
class Vocabulary:
    """``tokens[i]`` is token i's content bytes (display bytes for specials)."""

    tokens: list[bytes]
    special: frozenset[int] = field(default_factory=frozenset)
    eos_id: int | None = None
    name: str = "custom"

    def __post_init__(self) -> None:
        if self.eos_id is not None:
            if not 0 <= self.eos_id < len(self.tokens):
                raise ValueError(f"eos id {self.eos_id} outside vocabulary of {len(self)}")
            self.special = frozenset(self.special) | {self.eos_id}
        bad = [i for i in self.special if not 0 <= i < len(self.tokens)]
        if bad:
            raise ValueError(f"special ids outside vocabulary: {bad[:5]}")

    def __len__(self) -> int:
        return len(self.tokens)

    def is_special(self, token_id: int) -> bool:
        return token_id in self.special

    def token_id(self, content: bytes | str) -> int:
        """Id of the (first) non-special token with exactly this content."""
        if isinstance(content, str):
            content = content.encode("utf-8")
        index = self._index()
        if content not in index:
            raise KeyError(content)
        return index[content]

    def encode_greedy(self, text: bytes | str) -> list[int]:
        """Longest-match tokenisation: not the model's BPE, but a valid token path
        for any text the vocabulary can spell (used to build test prefixes)."""
        data = text.encode("utf-8") if isinstance(text, str) else text
        index = self._index()
        longest = max((len(t) for t in index), default=0)
        out, i = [], 0
        while i < len(data):
            for n in range(min(longest, len(data) - i), 0, -1):
                tid = index.get(data[i : i + n])
                if tid is not None:
                    out.append(tid)
                    i += n
                    break
            else:
                raise ValueError(f"vocabulary cannot spell byte {data[i]:#04x} at {i}")
        return out

    def _index(self) -> dict[bytes, int]:
        cached = self.__dict__.get("_index_cache")
        if cached is None:
            cached = {}
            for i, t in enumerate(self.tokens):
                if i not in self.special and t:
                    cached.setdefault(t, i)
            self.__dict__["_index_cache"] = cached
        return cached

    # ---- loaders --------------------------------------------------------

    @classmethod
    def from_list(
        cls,
        tokens: Sequence[bytes | str],
        eos: int | str | None = None,
        special: Iterable[int] = (),
        name: str = "list",
    ) -> Vocabulary:
        """Tokens given directly; ``str`` items are UTF-8 encoded.  ``eos`` is an id,
        or a string that is appended as a new special token."""
        toks = [t.encode("utf-8") if isinstance(t, str) else bytes(t) for t in tokens]
        specials = set(special)
        eos_id = None
        if isinstance(eos, str):
            eos_id = len(toks)
            toks.append(eos.encode("utf-8"))
        elif eos is not None:
            eos_id = int(eos)
        return cls(toks, frozenset(specials), eos_id, name)

    @classmethod
    def from_tiktoken(
        cls,
        path: str | Path,
        special_tokens: Sequence[str] = (GPT2_EOS,),
        eos: str | None = GPT2_EOS,
    ) -> Vocabulary:
        """A ``.tiktoken`` rank file (``base64 rank`` per line).  Special tokens are
        appended after the highest rank, as tiktoken's GPT-2 encoding does; rank
        holes become specials so ids stay dense and never match content."""
        ranks: dict[int, bytes] = {}
        for lineno, line in enumerate(Path(path).read_bytes().splitlines(), 1):
            if not line.strip():
                continue
            parts = line.split()
            if len(parts) != 2:
                raise ValueError(f"{path}:{lineno}: expected 'base64 rank'")
            ranks[int(parts[1])] = base64.b64decode(parts[0], validate=True)
        size = max(ranks, default=-1) + 1
        tokens = [ranks.get(i, b"") for i in range(size)]
        specials = {i for i in range(size) if i not in ranks}
        ids: dict[str, int] = {}
        for s in special_tokens:
            ids[s] = len(tokens)
            specials.add(len(tokens))
            tokens.append(s.encode("utf-8"))
        eos_id = ids[eos] if eos is not None else None
        return cls(tokens, frozenset(specials), eos_id, Path(path).stem)

    @classmethod
    def gpt2(cls) -> Vocabulary:
        """Exact GPT-2 vocabulary (50,257 tokens, EOS 50256) from openai-whisper's
        asset file.  The package is located without importing it: its own imports
        (torch, ...) are not installed."""
        return cls.from_tiktoken(gpt2_tiktoken_path())

    @classmethod
    def from_hf_tokenizer_json(cls, path: str | Path, eos: int | str | None = None) -> Vocabulary:
        """A Hugging Face ``tokenizer.json``.

        * byte-level BPE (ByteLevel pre-tokenizer or decoder): token strings are
          mapped back through GPT-2's byte<->unicode table;
        * otherwise sentencepiece-style: ``\u2581`` is a space and ``<0xNN>`` is the
          raw byte NN (byte fallback);
        * every ``added_tokens`` entry is special (never matches content).
        EOS: ``eos`` if given, else ``eos_token`` from a sibling
        tokenizer_config.json, else the first common EOS spelling present."""
        path = Path(path)
        data = json.loads(path.read_text(encoding="utf-8"))
        model = data.get("model") or {}
        vocab = model.get("vocab") or {}
        if isinstance(vocab, list):  # Unigram: [[piece, score], ...]
            pieces = {str(item[0]): i for i, item in enumerate(vocab)}
        else:
            pieces = {str(k): int(v) for k, v in vocab.items()}
        added = {str(a["content"]): int(a["id"]) for a in data.get("added_tokens") or []}
        size = max(list(pieces.values()) + list(added.values()), default=-1) + 1
        byte_level = _is_byte_level(data)
        decoder = _bytes_to_unicode_inverse() if byte_level else None
        tokens = [b""] * size
        filled = [False] * size
        for text, i in pieces.items():
            tokens[i] = _decode_piece(text, decoder)
            filled[i] = True
        specials = {i for i in range(size) if not filled[i]}
        for text, i in added.items():
            tokens[i] = text.encode("utf-8")
            specials.add(i)
        eos_id = _resolve_hf_eos(eos, path, added, pieces)
        return cls(tokens, frozenset(specials), eos_id, path.parent.name or path.stem)

    @classmethod
    def from_tekken(cls, path: str | Path) -> Vocabulary:
        """mistral-common ``tekken_*.json``: special tokens take the first
        ``default_num_special_tokens`` ids, then ranks follow, truncated to
        ``default_vocab_size``; EOS is ``</s>``.  A file without a
        ``special_tokens`` list (``tekken_240911.json``) gets mistral-common's
        ``Tekkenizer.DEPRECATED_SPECIAL_TOKENS``, where ``</s>`` is rank 2."""
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        config = data["config"]
        num_special = int(config["default_num_special_tokens"])
        size = int(config.get("default_vocab_size", num_special + len(data["vocab"])))
        tokens = [b""] * size
        specials = set(range(num_special))
        eos_id = None
        listed = data.get("special_tokens")
        if not listed and num_special > 2:
            listed = [{"rank": 0, "token_str": "<unk>"}, {"rank": 1, "token_str": "<s>"},
                      {"rank": 2, "token_str": "</s>"}]
        for sp in listed or []:
            rank = int(sp["rank"])
            if rank < num_special:
                tokens[rank] = str(sp["token_str"]).encode("utf-8")
                if sp["token_str"] == "</s>":
                    eos_id = rank
        for item in data["vocab"]:
            i = int(item["rank"]) + num_special
            if i < size:
                tokens[i] = base64.b64decode(item["token_bytes"])
        return cls(tokens, frozenset(specials), eos_id, Path(path).stem)


def gpt2_tiktoken_path() -> Path:
    """Path of whisper's gpt2.tiktoken, found via the import system's package spec."""
    spec = importlib.util.find_spec("whisper")
    if spec is None or not spec.submodule_search_locations:
        raise FileNotFoundError("package 'whisper' (openai-whisper) is not installed")
    for root in spec.submodule_search_locations:
        candidate = Path(root) / "assets" / "gpt2.tiktoken"
        if candidate.is_file():
            return candidate
    raise FileNotFoundError("whisper/assets/gpt2.tiktoken not found")


def bytes_to_unicode() -> dict[int, str]:
    """GPT-2's reversible byte -> printable-unicode map used by byte-level BPE."""
    keep = list(range(ord("!"), ord("~") + 1)) + list(range(0xA1, 0xAD)) + list(range(0xAE, 0x100))
    chars = keep[:]
    extra = 0
    for b in range(256):
        if b not in keep:
            keep.append(b)
            chars.append(256 + extra)
            extra += 1
    return {b: chr(c) for b, c in zip(keep, chars, strict=True)}


def _bytes_to_unicode_inverse() -> dict[str, int]:
    return {c: b for b, c in bytes_to_unicode().items()}


def _is_byte_level(data: dict) -> bool:
    def has_byte_level(node: object) -> bool:
        if isinstance(node, dict):
            if node.get("type") == "ByteLevel":
                return True
            return any(has_byte_level(v) for v in node.values())
        if isinstance(node, list):
            return any(has_byte_level(v) for v in node)
        return False

    return has_byte_level(data.get("pre_tokenizer")) or has_byte_level(data.get("decoder"))


def _decode_piece(text: str, byte_decoder: dict[str, int] | None) -> bytes:
    if byte_decoder is not None:
        try:
            return bytes(byte_decoder[c] for c in text)
        except KeyError:
            return text.encode("utf-8")  # not from the byte map: take it literally
    m = _BYTE_TOKEN.fullmatch(text)
    if m:
        return bytes([int(m.group(1), 16)])
    return text.replace("\u2581", " ").encode("utf-8")


def _resolve_hf_eos(
    eos: int | str | None, path: Path, added: dict[str, int], pieces: dict[str, int]
) -> int | None:
    if isinstance(eos, int):
        return eos
    name = eos
    if name is None:
        config = path.with_name("tokenizer_config.json")
        if config.is_file():
            value = json.loads(config.read_text(encoding="utf-8")).get("eos_token")
            name = value.get("content") if isinstance(value, dict) else value
    candidates = [name] if name is not None else list(_EOS_GUESSES)
    for cand in candidates:
        if cand in added:
            return added[cand]
        if cand in pieces:
            return pieces[cand]
    if eos is not None:
        raise ValueError(f"EOS token {eos!r} not in {path}")
    return None
