# SPDX-License-Identifier: Apache-2.0
"""Source checkouts only: the golden models live in the repository's top-level models/
folder, which a built package ships as sglang_fpga.models (pyproject.toml maps it; this
file is not packaged). Pointing the import path there lets the package's own modules
import the models the same way in a checkout and in an installed wheel."""

from pathlib import Path

__path__ = [str(Path(__file__).resolve().parents[2] / "models")]
