# SPDX-License-Identifier: Apache-2.0
"""models.constraints: DSL -> IR -> regex -> token tables."""

from __future__ import annotations

import json as stdjson

import pytest
import regex
from hypothesis import given, settings
from hypothesis import strategies as st

from models.constraints import (
    ANY_TEXT,
    Gen,
    Json,
    Literal,
    Select,
    Seq,
    compile,
    fields,
    gen,
    json,
    program,
    select,
    to_regex,
)
from models.json_schema import FINANCIAL_SUMMARY_SCHEMA, RegexDialectError, SchemaError


def fullmatch(pattern: str, text: str) -> bool:
    return regex.fullmatch(pattern, text, flags=regex.ASCII) is not None


SENTIMENT = ["positive", "neutral", "negative"]


def report_program() -> Seq:
    return (
        "Ticker: "
        + gen("ticker", regex="[A-Z]{1,5}", max_tokens=4)
        + "\nSentiment: "
        + select("sentiment", SENTIMENT)
        + "\nReport: "
        + json("report", schema=FINANCIAL_SUMMARY_SCHEMA, max_tokens=400)
    )


REPORT = {
    "summary": "Beat on revenue (+12%).",
    "key_points": [{"point": "Cloud up", "importance": 4}],
    "sentiment": "positive",
}

# --------------------------------------------------------------------------- IR


def test_plus_builds_a_flat_seq():
    prog = report_program()
    assert isinstance(prog, Seq)
    assert [type(p) for p in prog.parts] == [Literal, Gen, Literal, Select, Literal, Json]
    # Adjacent text merges; empty text disappears; nesting flattens.
    merged = "a" + gen("x", regex="b") + "c" + "d" + Literal("") + ("e" + select("y", ["f"]))
    assert [str(p) for p in merged.parts] == [
        "'a'",
        "gen('x', regex='b')",
        "'cde'",
        "select('y', choices=['f'])",
    ]
    assert program(["a", gen("x", regex="b"), "c"]) == "a" + gen("x", regex="b") + "c"


def test_str_is_the_dsl_and_round_trips():
    prog = report_program()
    text = str(prog)
    assert text.startswith("'Ticker: ' + gen('ticker', regex='[A-Z]{1,5}', max_tokens=4) + ")
    assert "select('sentiment', choices=['positive', 'neutral', 'negative'])" in text
    rebuilt = eval(text, {"gen": gen, "select": select, "json": json})  # our own output
    assert rebuilt == prog
    assert str(gen("free")) == "gen('free')"


def test_pretty_shows_one_node_per_line_with_its_regex():
    lines = report_program().pretty().splitlines()
    assert lines[0] == "Seq (6 parts)"
    assert len(lines) == 7
    assert lines[2] == "  gen('ticker', regex='[A-Z]{1,5}', max_tokens=4)  ~  (?:[A-Z]{1,5})"
    assert lines[4] == "  select('sentiment', choices=['positive', 'neutral', 'negative'])" + (
        "  ~  (?:positive|neutral|negative)"
    )
    assert lines[6].startswith("  json('report', schema=<FinancialSummary: ")
    assert "max_tokens=400" in lines[6] and "chars)" in lines[6]  # long regex abbreviated


def test_fields_carry_max_tokens_metadata():
    got = [
        (f.name, type(f).__name__, getattr(f, "max_tokens", None)) for f in fields(report_program())
    ]
    assert got == [("ticker", "Gen", 4), ("sentiment", "Select", None), ("report", "Json", 400)]


def test_max_tokens_is_not_in_the_regex():
    assert to_regex(gen("a", regex="[0-9]+", max_tokens=3)) == to_regex(gen("a", regex="[0-9]+"))


# --------------------------------------------------------------------------- regex


def test_program_regex_against_oracle():
    pattern = to_regex(report_program())
    report = stdjson.dumps(REPORT, separators=(",", ":"))
    good = f"Ticker: ACME\nSentiment: neutral\nReport: {report}"
    assert fullmatch(pattern, good)
    bad = [
        good.replace("ACME", "acme"),  # gen regex
        good.replace("ACME", "ABCDEF"),  # gen bound
        good.replace("neutral", "bullish"),  # select
        good.replace("Ticker: ", "Ticker:"),  # literal
        good.replace('"positive"', '"upbeat"'),  # schema enum
        good.replace('"importance":4', '"importance":"4"'),  # schema type
        good + " ",  # trailing text
    ]
    for text in bad:
        assert not fullmatch(pattern, text), text


def test_gen_regex_is_grouped():
    # Without the group, "a|b" + "!" would mean "a" or "b!".
    pattern = to_regex(gen("x", regex="a|b") + "!")
    assert fullmatch(pattern, "a!") and fullmatch(pattern, "b!")
    assert not fullmatch(pattern, "a")


def test_gen_without_regex_takes_any_text():
    pattern = to_regex("<" + gen("free", max_tokens=8) + ">")
    assert pattern == "<(?:" + ANY_TEXT + ")>"
    for text in ("<>", "<multi\nline é 😀>", "<<>>"):
        assert fullmatch(pattern, text)


