# SPDX-License-Identifier: Apache-2.0
"""Run by scripts/package_check.py with an installed package, outside the checkout: imports
and exercises each public entry point. Needs nothing but the package and its dependencies;
prints one line per check and exits non-zero on the first failure."""

from __future__ import annotations

import base64
import importlib
import importlib.util
import subprocess
import sys
from pathlib import Path


def check(name: str, ok: bool, detail: str = "") -> None:
    print(f"{'ok  ' if ok else 'FAIL'} {name}{': ' + detail if detail else ''}", flush=True)
    if not ok:
        sys.exit(1)


def main() -> None:
    work = Path.cwd()
    bin_dir = Path(sys.executable).parent
    import sglang_fpga
    site = Path(sglang_fpga.__file__).resolve()
    check("import sglang_fpga from the installed package", "site-packages" in site.parts,
          str(site))
    for name in ("models", "scripts", "uvm_env"):
        try:
            importlib.import_module(name)
            check(f"no top-level {name}", False, "it imports")
        except ImportError:
            check(f"no top-level {name}", True)
    from sglang_fpga.models.radix_cache import RadixCache
    check("golden models (sglang_fpga.models)", RadixCache().match_prefix([1]).length == 0)

    # A tiny byte-level vocabulary in tiktoken's format: one token per byte value.
    vocab = work / "bytes.tiktoken"
    vocab.write_text("".join(f"{base64.b64encode(bytes([b])).decode()} {b}\n"
                             for b in range(256)))
    out = work / "grammar"
    run = subprocess.run([bin_dir / "sglang-fpga-compile", "compile", "--regex", "(yes|no)",
                          "--vocab", str(vocab), "-o", str(out)], capture_output=True, text=True)
    check("sglang-fpga-compile compile", run.returncode == 0 and (out / "fsm.bin").is_file(),
          run.stderr.strip()[-300:])
    tokens = ",".join(str(b) for b in b"yes")
    run = subprocess.run([bin_dir / "sglang-fpga-compile", "check", "--image",
                          str(out / "fsm.bin"), "--tokens", tokens], capture_output=True,
                         text=True)
    check("sglang-fpga-compile check", run.returncode == 0, run.stdout.strip())
    run = subprocess.run([bin_dir / "sglang-fpga-regex2sv", "(yes|no)", "--name", "yn", "-o",
                          str(work / "sv")], capture_output=True, text=True)
    check("sglang-fpga-regex2sv", run.returncode == 0 and "module yn" in (
        work / "sv" / "yn.sv").read_text(), run.stderr.strip()[-300:])

    from sglang_fpga import FsmDevice, RadixDevice, RadixHandleError
    from sglang_fpga.compiler import compile_grammar
    from sglang_fpga.models.vocab import Vocabulary
    dev = RadixDevice("model")
    dev.insert([1, 2, 3], [7, 8, 9])
    m = dev.match([1, 2, 4])
    check("RadixDevice('model') match", m.length == 2 and m.kv_indices.tolist() == [7, 8])
    dev.evict(10)
    try:
        dev.lock(m.handle)
        check("RadixDevice raises on a stale handle", False)
    except RadixHandleError as exc:
        check("RadixDevice raises on a stale handle", exc.status == 7)
    voc = Vocabulary.from_tiktoken(vocab)
    image = compile_grammar(voc, schema={"type": "boolean"}).image
    fsm = FsmDevice("model")
    fsm.load(0, image)
    fsm.bind(0, 0)
    allowed = fsm.mask(0)
    check("FsmDevice('model') JSON-schema grammar mask", bool(allowed[ord("t")])
          and bool(allowed[ord("f")]) and int(allowed.sum()) == 2)
    check("FsmDevice advance", fsm.advance(0, ord("t")).accepted)
    try:
        importlib.import_module("sglang_fpga.sglang")
        has_sglang = importlib.util.find_spec("sglang") is not None
        check("sglang_fpga.sglang imports (SGLang installed)", has_sglang)
    except ImportError as exc:
        check("sglang_fpga.sglang says what it needs without SGLang", "[sglang]" in str(exc),
              str(exc))


if __name__ == "__main__":
    main()
