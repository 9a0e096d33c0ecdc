# SPDX-License-Identifier: Apache-2.0
"""Constraint front end: SGLang-style DSL -> printable IR -> regex -> token tables.

The source document's compiler path turns `gen(regex=...)` and `select(choices)`
into an IR and then into hardware artefacts. This module is the first half:

    prog = "Rating: " + select("rating", ["good", "bad"]) + "\\n" + gen("why", regex="[a-z ]+")
    print(prog)            # the DSL again, for logs
    print(prog.pretty())   # one node per line with its regex, for debugging
    to_regex(prog)         # one regex for the whole program (oracle: regex.fullmatch, ASCII)
    compile(prog, vocab)   # token-level tables via models.regex_dfa + models.token_fsm

`max_tokens` is metadata for the decoding loop: a regex cannot count tokens,
so it never changes the regex. Names are unique per program so that the
fields can be read back from the decoded text by name.
"""

from __future__ import annotations

import json as _json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .json_schema import check_regex_dialect, escape_literal, schema_to_regex

if TYPE_CHECKING:
    from .token_tables import TokenTables
    from .vocab import Vocabulary

__all__ = [
    "ANY_TEXT",
    "Gen",
    "Json",
    "Literal",
    "Node",
    "Select",
    "Seq",
    "compile",
    "fields",
    "gen",
    "json",
    "program",
    "select",
    "to_regex",
]

#: What `gen` without a regex may produce: any text, newlines included.
ANY_TEXT = r"[\s\S]*"

# --------------------------------------------------------------------------- IR


class Node:
    """Base of the IR. `a + b` concatenates; plain strings become Literals."""

    def regex(self) -> str:
        """This node's regex, safe to concatenate with any other node's."""
        raise NotImplementedError

    def pretty(self, indent: int = 0) -> str:
        """One line per node with its regex, for a failing test's log."""
        return " " * indent + f"{self}  ~  {_abbrev(self.regex())}"

    def __add__(self, other: Node | str) -> Seq:
        return program([self, other])

    def __radd__(self, other: Node | str) -> Seq:
        return program([other, self])


@dataclass(frozen=True)
class Literal(Node):
    """Fixed text the model must reproduce exactly."""

    text: str

    def regex(self) -> str:
        return escape_literal(self.text)

    def __str__(self) -> str:
        return repr(self.text)


@dataclass(frozen=True)
class Gen(Node):
    """A generated field constrained by a regex in compile_regex's dialect."""

    name: str
    pattern: str | None = None
    max_tokens: int | None = None

    def __post_init__(self) -> None:
        _check_name(self.name)
        _check_max_tokens(self.max_tokens)
        if self.pattern is not None:
            check_regex_dialect(self.pattern)

    def regex(self) -> str:
        return f"(?:{ANY_TEXT if self.pattern is None else self.pattern})"

    def __str__(self) -> str:
        args = [repr(self.name)]
        if self.pattern is not None:
            args.append(f"regex={self.pattern!r}")
        if self.max_tokens is not None:
            args.append(f"max_tokens={self.max_tokens}")
        return f"gen({', '.join(args)})"


@dataclass(frozen=True)
class Select(Node):
    """Exactly one of a fixed list of strings, matched literally."""

    name: str
    choices: tuple[str, ...]

    def __post_init__(self) -> None:
        _check_name(self.name)
        if not self.choices or not all(isinstance(c, str) for c in self.choices):
            raise ValueError(f"select {self.name!r}: choices must be a non-empty list of str")

    def regex(self) -> str:
        # Choices are literals: "a.b" must not match "axb", "(x)" is not a group.
        return "(?:" + "|".join(dict.fromkeys(escape_literal(c) for c in self.choices)) + ")"

    def __str__(self) -> str:
        return f"select({self.name!r}, choices={list(self.choices)!r})"


@dataclass(frozen=True)
class Json(Node):
    """A JSON document that validates against `schema` (see models.json_schema)."""

    name: str
    schema: Mapping[str, Any] = field(hash=False)
    whitespace: str = "compact"
    max_tokens: int | None = None
    _regex: str = field(init=False, repr=False, compare=False, hash=False, default="")

    def __post_init__(self) -> None:
        _check_name(self.name)
        _check_max_tokens(self.max_tokens)
        # Compile now so a bad schema fails where the program is written.
        object.__setattr__(self, "_regex", schema_to_regex(self.schema, self.whitespace))

    def regex(self) -> str:
        return self._regex

    def pretty(self, indent: int = 0) -> str:
        # The schema can run to pages; name it by title and size instead.
        title = self.schema.get("title", "untitled")
        info = f"json({self.name!r}, schema=<{title}: {len(_json.dumps(self.schema))} chars>"
        info += "".join(
            f", {k}={v!r}"
            for k, v in (("whitespace", self.whitespace), ("max_tokens", self.max_tokens))
            if v not in (None, "compact")
        )
        return " " * indent + f"{info})  ~  {_abbrev(self._regex)}"

    def __str__(self) -> str:
        args = [repr(self.name), f"schema={_json.loads(_json.dumps(self.schema))!r}"]
        if self.whitespace != "compact":
            args.append(f"whitespace={self.whitespace!r}")
        if self.max_tokens is not None:
            args.append(f"max_tokens={self.max_tokens}")
        return f"json({', '.join(args)})"


