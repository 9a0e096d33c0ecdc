# SPDX-License-Identifier: Apache-2.0
"""No import cycles among the repository's own packages (models, scripts, sglang_fpga, uvm_env).

Static: every .py file is parsed with `ast` and every import counts, also the ones
inside functions and `__import__("pkg.mod")` calls, because a deferred import is
how a cycle usually hides ("imported on first use to avoid a circular import").
A module depends on each of our modules it names; `from pkg import name` depends
on `pkg.name` when that is a module, else on `pkg`.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("models", "scripts", "sglang_fpga", "uvm_env")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def our_modules() -> dict[str, Path]:
    return {
        _module_name(p): p
        for pkg in PACKAGES
        for p in sorted((ROOT / pkg).rglob("*.py"))
        if "__pycache__" not in p.parts
    }


def _resolve(base: str, level: int, module: str | None, importer: str, is_pkg: bool) -> str:
    if not level:
        return module or ""
    parts = importer.split(".")
    parts = parts if is_pkg else parts[:-1]
    parts = parts[: len(parts) - (level - 1)]
    return ".".join([*parts, module] if module else parts)


def imports_of(name: str, path: Path, modules: set[str]) -> set[str]:
    """Our modules that `name` (at `path`) imports, anywhere in the file."""
    found: set[str] = set()

    def add(target: str) -> None:
        # The longest prefix that is one of our modules ("a.b.c" -> "a.b" if c is a name).
        while target and target not in modules:
            target = target.rpartition(".")[0]
        if target and target != name:
            found.add(target)

    is_pkg = path.name == "__init__.py"
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                add(alias.name)
        elif isinstance(node, ast.ImportFrom):
            base = _resolve(name, node.level, node.module, name, is_pkg)
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                add(sub if sub in modules else base)
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("__import__", "import_module")
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            add(node.args[0].value)
    return found


def find_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        # Recursion depth is bounded by the module count (a few hundred).
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def import_graph() -> dict[str, set[str]]:
    mods = our_modules()
    names = set(mods)
    return {n: imports_of(n, p, names) for n, p in mods.items()}


def test_no_import_cycles():
    graph = import_graph()
    cycles = find_cycles(graph)
    detail = [" <-> ".join(c) for c in cycles]
    assert not cycles, f"import cycles (break them with a shared module): {detail}"


def test_detector_finds_a_cycle():
    # The checker itself: a deferred import back to the importer is a cycle.
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert find_cycles(graph) == [["a", "b", "c"]]


def test_parser_sees_deferred_and_dynamic_imports(tmp_path):
    src = tmp_path / "m.py"
    src.write_text(
        "def f():\n    from models import token_fsm\n"
        "x = __import__('scripts.registry').registry\n"
        "from models.vocab import Vocabulary\n"
    )
    mods = {"m", "models", "models.token_fsm", "scripts", "scripts.registry", "models.vocab"}
    assert imports_of("m", src, mods) == {"models.token_fsm", "scripts.registry", "models.vocab"}
