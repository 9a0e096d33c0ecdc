# SPDX-License-Identifier: Apache-2.0
"""Token FSM vs the partial-match oracle (GPT-2 and exhaustive small vocabularies),
table invariants, EOS / forced-token / validate semantics, summary/sentiment regex sizes.

Oracle (docs/table-format.md, "Semantics"): after output bytes p, content token t
is allowed iff some well-formed UTF-8 continuation of p+t is a prefix of a full
match.  p+t = complete text + an incomplete trailing character (0-3 bytes).  The
complete text must decode strictly.  With no tail: regex.fullmatch(text,
partial=True).  With a tail: the tail fixes a contiguous range [lo, hi] of code
points it can still become (Unicode Table 3-7, surrogates excluded); t is
allowed iff fullmatch(text + chr(c), partial=True) for some c in the range.
Testing c in {lo, hi} and every code point named in the pattern +-1 is exact:
every set in this dialect is a union of intervals whose ends are such points
(shorthands are ASCII; '.' and negations only remove named points).

Length: the oracle above (partial-match with incomplete UTF-8 tails) is the
bulk of the file and every test here uses it; keeping them together keeps the
oracle next to what it checks."""

from __future__ import annotations

import random
import unicodedata

import numpy as np
import pytest
import regex

from models.regex_dfa import compile_regex
from models.token_fsm import REJECT_CLASS, TokenFSM
from models.vocab import Vocabulary

SUMMARY_REGEX = r'\{"summary":"[^"]{1,200}","sentiment":"(positive|neutral|negative)"\}'
NUMBER = r"[0-9]+(\.[0-9]+)?"
# A JSON string of 1-12 code points as json_schema spells it: an escaped
# surrogate pair counts once, which makes the counted item ambiguous.
JSON_STRING_1_12 = (
    r'"(?:[^"\\\x00-\x1f]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4}|'
    r'\\u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}){1,12}"'
)


# ----------------------------------------------------------------------------
# oracle
# ----------------------------------------------------------------------------


def completion_range(tail: bytes) -> tuple[int, int] | None:
    lead = tail[0]
    if 0xC2 <= lead <= 0xDF:
        n, lo, hi = 2, 0x80, 0x7FF
    elif 0xE0 <= lead <= 0xEF:
        n, lo, hi = 3, 0x800, 0xFFFF
    elif 0xF0 <= lead <= 0xF4:
        n, lo, hi = 4, 0x10000, 0x10FFFF
    else:
        return None
    if len(tail) >= n or any(not 0x80 <= b <= 0xBF for b in tail[1:]):
        return None
    value = lead & (0x7F >> n)
    for b in tail[1:]:
        value = (value << 6) | (b & 0x3F)
    missing = 6 * (n - len(tail))
    first, last = max(value << missing, lo), min((value << missing) | ((1 << missing) - 1), hi)
    if first <= 0xDFFF and last >= 0xD800:  # cut surrogates off either end
        if first >= 0xD800:
            first = 0xE000
        else:
            last = min(last, 0xD7FF)
    return (first, last) if first <= last else None


def split_tail(data: bytes) -> tuple[bytes, bytes]:
    for back in range(1, min(3, len(data)) + 1):
        b = data[-back]
        if b >= 0xC0:
            need = 2 if b < 0xE0 else 3 if b < 0xF0 else 4
            if need > back:
                return data[:-back], data[-back:]
            break
        if b < 0x80:
            break
    return data, b""


def pattern_points(pattern: str) -> set[int]:
    points = {ord(c) for c in pattern}
    for m in regex.finditer(r"\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8})", pattern):
        points.add(int(m.group(1)[1:], 16))
    for m in regex.finditer(r"\\N\{([^}]*)\}", pattern):
        points.add(ord(unicodedata.lookup(m.group(1))))
    return points


