# SPDX-License-Identifier: Apache-2.0
"""Build krnl_radix or krnl_fsm (the kernel tests' configuration, less the test-only
stress sizes in TEST_ONLY, or with --params overrides) and serve it to the host
driver's ``sim`` back end over a Unix socket (sglang_fpga/backends/sim.py starts this).

    python -m scripts.sim_serve --kernel radix --socket /tmp/x.sock [--params '{"NodeCap": 4096}']
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys

from scripts import registry
from scripts.sim import BUILD_ROOT, run_one

TESTS = {"radix": "kernel_radix", "fsm": "kernel_fsm"}
# The kernel test's tiny L1 caches make every run go through DDR, which a test wants
# and a served card does not: a served krnl_radix keeps its own L1 size.
TEST_ONLY = {"radix": ("L1Lines",), "fsm": ()}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--kernel", choices=sorted(TESTS), required=True)
    ap.add_argument("--socket", required=True)
    ap.add_argument("--params", default="{}", help="JSON: build parameters to override")
    args = ap.parse_args(argv)
    base = registry.get(TESTS[args.kernel])
    params = {k: v for k, v in base.parameters.items() if k not in TEST_ONLY[args.kernel]}
    test = dataclasses.replace(base, module="uvm_env.top.kernel_server", testcase="serve",
                               parameters={**params, **json.loads(args.params)})
    out = BUILD_ROOT / "_serve" / f"{args.kernel}-{os.getpid()}"
    res = run_one(test, "verilator", seed=1, out_dir=out,
                  extra_env={"SGLANG_FPGA_SOCKET": args.socket,
                             "SGLANG_FPGA_KERNEL": args.kernel})
    if not res.passed:
        print("\n".join(res.errors), file=sys.stderr)
    return 0 if res.passed else 1


if __name__ == "__main__":
    sys.exit(main())
