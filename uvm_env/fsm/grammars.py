# SPDX-License-Identifier: Apache-2.0
"""Grammars for the token-FSM benches: regex + vocabulary -> TokenFSM + table image.

Small synthetic vocabularies keep random tests fast (a few hundred tokens: the
image loads in tens of beats); GPT-2 is used where a test needs the real
vocabulary. GPT-2 builds of large grammars take seconds, so their images are
cached under build/fsm_cache/, keyed by the pattern, the vocabulary and the
source of the model modules (a model change invalidates the cache).
"""

from __future__ import annotations

import hashlib
import io
import os
import random
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from models.dfa_sample import DfaSampler
from models.regex_dfa import ByteDFA, compile_regex
from models.table_image import image_bytes, load_image
from models.token_fsm import TokenFSM
from models.vocab import Vocabulary

ROOT = Path(__file__).resolve().parents[2]
CACHE = ROOT / "build" / "fsm_cache"

#: the summary/sentiment regex, the one every peer number refers to.
SUMMARY_REGEX = r'\{"summary":"[^"]{1,200}","sentiment":"(positive|neutral|negative)"\}'

#: Regexes the random tests draw from: literals, classes, counters, alternation,
#: optional parts, Unicode, and the summary/sentiment shape with smaller counts.
RANDOM_REGEXES = (
    r'\{"summary":"[^"]{1,12}","sentiment":"(positive|neutral|negative)"\}',
    r"[0-9]+(\.[0-9]+)?",
    r"(yes|no|maybe)",
    r"[a-z]{2,6}@[a-z]{2,5}\.(com|org)",
    r'\[("[a-c]{1,3}",){0,3}"[a-c]{1,3}"\]',
    r"-?(0|[1-9][0-9]{0,3})(e[+-]?[0-9]{1,2})?",
    r"(ab|abc|abcd)*x",
    r"é[ü-ÿ]{1,3}(日本|😀)?",
)

#: Forced-token grammar: long literals the vocabulary spells in one token each.
JUMP_REGEX = r'\{"name":"[a-z]{1,6}","ok":(true|false)\}'


@dataclass
class Grammar:
    name: str
    pattern: str
    vocab: Vocabulary
    dfa: ByteDFA
    fsm: TokenFSM
    image: bytes
    sampler: DfaSampler = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.sampler = DfaSampler(self.dfa)

    @property
    def vocab_size(self) -> int:
        return self.fsm.vocab_size

    def sample_tokens(self, rng: random.Random, max_len: int = 48) -> list[int]:
        """Token ids of a random accepted string (greedy tokenisation, every prefix live).

        A synthetic vocabulary may lack a byte of a rare multi-byte character;
        such a sample is drawn again."""
        for _ in range(50):
            text = self.sampler.accepted(rng, max_len) or b""
            try:
                return self.vocab.encode_greedy(text)
            except ValueError:
                continue
        raise ValueError(f"{self.name}: no sample its vocabulary can spell")

    def summary(self) -> str:
        t = self.fsm.tables
        return (f"{self.name}: V={t.vocab_size} states={t.num_states} classes={t.num_classes} "
                f"rows={t.num_mask_rows} forced={int(t.forced_valid.sum())} "
                f"image={len(self.image)} B")


def build(name: str, pattern: str, vocab: Vocabulary) -> Grammar:
    dfa = compile_regex(pattern)
    fsm = TokenFSM.build(dfa, vocab)
    return Grammar(name, pattern, vocab, dfa, fsm, image_bytes(fsm.tables))


def synthetic_vocab(pattern: str, rng: random.Random, size: int) -> Vocabulary:
    """A vocabulary that can spell every string of ``pattern`` and has the usual mess.

    Every byte the DFA can take is a one-byte token; fragments of accepted strings
    give multi-byte tokens (some crossing UTF-8 boundaries); junk tokens never
    fit; two special tokens, an empty token and EOS are added. Ids are shuffled."""
    dfa = compile_regex(pattern)
    sampler = DfaSampler(dfa)
    live_bytes = sorted({b for c in range(dfa.num_classes) if (dfa.transitions[:, c] >= 0).any()
                         for b in dfa.class_bytes(c)})
    toks: set[bytes] = {bytes([b]) for b in live_bytes if b < 0x80 or rng.random() < 0.05}
    texts = [sampler.accepted(rng, 40) or b"" for _ in range(64)]
    tries = 0
    while len(toks) < size * 3 // 4 and tries < size * 20:
        tries += 1
        t = rng.choice(texts)
        if not t:
            continue
        i = rng.randrange(len(t))
        n = rng.choice((1, 2, 2, 3, 3, 4, 5, 8))
        toks.add(t[i:i + n])
    while len(toks) < size:
        toks.add(bytes(rng.randrange(33, 127) for _ in range(rng.randint(1, 4))) + b"\x01")
    # Multi-byte characters need their bytes as tokens too, or they cannot be spelled.
    for t in texts:
        for b in t:
            toks.add(bytes([b]))
    ordered = sorted(toks)
    rng.shuffle(ordered)
    specials = [len(ordered), len(ordered) + 1]
    ordered += [b"<pad>", b"<bos>", b""]
    return Vocabulary.from_list(ordered, eos="<eos>", special=specials,
                                name=f"synthetic{len(ordered) + 1}")