def greedy(pattern: str) -> str:
    """Drop lazy markers.  regex 2026.11.15's partial=True is wrong with lazy
    quantifiers (fullmatch("a*?b", "ax", partial=True) matches); the language
    is the same, so the oracle uses the greedy spelling."""
    out, i, n, after_quant = [], 0, len(pattern), False
    while i < n:
        c = pattern[i]
        if c == "\\":
            out.append(pattern[i : i + 2])
            i, after_quant = i + 2, False
            continue
        if c == "[":
            j = i + 1 + (pattern.startswith("^", i + 1))
            j += pattern.startswith("]", j)
            while j < n and pattern[j] != "]":
                j += 2 if pattern[j] == "\\" else 1
            out.append(pattern[i : j + 1])
            i, after_quant = j + 1, False
            continue
        if c == "?" and after_quant:
            i, after_quant = i + 1, False
            continue
        if c == "{" and "}" in pattern[i:]:
            j = pattern.index("}", i)
            out.append(pattern[i : j + 1])
            i, after_quant = j + 1, True
            continue
        after_quant = c in "*+?"
        out.append(c)
        i += 1
    return "".join(out)


class Oracle:
    def __init__(self, pattern: str, vocab: Vocabulary) -> None:
        self.rx = regex.compile(greedy(pattern), flags=regex.ASCII)
        self.points = pattern_points(pattern)
        self.vocab = vocab

    def partial_ok(self, data: bytes) -> bool:
        complete, tail = split_tail(data)
        try:
            text = complete.decode("utf-8")
        except UnicodeDecodeError:
            return False
        if not tail:
            return self.rx.fullmatch(text, partial=True) is not None
        rng = completion_range(tail)
        if rng is None:
            return False
        lo, hi = rng
        cands = {lo, hi} | {c + d for c in self.points for d in (-1, 0, 1)}
        return any(
            self.rx.fullmatch(text + chr(c), partial=True) is not None
            for c in sorted(cands)
            if lo <= c <= hi and not 0xD800 <= c <= 0xDFFF
        )

    def accepts(self, data: bytes) -> bool:
        try:
            return self.rx.fullmatch(data.decode("utf-8")) is not None
        except UnicodeDecodeError:
            return False

    def allowed(self, prefix: bytes, token: int) -> bool:
        v = self.vocab
        if token == v.eos_id:
            return self.accepts(prefix)
        if v.is_special(token) or not v.tokens[token]:
            return False
        return self.partial_ok(prefix + v.tokens[token])

    def check(self, fsm: TokenFSM, state: int, prefix: bytes, ids: np.ndarray | range) -> None:
        mask = fsm.allowed(state)
        for t in ids:
            t = int(t)
            want = self.allowed(prefix, t)
            assert mask[t] == want, (prefix, t, self.vocab.tokens[t], bool(mask[t]), want)
            assert (fsm.advance(state, t) is not None) == want, (prefix, t)


# ----------------------------------------------------------------------------
# fixtures
# ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def gpt2() -> Vocabulary:
    return Vocabulary.gpt2()


@pytest.fixture(scope="module")
def brief_fsm(gpt2) -> TokenFSM:
    return TokenFSM.build(compile_regex(SUMMARY_REGEX), gpt2)


@pytest.fixture(scope="module")
def partial_ids(gpt2) -> np.ndarray:
    """GPT-2 tokens that are not valid UTF-8 on their own (split characters)."""
    out = []
    for i, t in enumerate(gpt2.tokens[: gpt2.eos_id]):
        try:
            t.decode("utf-8")
        except UnicodeDecodeError:
            out.append(i)
    return np.array(out)


# ----------------------------------------------------------------------------
# GPT-2
# ----------------------------------------------------------------------------


def test_brief_sizes_on_gpt2(brief_fsm):
    t = brief_fsm.tables
    info = brief_fsm.info
    print(
        f"\nsummary regex on GPT-2: DFA {info.dfa_states} states, "
        f"{info.reachable_states} reachable at "
        f"token boundaries, token states {t.num_states} (incl. FINAL), classes "
        f"{t.num_classes}, mask rows {t.num_mask_rows}, build {info.seconds:.3f} s"
    )
    assert t.num_classes <= 155
    assert t.num_mask_rows <= 82
    assert t.num_states <= 1646  # 1,645 grammar states + FINAL
    assert t.vocab_size == 50257


def test_greedy_helper():
    assert greedy(r"a*?b+?c??(x){2,3}?") == r"a*b+c?(x){2,3}"
    assert greedy(r"\*?[?*]?x?") == r"\*?[?*]?x?"
    assert greedy(r"[]?]*?") == r"[]?]*"


