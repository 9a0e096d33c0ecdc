# SPDX-License-Identifier: Apache-2.0
"""The test registry is the single list of tests: every entry must be runnable."""

import ast
import importlib.util

import pytest

from scripts import registry
from scripts.registry import ROOT, SIMULATORS


@pytest.mark.parametrize("test", registry.TESTS.values(), ids=lambda t: t.name)
def test_entry_points_at_real_files(test):
    assert test.sims and set(test.sims) <= set(SIMULATORS)
    assert set(test.ci_sims) <= set(test.sims)
    for src in test.sources():
        assert src.exists(), f"{test.name}: {src} missing"
    assert any(src.stem == test.top for src in test.sources()), f"{test.top} not in file lists"
    spec = importlib.util.find_spec(test.module)
    assert spec is not None and spec.origin, f"{test.module} not importable"
    tree = ast.parse(open(spec.origin).read())
    classes = {n.name for n in ast.walk(tree) if isinstance(n, ast.ClassDef)}
    assert test.testcase in classes, f"{test.testcase} not defined in {test.module}"


def test_names_are_unique_and_match_module_names():
    for name, test in registry.TESTS.items():
        assert name == test.name
        # One file per testpoint, named for it; a parameter sweep of one testpoint
        # (radix_long_edges_p2 ...) runs the same file in another build.
        assert name.startswith(test.module.rsplit(".", 1)[-1]), "one file per testpoint"
        assert test.module.startswith(f"tests.{test.block}."), "tests mirror rtl/<blk>/"


def test_every_rtl_file_is_in_a_file_list():
    """Design files are in a block file list; formal harnesses (rtl/<blk>/formal/) are in
    the [files] section of a .sby proof."""
    listed = {p.resolve() for t in registry.TESTS.values() for p in t.sources()}
    for blk_list in (ROOT / "rtl").glob("*/*.f"):
        for line in blk_list.read_text().split():
            listed.add((blk_list.parent / line).resolve())
    for sby in (ROOT / "rtl").glob("*/formal/*.sby"):
        files = sby.read_text().split("[files]", 1)[1].split("\n[", 1)[0]
        listed |= {(sby.parent / ln.strip()).resolve() for ln in files.splitlines() if ln.strip()}
    for sv in (ROOT / "rtl").rglob("*.sv"):
        assert sv.resolve() in listed, f"{sv} is in no file list"


def test_config_key_separates_parameter_sets():
    t = registry.TESTS["fifo_random"]
    other = registry.SimTest(**{**t.__dict__, "name": "x", "parameters": {"Width": 8}})
    assert t.config_key() != other.config_key()