@dataclass(frozen=True)
class Seq(Node):
    """Concatenation. Built by `+` or `program([...])`; never nested."""

    parts: tuple[Node, ...]

    def regex(self) -> str:
        return "".join(p.regex() for p in self.parts)

    def pretty(self, indent: int = 0) -> str:
        lines = [" " * indent + f"Seq ({len(self.parts)} parts)"]
        lines += [p.pretty(indent + 2) for p in self.parts]
        return "\n".join(lines)

    def __str__(self) -> str:
        return " + ".join(str(p) for p in self.parts) if self.parts else "program([])"


# --------------------------------------------------------------------------- DSL


def gen(name: str, regex: str | None = None, max_tokens: int | None = None) -> Gen:
    """A generated field; regex=None means any text (ANY_TEXT)."""
    return Gen(name, regex, max_tokens)


def select(name: str, choices: Iterable[str]) -> Select:
    """One of `choices`, taken literally."""
    return Select(name, tuple(choices))


def json(
    name: str,
    schema: Mapping[str, Any],
    whitespace: str = "compact",
    max_tokens: int | None = None,
) -> Json:
    """A JSON document constrained by a JSON Schema."""
    return Json(name, schema, whitespace, max_tokens)


def program(parts: Iterable[Node | str]) -> Seq:
    """Concatenate nodes and strings into one flat Seq, merging adjacent text."""
    flat: list[Node] = []
    for part in parts:
        for node in part.parts if isinstance(part, Seq) else [_as_node(part)]:
            if isinstance(node, Literal) and flat and isinstance(flat[-1], Literal):
                flat[-1] = Literal(flat[-1].text + node.text)
            elif not (isinstance(node, Literal) and not node.text):
                flat.append(node)
    names = [n.name for n in flat if isinstance(n, Gen | Select | Json)]
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        raise ValueError(f"field names must be unique in a program: {dupes}")
    return Seq(tuple(flat))


def fields(ir: Node | str | Sequence[Node | str]) -> tuple[Gen | Select | Json, ...]:
    """The named fields of a program in order, with their max_tokens metadata."""
    return tuple(n for n in _as_seq(ir).parts if isinstance(n, Gen | Select | Json))


def to_regex(ir: Node | str | Sequence[Node | str]) -> str:
    """One regex for the whole program, in compile_regex's dialect."""
    return _as_seq(ir).regex()


def compile(ir: Node | str | Sequence[Node | str], vocab: Vocabulary) -> TokenTables:
    """Token-level tables for `ir` over `vocab`, as models.token_fsm builds them."""
    # Imported here so this module (and to_regex) work without the back end.
    from .regex_dfa import compile_regex
    from .token_fsm import TokenFSM

    return TokenFSM.build(compile_regex(to_regex(ir)), vocab).tables


# --------------------------------------------------------------------------- helpers


def _as_node(part: Node | str) -> Node:
    if isinstance(part, str):
        return Literal(part)
    if isinstance(part, Node):
        return part
    raise TypeError(f"cannot concatenate {type(part).__name__} into a constraint program")


def _as_seq(ir: Node | str | Sequence[Node | str]) -> Seq:
    if isinstance(ir, Seq):
        return ir
    if isinstance(ir, Node | str):
        return program([ir])
    return program(ir)


def _check_name(name: str) -> None:
    if not isinstance(name, str) or not name.isidentifier():
        raise ValueError(f"field name must be an identifier, got {name!r}")


def _check_max_tokens(max_tokens: int | None) -> None:
    if max_tokens is not None and (
        isinstance(max_tokens, bool) or not isinstance(max_tokens, int) or max_tokens < 1
    ):
        raise ValueError(f"max_tokens must be a positive int or None, got {max_tokens!r}")


def _abbrev(text: str, limit: int = 72) -> str:
    return text if len(text) <= limit else f"{text[: limit - 12]}… ({len(text)} chars)"


if __name__ == "__main__":
    from .json_schema import FINANCIAL_SUMMARY_SCHEMA

    demo = (
        "Company: "
        + gen("company", regex="[A-Z][A-Za-z&. ]{0,39}", max_tokens=16)
        + "\nOutlook: "
        + select("outlook", ["up", "flat", "down"])
        + "\nReport: "
        + json("report", schema=FINANCIAL_SUMMARY_SCHEMA, max_tokens=512)
    )
    print(demo)
    print(demo.pretty())
    print(to_regex(demo))