def test_number_regex_outlines_bug_directed(gpt2):
    """outlines-core 0.2.14 rejects '.' after '12' for [0-9]+(\\.[0-9]+)?."""
    fsm = TokenFSM.build(compile_regex(NUMBER), gpt2)
    s = fsm.advance(fsm.start, gpt2.token_id("12"))
    assert s is not None
    assert fsm.is_accepting(s) and fsm.allowed(s)[gpt2.eos_id]
    dot = gpt2.token_id(".")
    assert fsm.allowed(s)[dot]
    s2 = fsm.advance(s, dot)
    assert s2 is not None and not fsm.is_accepting(s2)
    s3 = fsm.advance(s2, gpt2.token_id("5"))
    assert s3 is not None and fsm.is_accepting(s3)
    oracle = Oracle(NUMBER, gpt2)
    oracle.check(fsm, s, b"12", range(len(gpt2)))  # every token after "12"


def _random_path_check(
    fsm: TokenFSM,
    oracle: Oracle,
    rng: random.Random,
    steps: int,
    full_every: int,
    partial_ids: np.ndarray,
    sample: int,
) -> int:
    vocab = oracle.vocab
    state, prefix = fsm.start, b""
    partial_set = set(partial_ids.tolist())
    checked = 0
    for step in range(steps):
        if step % full_every == 0:
            ids = range(len(vocab))
        else:
            ids = np.unique(
                np.concatenate(
                    [
                        np.array(rng.sample(range(len(vocab)), sample)),
                        partial_ids,
                        fsm.allowed_ids(state)[:200],
                        [vocab.eos_id],
                    ]
                )
            )
        oracle.check(fsm, state, prefix, ids)
        checked += len(ids)
        allowed = fsm.allowed_ids(state)
        allowed = allowed[allowed != vocab.eos_id]
        if len(allowed) == 0:
            break
        partial_allowed = [t for t in allowed.tolist() if t in partial_set]
        if partial_allowed and rng.random() < 0.3:
            tok = rng.choice(partial_allowed)
        else:
            tok = int(rng.choice(allowed.tolist()))
        state = fsm.advance(state, tok)
        prefix += vocab.tokens[tok]
    return checked


@pytest.mark.parametrize(
    "pattern, steps, seed",
    [
        (SUMMARY_REGEX, 70, 1),
        (NUMBER, 8, 2),
        (r"(日本|中国)語?[^\"]{0,3}", 6, 3),
        (r"[^é]{2,6}x", 8, 4),
        (r"\d{4}-\d{2}-\d{2}", 8, 5),
        (r"[a-z0-9._%+-]+@[a-z0-9.-]+\.[a-z]{2,4}", 10, 6),
        (r'"([^"\\]|\\.)*"', 10, 7),
        (r"[😀-😏]+ ?(ok|no)", 8, 8),
        (JSON_STRING_1_12, 12, 9),
    ],
)
def test_masks_match_oracle_on_gpt2_paths(pattern, steps, seed, gpt2, brief_fsm, partial_ids):
    fsm = brief_fsm if pattern == SUMMARY_REGEX else TokenFSM.build(compile_regex(pattern), gpt2)
    oracle = Oracle(pattern, gpt2)
    rng = random.Random(seed)
    full_every = 25 if pattern == SUMMARY_REGEX else 4
    checked = _random_path_check(fsm, oracle, rng, steps, full_every, partial_ids, 400)
    assert checked > 0


def test_brief_long_content_hits_the_200_limit(gpt2, brief_fsm):
    """Walk 199 content chars then check every token: only 1-char tokens (and the
    closing quote) may pass; at 200 only the quote family."""
    oracle = Oracle(SUMMARY_REGEX, gpt2)
    prefix = b'{"summary":"' + b"x" * 199
    state = brief_fsm.walk(gpt2.encode_greedy(prefix))
    assert state is not None
    oracle.check(brief_fsm, state, prefix, range(len(gpt2)))
    state2 = brief_fsm.advance(state, gpt2.token_id("y"))
    oracle.check(brief_fsm, state2, prefix + b"y", range(len(gpt2)))


