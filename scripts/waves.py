# SPDX-License-Identifier: Apache-2.0
"""`make waves TEST=... [SIM=...]`: open the test's last waveform in a viewer.

The waveform is the one `make sim TEST=... WAVES=1` left in build/sim/<test>/<sim>/.
Viewers tried in order: GTKWave (Debian `gtkwave`) and Surfer (`surfer`, from its own
releases). Without either, the path is printed with how to get one.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

from scripts import registry
from scripts.sim import BUILD_ROOT, waves_file

VIEWERS = ("gtkwave", "surfer")
EXIT_USAGE = 2


def find_waveform(test: str, sim: str, root: Path = BUILD_ROOT) -> Path | None:
    """The test's waveform for `sim`, if a WAVES=1 run left a non-empty one."""
    t = registry.TESTS[test]
    out = root / test / sim
    candidates = [waves_file(t, sim, out), out / "dump.fst", out / "dump.vcd",
                  out / f"{t.top}.fst"]
    found = [p for p in dict.fromkeys(candidates) if p.exists() and p.stat().st_size > 0]
    return max(found, key=lambda p: p.stat().st_mtime) if found else None


def find_viewer() -> str | None:
    return next((p for p in map(shutil.which, VIEWERS) if p), None)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--test", default="")
    ap.add_argument("--sim", default="verilator")
    args = ap.parse_args(argv)
    if args.test not in registry.TESTS:
        print(f"unknown TEST '{args.test}' (make list-tests)", file=sys.stderr)
        return EXIT_USAGE
    wave = find_waveform(args.test, args.sim)
    if wave is None:
        print(f"no waveform for {args.test} on {args.sim}: run "
              f"make sim TEST={args.test} SIM={args.sim} WAVES=1 first", file=sys.stderr)
        return 1
    viewer = find_viewer()
    if viewer is None:
        print(f"waveform: {wave}\nno viewer on PATH: install GTKWave (apt-get install "
              "gtkwave) or Surfer (https://surfer-project.org), then run make waves again",
              file=sys.stderr)
        return 1
    print(f"opening {wave} in {Path(viewer).name}")
    return subprocess.call([viewer, str(wave)])


if __name__ == "__main__":
    sys.exit(main())