def padded_vocab(pattern: str, size: int) -> Vocabulary:
    """Every live byte as a token, then junk tokens up to ``size`` (for capacity tests)."""
    dfa = compile_regex(pattern)
    live = sorted({b for c in range(dfa.num_classes) if (dfa.transitions[:, c] >= 0).any()
                   for b in dfa.class_bytes(c)})
    toks = [bytes([b]) for b in live]
    toks += [b"\x01" + str(i).encode() for i in range(size - 1 - len(toks))]
    return Vocabulary.from_list(toks, eos="<eos>", name=f"padded{size}")


def jump_vocab(rng: random.Random) -> Vocabulary:
    """For JUMP_REGEX: whole literals as single tokens, letters, and distractors."""
    toks = [b'{"name":"', b'","ok":', b"true", b"false", b"}", b"tr", b"ue"]
    toks += [bytes([c]) for c in range(ord("a"), ord("z") + 1)]
    toks += [b"zz", b"abc", b'"', b",", b":", b"{", b"name", b"xyz!"]
    rng.shuffle(toks)
    return Vocabulary.from_list(toks, eos="<eos>", name="jump")


def random_grammar(rng: random.Random, pattern: str | None = None,
                   size: int | None = None) -> Grammar:
    pattern = pattern or rng.choice(RANDOM_REGEXES)
    size = size or rng.randint(60, 900)
    return build(f"r{rng.randrange(1 << 16):04x}", pattern, synthetic_vocab(pattern, rng, size))


def gpt2_grammar(name: str, pattern: str) -> Grammar:
    """GPT-2 grammar with its image cached on disk (the build can take seconds)."""
    return cached_grammar(name, pattern, Vocabulary.gpt2())


def tekken_grammar(name: str, pattern: str) -> Grammar:
    """The same over Mistral's tekken vocabulary (131,072 tokens), which make setup
    installs with mistral-common."""
    from models.fsm_sizes import tekken_path

    path = tekken_path()
    if path is None:
        raise FileNotFoundError("mistral-common's tekken_240911.json is not installed "
                                "(make setup installs it)")
    return cached_grammar(name, pattern, Vocabulary.from_tekken(path))


def cached_grammar(name: str, pattern: str, vocab: Vocabulary) -> Grammar:
    """A grammar over ``vocab`` with its image and DFA cached under build/fsm_cache/."""
    key = hashlib.sha256()
    key.update(pattern.encode())
    key.update(f"{vocab.name}:{len(vocab)}:{vocab.eos_id}".encode())
    for mod in ("regex_dfa", "token_fsm", "vocab", "table_image"):
        key.update((ROOT / "models" / f"{mod}.py").read_bytes())
    path = CACHE / f"{name}-{key.hexdigest()[:16]}.bin"
    dfa_path = path.with_suffix(".dfa.npz")
    if path.exists() and dfa_path.exists():
        data = path.read_bytes()
        fsm = TokenFSM.from_tables(load_image(data))
        with np.load(dfa_path) as z:
            dfa = ByteDFA(num_states=int(z["num_states"]), start=int(z["start"]),
                          accepting=z["accepting"], byte_class=z["byte_class"],
                          num_classes=int(z["num_classes"]), transitions=z["transitions"])
    else:
        dfa = compile_regex(pattern)
        fsm = TokenFSM.build(dfa, vocab)
        data = image_bytes(fsm.tables)
        CACHE.mkdir(parents=True, exist_ok=True)
        _atomic_write(path, data)
        buf = io.BytesIO()
        np.savez(buf, num_states=dfa.num_states, start=dfa.start, accepting=dfa.accepting,
                 byte_class=dfa.byte_class, num_classes=dfa.num_classes,
                 transitions=dfa.transitions)
        _atomic_write(dfa_path, buf.getvalue())
    return Grammar(name, pattern, vocab, dfa, fsm, data)


def _atomic_write(path: Path, data: bytes) -> None:
    # Two simulator processes may build the same grammar at once; the rename is atomic.
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    tmp.write_bytes(data)
    tmp.replace(path)
