# SPDX-License-Identifier: Apache-2.0
"""SGLang plug-ins (extra ``[sglang]``, SGLang 0.5.23). Importing this module registers

* the prefix cache ``"fpga"``: ``--radix-cache-backend fpga`` (``FpgaRadixCache``);
* the grammar backend ``"fpga"``: ``--grammar-backend fpga`` (``FpgaGrammarBackend``).

Both run on the ``model`` back end unless $SGLANG_FPGA_BACKEND names another (``sim``,
``xrt``; ``xrt`` also reads $SGLANG_FPGA_XCLBIN)."""

from __future__ import annotations

try:
    import sglang  # noqa: F401
    import torch  # noqa: F401
except ImportError as exc:   # say what is missing instead of a bare ModuleNotFoundError
    raise ImportError(f"sglang_fpga.sglang needs SGLang 0.5.23 and torch: pip install "
                      f"'sglang-fpga[sglang]' ({exc})") from exc

from .grammar import FpgaGrammar, FpgaGrammarBackend, register_grammar
from .radix_cache import FpgaRadixCache, register_radix_cache

register_radix_cache()
register_grammar()

__all__ = ["FpgaGrammar", "FpgaGrammarBackend", "FpgaRadixCache"]