def _dfa_run_all(dfa, tokens: list[bytes], start: int) -> np.ndarray:
    """End DFA state of every token from one start state (-1 dead), vectorised
    independently of the builder's prefix-function trie."""
    n = len(tokens)
    lens = np.array([len(t) for t in tokens])
    flat = np.frombuffer(b"".join(tokens), dtype=np.uint8)
    offs = np.concatenate([[0], np.cumsum(lens)[:-1]])
    trans = np.vstack([dfa.transitions, np.full((1, dfa.num_classes), -1)])
    state = np.full(n, start)
    for k in range(int(lens.max())):
        active = lens > k
        state[active] = trans[state[active], dfa.byte_class[flat[offs[active] + k]]]
    state[lens == 0] = -1
    return state


def test_tables_agree_with_byte_dfa(gpt2, brief_fsm):
    """Every token from sampled states: allowed iff the byte DFA stays live, and the
    next token state is the DFA state reached (this regex has no token-level merges)."""
    dfa = compile_regex(SUMMARY_REGEX)
    fsm = brief_fsm
    info = fsm.info
    assert info.reachable_states == fsm.num_states - 1  # bijection: compare exactly
    content = [b"" if gpt2.is_special(i) else t for i, t in enumerate(gpt2.tokens)]
    rng = random.Random(11)
    states = sorted({0, 1, 2, fsm.num_states - 2} | set(rng.sample(range(fsm.num_states - 1), 40)))
    tc = fsm.tables.token_class
    for s in states:
        end = _dfa_run_all(dfa, content, int(info.dfa_state_of[s]))
        nxt = fsm.tables.next_state[tc, s]
        live = end >= 0
        assert np.array_equal(
            nxt != fsm.tables.reject,
            live | ((np.arange(len(gpt2)) == gpt2.eos_id) & fsm.is_accepting(s)),
        )
        got = info.dfa_state_of[nxt[live]]
        assert np.array_equal(got, end[live]), s


def test_mask_rows_and_index_consistent(brief_fsm):
    t = brief_fsm.tables
    rows = np.unpackbits(t.mask_rows.astype("<u4").view(np.uint8), axis=1, bitorder="little")[
        :, : t.vocab_size
    ].astype(bool)
    assert len({r.tobytes() for r in rows}) == t.num_mask_rows, "rows are distinct"
    assert rows.any(axis=1).all(), "the all-zero mask is never stored"
    cls_allowed = t.next_state != t.reject
    for s in range(t.num_states):
        expect = cls_allowed[t.token_class, s]
        if t.mask_index[s] == t.empty_row:
            assert not expect.any()
        else:
            assert np.array_equal(rows[t.mask_index[s]], expect), s
        count = int(expect.sum())
        forced = count == 1 and not t.accepting[s]
        assert bool(t.forced_valid[s]) == forced
        if forced:
            assert expect[t.forced_token[s]]
            assert brief_fsm.forced_token(s) == int(t.forced_token[s])
        else:
            assert brief_fsm.forced_token(s) is None
        assert bool(expect[t.eos_id]) == bool(t.accepting[s]), "EOS iff accepting"


def test_classes_are_behaviourally_distinct(brief_fsm):
    t = brief_fsm.tables
    cols = {t.next_state[c].tobytes() for c in range(t.num_classes)}
    assert len(cols) == t.num_classes
    assert (t.next_state[REJECT_CLASS] == t.reject).all()
    assert t.token_class[t.eos_id] == 1


def test_final_state_and_eos(gpt2, brief_fsm):
    fsm = brief_fsm
    final = fsm.tables.final_state
    assert final == fsm.num_states - 1 and fsm.is_final(final)
    assert not fsm.is_accepting(final) and not fsm.allowed(final).any()
    text = '{"summary":"ok","sentiment":"neutral"}'
    ids = gpt2.encode_greedy(text)
    state = fsm.walk(ids)
    assert fsm.is_accepting(state) and fsm.allowed_ids(state).tolist() == [gpt2.eos_id]
    assert fsm.forced_token(state) is None, "accepting states never force"
    assert fsm.advance(state, gpt2.eos_id) == final
    for s in range(fsm.num_states):
        assert (fsm.advance(s, gpt2.eos_id) is not None) == fsm.is_accepting(s)


