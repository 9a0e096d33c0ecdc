# SPDX-License-Identifier: Apache-2.0
"""Back ends of the devices: ``model`` (in process), and the cards ``sim`` and ``xrt``."""

from __future__ import annotations

from pathlib import Path


def open_card(backend: str, kernel: str, params: dict[str, int] | None,
              xclbin: str | Path | None, device_index: int, root: str | Path | None) -> object:
    """The card one kernel (``radix`` or ``fsm``) runs on. For ``sim``, ``params`` (from
    the geometry, if one is given) are the simulated kernel's build parameters."""
    if backend == "sim":
        from .sim import SimCard
        return SimCard(kernel, root=root, params=params)
    from .xrt import XrtCard
    if xclbin is None or params is None:
        raise ValueError("the xrt back end needs xclbin= and geometry= (the build's "
                         "parameters, which XRT does not report)")
    return XrtCard(Path(xclbin), kernel, device_index, params)
