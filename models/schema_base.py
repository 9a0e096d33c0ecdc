# SPDX-License-Identifier: Apache-2.0
"""What every part of the JSON-schema compiler shares: the JSON token grammar and the errors.

models.json_schema (the compiler), models.schema_pattern (JSON-Schema `pattern`
strings) and models.schema_oneof import this; it imports none of them.
"""

from __future__ import annotations

JSON_NULL = "null"
JSON_BOOLEAN = "(?:true|false)"
JSON_INTEGER = "-?(?:0|[1-9][0-9]*)"
JSON_NUMBER = r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?"

_HEX = "[0-9a-fA-F]"
# \u escapes are split so that one regex repetition is always one code point:
# a surrogate escape is only legal as a high+low pair, which json.loads turns
# into one character. Without that, minLength would count a pair as two and
# accept strings that are too short, and a lone surrogate cannot be UTF-8.
_U_NON_SURROGATE = rf"\\u(?:[0-9a-cA-CefEF]{_HEX}{{3}}|[dD][0-7]{_HEX}{{2}})"
_U_PAIR = rf"\\u[dD][89abAB]{_HEX}{{2}}\\u[dD][c-fC-F]{_HEX}{{2}}"
#: One character of a JSON string body: an unescaped character (anything but
#: `"`, backslash and U+0000-U+001F) or one escape sequence.
JSON_STRING_CHAR = rf'(?:[^"\\\x00-\x1f]|\\["\\/bfnrt]|{_U_NON_SURROGATE}|{_U_PAIR})'
JSON_STRING = f'"{JSON_STRING_CHAR}*"'

#: Whitespace allowed between JSON tokens in "flexible" mode. It is bounded so a
#: model cannot loop on whitespace forever (a known failure of unbounded `ws*`),
#: yet 16 covers `json.dumps(indent=2)` down to nesting depth 7.
FLEXIBLE_WS = "[ \\t\\n\\r]{0,16}"


class SchemaError(ValueError):
    """The schema uses something the compiler cannot turn into a sound regex."""

    def __init__(self, message: str, keyword: str, path: str) -> None:
        super().__init__(f"{path}: '{keyword}': {message}")
        self.keyword = keyword
        self.path = path


class RegexDialectError(ValueError):
    """A regex uses syntax outside the dialect that compile_regex supports."""


#: The JSON Schema type names, in the order the compiler tries them.
JSON_TYPES = ("null", "boolean", "integer", "number", "string", "array", "object")