def test_forced_tokens_jump_forward(gpt2, brief_fsm):
    fsm = brief_fsm
    forced = [s for s in range(fsm.num_states) if fsm.forced_token(s) is not None]
    assert forced, "the fixed key text yields forced states"
    for s in forced:
        ids = fsm.allowed_ids(s)
        assert ids.tolist() == [fsm.forced_token(s)]
    s = fsm.advance(fsm.start, gpt2.token_id("{"))
    assert fsm.forced_token(s) == gpt2.token_id('"')


def test_validate_semantics(gpt2, brief_fsm):
    fsm = brief_fsm
    eos = gpt2.eos_id
    good = gpt2.encode_greedy('{"summary":"Great café, 5/5 ✓","sentiment":"positive"}')
    assert fsm.validate([]) == -1
    assert fsm.validate(good) == -1
    assert fsm.validate(good + [eos]) == -1
    assert fsm.is_final(fsm.walk(good + [eos]))
    assert fsm.validate(good + [eos, eos]) == len(good) + 1
    assert fsm.validate(good + [eos, good[0]]) == len(good) + 1
    assert fsm.validate(good[:3] + [eos]) == 3, "EOS before accepting"
    assert fsm.validate([good[0], 50257]) == 1, "out-of-range id"
    assert fsm.validate([-1]) == 0
    quote = gpt2.token_id('"')
    prefix = gpt2.encode_greedy('{"summary":"')
    assert fsm.validate(prefix + [quote]) == len(prefix), "{1,200} needs one char"
    assert fsm.walk(prefix + [quote]) is None


# ----------------------------------------------------------------------------
# exhaustive, small synthetic vocabularies
# ----------------------------------------------------------------------------

SMALL_TOKENS = [
    "",
    "a",
    "b",
    "ab",
    "ba",
    "abb",
    "0",
    "1",
    "12",
    ".",
    ".5",
    "5.",
    "-",
    "x",
    "é",
    "ée",
    b"\xc3",
    b"\xa9",
    b"\xa9a",
    b"\xe6\x97",
    b"\xa5",
    "日",
    "日本",
    "本",
    "語",
    "中国",
    b"\xe4",
    b"\xb8\xad",
    b"\xed",
    b"\xa0\x80",
    b"\xed\x9f",
    b"\xbf",
    b"\xe0",
    b"\xa0",
    b"\x9f\xbf",
    '"',
    '"a',
    'a"',
    "{",
    "}",
    ":",
    " ",
    "\n",
    b"\xf0\x9f",
    b"\x98\x80",
    "😀",
    b"\xf0",
    b"\x9f\x98",
    b"\x80",
    b"\xff",
    b"\xf4\x90",
    b"\xf4\x8f",
    b"\xbf\xbf",
    "\\",
    '\\"',
    "s",
    '{"s":"',
    '"}',
    "ok",
    "okx",
]


def small_vocab() -> Vocabulary:
    v = Vocabulary.from_list(SMALL_TOKENS + ["<pad>"], eos="</s>", special=[len(SMALL_TOKENS)])
    return v


SMALL_PATTERNS = [
    NUMBER,
    r'\{"s":"[^"]{1,5}"\}',
    r"(日本|中国)語?",
    r"[^é]{1,3}",
    r".{2}",
    r'"([^"\\]|\\.)*"',
    r"a*?b+",
    r"[😀-😏]+x?",
    r"[\u0800-\uffff]+",
    r"[^\x00-\U0010FFFF]",
    r"",
    r"ok|okx|o",
]


def _bfs_states(fsm: TokenFSM, vocab: Vocabulary) -> dict[int, bytes]:
    reps = {fsm.start: b""}
    queue = [fsm.start]
    while queue:
        s = queue.pop(0)
        for t in fsm.allowed_ids(s).tolist():
            n = fsm.advance(s, t)
            if n is not None and n not in reps:
                reps[n] = reps[s] + (b"" if t == vocab.eos_id else vocab.tokens[t])
                queue.append(n)
    return reps