METACHAR_CHOICES = ["a.b", "(x)", "a|b", "[z]", "1+1", "$5", "x*", "\\d", "{2}", "^", "?", "-", " "]


def test_select_escapes_metacharacters():
    pattern = to_regex(select("s", METACHAR_CHOICES))
    for choice in METACHAR_CHOICES:
        assert fullmatch(pattern, choice), choice
    for near in ("axb", "x", "a", "b", "z", "2", "11", "5", "xx", "", "d", "3", "()"):
        assert not fullmatch(pattern, near), near


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.text(alphabet=".()[]{}|*+?^$\\-ab \n", min_size=0, max_size=4), min_size=1, max_size=5
    ),
    st.text(alphabet=".()[]{}|*+?^$\\-ab \n", max_size=4),
)
def test_select_matches_exactly_its_choices(choices, probe):
    pattern = to_regex(select("s", choices))
    assert all(fullmatch(pattern, c) for c in choices)
    assert fullmatch(pattern, probe) == (probe in choices)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=12))
def test_literal_matches_only_itself(text):
    pattern = to_regex(program([text]))
    assert fullmatch(pattern, text)
    assert not fullmatch(pattern, text + "x")


# --------------------------------------------------------------------------- errors


@pytest.mark.parametrize(
    ("build", "error", "match"),
    [
        (lambda: gen("x", regex="(?=a)a"), RegexDialectError, "group"),
        (lambda: gen("x", regex=r"(a)\1"), RegexDialectError, "backreference"),
        (lambda: gen("x", regex="a^b"), RegexDialectError, "anchor"),
        (lambda: gen("x", regex="[a-"), RegexDialectError, "unterminated"),
        (lambda: gen("x", regex="a", max_tokens=0), ValueError, "max_tokens"),
        (lambda: gen("x", regex="a", max_tokens=True), ValueError, "max_tokens"),
        (lambda: gen("not a name", regex="a"), ValueError, "identifier"),
        (lambda: select("s", []), ValueError, "non-empty"),
        (lambda: select("s", ["a", 1]), ValueError, "non-empty"),
        (lambda: json("j", schema={"type": "string", "format": "date"}), SchemaError, "format"),
        (lambda: gen("x", regex="a") + select("x", ["b"]), ValueError, "unique"),
        (lambda: gen("x", regex="a") + 3, TypeError, "int"),
    ],
)
def test_bad_programs_fail_where_written(build, error, match):
    with pytest.raises(error, match=match):
        build()


# --------------------------------------------------------------------------- back end


def test_compile_gives_token_tables():
    from models.token_fsm import TokenFSM, TokenTables
    from models.vocab import Vocabulary

    tokens = [
        "Rating",
        ":",
        " ",
        "Rating: ",
        "go",
        "od",
        "good",
        "bad",
        "a.b",
        "a",
        ".",
        "b",
        "!",
        "x",
    ]
    vocab = Vocabulary.from_list(tokens, eos="<eos>")
    tid = {t: i for i, t in enumerate(tokens)}
    prog = "Rating: " + select("r", ["good", "bad", "a.b"]) + "!"
    tables = compile(prog, vocab)
    assert isinstance(tables, TokenTables)
    assert tables.vocab_size == len(tokens) + 1
    fsm = TokenFSM.from_tables(tables)

    def run(words: list[str]) -> int | None:
        return fsm.walk([tid[w] for w in words])

    assert sorted(fsm.allowed_ids(fsm.start)) == [tid["Rating"], tid["Rating: "]]
    for words in (
        ["Rating: ", "good", "!"],
        ["Rating", ":", " ", "go", "od", "!"],
        ["Rating: ", "a", ".", "b", "!"],
    ):
        end = run(words)
        assert end is not None and fsm.is_accepting(end), words
        assert fsm.advance(end, vocab.eos_id) is not None  # EOS allowed at the end
    for words in (["Rating: ", "a", "x"], ["Rating: ", "good", "x"], ["Rating: ", "a", "b"]):
        assert run(words) is None, words  # "." is literal: "ab" is not "a.b"
    middle = run(["Rating: ", "go"])
    assert middle is not None and not fsm.is_accepting(middle)
    assert fsm.advance(middle, vocab.eos_id) is None  # no EOS before the program ends
    assert fsm.forced_token(run(["Rating: ", "good"])) == tid["!"]  # jump-forward


def test_compile_json_field_accepts_a_real_document():
    from models.regex_dfa import compile_regex

    prog = "Report: " + json("report", schema=FINANCIAL_SUMMARY_SCHEMA)
    dfa = compile_regex(to_regex(prog))
    doc = stdjson.dumps(REPORT, separators=(",", ":"), ensure_ascii=False)
    assert dfa.accepts(f"Report: {doc}".encode())
    assert not dfa.accepts(f"Report: {doc.replace('positive', 'upbeat')}".encode())
