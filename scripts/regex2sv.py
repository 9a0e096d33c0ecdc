# SPDX-License-Identifier: Apache-2.0
"""The `fsm_regex2sv` simulation test's generated DUT, and the old command line.

The generator itself is product code: ``sglang_fpga.regex2sv``.

    python -m scripts.regex2sv '<regex>' --name json_summary -o build/gen/

``GeneratedSimTest`` is the test registry's hook for the `fsm_regex2sv`
simulation test: this SimTest subclass (re)generates the modules it lists into
build/gen/regex2sv/ whenever its ``sources()`` are asked for, so `make sim`,
`make test` and `make lint` all see them without any other step.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path

from scripts.sim_test import SimTest
from sglang_fpga.regex2sv import GenInfo, generate, main, render, render_bank  # noqa: F401

ROOT = Path(__file__).resolve().parent.parent
GEN_DIR = ROOT / "build" / "gen" / "regex2sv"

#: The modules the `fsm_regex2sv` test builds: (module name, pattern).
TEST_REGEXES: tuple[tuple[str, str], ...] = (
    ("r2s_brief", r'\{"summary":"[^"]{1,200}","sentiment":"(positive|neutral|negative)"\}'),
    ("r2s_number", r"-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?"),
    ("r2s_enum", r"(yes|no|maybe|nope)"),
    ("r2s_email", r"[a-z0-9._]{1,8}@[a-z]{2,6}\.(com|org|net)"),
    ("r2s_utf8", r"é[ü-ÿ]{1,3}(日本|😀)?\.?"),
    ("r2s_classes", r"\d{2,4}-\w+\s?[^a-z\n]{0,3}.?"),
    ("r2s_list", r'\[("[a-c]{1,3}",){0,3}"[a-c]{1,3}"\]'),
)


# ----------------------------------------------------------------------------
# Test-registry hook
# ----------------------------------------------------------------------------


@dataclass(frozen=True)
class GeneratedSimTest(SimTest):
    """A SimTest whose DUT is generated (for scripts/registry.py).

    ``regexes`` is ((module name, pattern), ...); the DUT top (``top``)
    instantiates them all. Its file list names the generated files (so every
    flow that reads file lists sees the same sources); its ``sources()``
    generates them first; generation is cheap and idempotent (a file is
    rewritten only when its text changes)."""

    regexes: tuple[tuple[str, str], ...] = field(default_factory=tuple)

    def sources(self) -> list[Path]:
        infos = [generate(pattern, name, GEN_DIR) for name, pattern in self.regexes]
        top_path = GEN_DIR / f"{self.top}.sv"
        text = render_bank(infos, self.top)
        if not top_path.exists() or top_path.read_text() != text:
            top_path.write_text(text)
        listed = super().sources()
        made = [*(i.path for i in infos), top_path]
        if {p.resolve() for p in made} - {p.resolve() for p in listed}:
            raise ValueError(f"{self.name}: its file lists {self.filelists} must name "
                             f"every generated file: {[p.name for p in made]}")
        return listed



if __name__ == "__main__":
    sys.exit(main())
