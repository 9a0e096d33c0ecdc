# SPDX-License-Identifier: Apache-2.0
"""`make lint`'s second SystemVerilog front end: slang (pinned PyPI `pyslang`) elaborates
every RTL top at every configuration the tests build, as scripts.lint does with Verilator.

No relaxation (SLANG_COMPAT is empty): slang holds the RTL to IEEE 1800's
declare-before-use rule, which Verilator and Icarus do not check.
"""

from __future__ import annotations

import shlex

import pyslang

from scripts import registry
from scripts.registry import ROOT
from scripts.sim import ASSERT_DEFINES

SLANG_COMPAT: tuple[str, ...] = ()


def slang_args(test: registry.SimTest) -> list[str]:
    """The slang command line for one test configuration (as the simulators build it)."""
    return ["slang", *SLANG_COMPAT, "--top", test.top, "--timescale", "1ns/1ps",
            # Modules found by name, like the simulators' library path (the AXI checker).
            "-y", str(ROOT / "rtl" / "common"), "--libext", ".sv",
            *[f"-D{k}={v}" for k, v in ASSERT_DEFINES.items()],
            *[f"-I{d}" for d in test.include_dirs()],
            *[f"-G{k}={v}" for k, v in test.parameters.items()],
            *map(str, test.sources())]


def slang_lint(test: registry.SimTest) -> tuple[bool, str]:
    """Parse and elaborate; clean means no error and no warning. slang prints its own
    diagnostics; the returned text is the count."""
    driver = pyslang.driver.Driver()
    driver.addStandardArgs()
    ok = driver.parseCommandLine(shlex.join(slang_args(test)),
                                 pyslang.driver.CommandLineOptions())
    ok = ok and driver.processOptions() and driver.parseAllSources()
    if not ok:
        return False, "slang could not read the sources (see above)"
    driver.reportCompilation(driver.createCompilation(), True)
    errors, warnings = driver.diagEngine.numErrors, driver.diagEngine.numWarnings
    return errors == 0 and warnings == 0, f"{errors} errors, {warnings} warnings"