@pytest.mark.parametrize("pattern", SMALL_PATTERNS)
def test_exhaustive_small_vocab(pattern):
    vocab = small_vocab()
    fsm = TokenFSM.build(compile_regex(pattern), vocab)
    oracle = Oracle(pattern, vocab)
    reps = _bfs_states(fsm, vocab)
    assert set(reps) == set(range(fsm.num_states)) or pattern == r"[^\x00-\U0010FFFF]"
    for s, prefix in reps.items():
        if fsm.is_final(s):
            assert not fsm.allowed(s).any()
            continue
        oracle.check(fsm, s, prefix, range(len(vocab)))
        mask = fsm.allowed(s)
        forced = int(mask.sum()) == 1 and not fsm.is_accepting(s)
        assert (fsm.forced_token(s) is not None) == forced
    # Random token paths check next states too: a wrong transition shows up as
    # a wrong mask further down the path.
    rng = random.Random(pattern)
    for _ in range(150):
        state, prefix = fsm.start, b""
        for _ in range(rng.randint(1, 7)):
            ids = fsm.allowed_ids(state)
            if not len(ids):
                break
            t = int(rng.choice(ids.tolist()))
            state = fsm.advance(state, t)
            if t == vocab.eos_id:
                assert fsm.is_final(state)
                break
            prefix += vocab.tokens[t]
            oracle.check(fsm, state, prefix, range(len(vocab)))


def test_small_vocab_specials_and_empty_token():
    vocab = small_vocab()
    fsm = TokenFSM.build(compile_regex(r"a*"), vocab)
    pad = len(SMALL_TOKENS)
    empty = SMALL_TOKENS.index("")
    for s in range(fsm.num_states):
        assert fsm.advance(s, pad) is None
        assert fsm.advance(s, empty) is None, "empty tokens are never allowed"
    assert fsm.tables.token_class[pad] == REJECT_CLASS
    assert fsm.tables.token_class[empty] == REJECT_CLASS
    assert fsm.validate([vocab.token_id("a"), pad]) == 1


def test_vocab_without_eos():
    vocab = Vocabulary.from_list(["a", "b", "ab"])
    fsm = TokenFSM.build(compile_regex("(ab)+"), vocab)
    assert fsm.tables.final_state is None and fsm.tables.eos_id is None
    s = fsm.walk([2])
    assert fsm.is_accepting(s) and fsm.forced_token(s) is None
    s = fsm.advance(fsm.start, 0)
    assert fsm.forced_token(s) == 1, "only 'b' may follow 'a'"
    assert fsm.validate([0, 1, 2, 1]) == 3


def test_empty_language_uses_empty_row():
    vocab = small_vocab()
    fsm = TokenFSM.build(compile_regex(r"[^\x00-\U0010FFFF]"), vocab)
    t = fsm.tables
    assert t.num_mask_rows == 0 and t.mask_index[0] == t.empty_row
    assert not fsm.allowed(0).any() and fsm.validate([vocab.eos_id]) == 0


def test_token_level_minimisation_merges_indistinguishable_states():
    """After '1' and after '2' the byte DFA is in different states (one needs 'a',
    the other 'b'), but no token spells 'a' or 'b' alone: at token level both
    are dead ends, so they merge."""
    vocab = Vocabulary.from_list(["1", "2", "1a", "2b"], eos="</s>")
    fsm = TokenFSM.build(compile_regex(r"1a|2b"), vocab)
    assert fsm.info.reachable_states == 4  # start, after 1, after 2, accepting
    assert fsm.num_states == 4  # start, {after 1, after 2}, accepting, FINAL
    s1, s2 = fsm.advance(fsm.start, 0), fsm.advance(fsm.start, 1)
    assert s1 == s2 and not fsm.allowed(s1).any() and not fsm.is_accepting(s1)
    assert fsm.validate([2, 4]) == -1 and fsm.validate([0, 2]) == 1


def test_stats_and_pretty_print(brief_fsm):
    stats = brief_fsm.stats()
    assert stats["token_states"] == brief_fsm.num_states
    assert stats["total_bits"] == sum(stats["table_bits"].values())
    assert stats["widths"] == {"state": 11, "class": 8, "row": 7, "token": 16}
    text = brief_fsm.pretty_print(5)
    assert text.startswith("TokenFSM: ") and len(text.splitlines()) == 6
    loaded = TokenFSM.from_tables(brief_fsm.tables)
    assert "dfa_states" not in loaded.stats() and loaded.info is None
