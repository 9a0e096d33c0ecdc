# SPDX-License-Identifier: Apache-2.0
"""make bench's xgrammar peer (scripts/bench_fsm_peers.xgrammar_peer), run where xgrammar
is installed: it follows the golden model's token path, and refuses a wrong one.

The benchmark script lives in the checkout, not in the package, so it runs in a child
process with the checkout on its path; this session keeps importing the installed
package only."""

from __future__ import annotations

import json
import os
import subprocess
import sys

_CODE = """
import json
from models.token_fsm import TokenFSM
from models.vocab import Vocabulary
from scripts import bench_fsm_peers as b
vocab = Vocabulary.from_list(["a", "b", "c", "ab", "bb", "bc", "x"], eos="</s>")
path = b.token_path(TokenFSM.from_regex("ab+c", vocab), 6, seed=3)
good = b.xgrammar_peer(vocab, path, regex="ab+c")
try:
    b.xgrammar_peer(vocab, [(t + 1) % 7 for t in path], regex="ab+c")
    refused = False
except ValueError:
    refused = True
print(json.dumps({"path": path, "good": good, "refused": refused}))
"""


def test_xgrammar_peer_follows_the_model_path():
    env = {**os.environ, "PYTHONPATH": os.environ["SGLANG_FPGA_ROOT"]}
    proc = subprocess.run([sys.executable, "-W", "ignore", "-c", _CODE], env=env,
                          capture_output=True, text=True, check=True)
    r = json.loads(proc.stdout.strip().splitlines()[-1])
    assert r["good"]["available"] and r["good"]["masks"] == len(r["path"]) > 0
    assert r["refused"], "xgrammar took a path the model refuses"
