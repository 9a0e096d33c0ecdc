# SPDX-License-Identifier: Apache-2.0
"""Register descriptions: one per block (rtl/<blk>/<blk>_regs.yml), read by scripts/gen_regs.py.

The generator writes the SV package constants, uvm_env/<blk>/csr_regs.py (which builds
these dataclasses from literals, so simulations need no YAML) and the docs' register
tables. The CSR suite (uvm_env/common/csr_suite.py) is driven from the same objects.

Reset values are an integer or an expression over the DUT's parameters ("NodeCap - 1"),
evaluated with the parameters read from the DUT. A reset value is the value software
reads once the block is idle after reset (radix: after its init sweep).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

M32 = 0xFFFF_FFFF
ACCESS = ("RO", "RW", "W1C")


@dataclass(frozen=True)
class RegField:
    name: str
    lsb: int
    width: int
    access: str          # RO | RW | W1C
    reset: int | str     # integer or parameter expression
    desc: str = ""

    @property
    def mask(self) -> int:
        return ((1 << self.width) - 1) << self.lsb

    def bits(self) -> str:
        msb = self.lsb + self.width - 1
        return f"[{msb}]" if msb == self.lsb else f"[{msb}:{self.lsb}]"


@dataclass(frozen=True)
class Register:
    name: str
    index: int
    fields: tuple[RegField, ...]
    desc: str = ""
    # Changes without software (a free-running count): no fixed value to compare.
    volatile: str = ""   # the reason, when volatile
    # Never decreases while commands run (the CSR suite reads it in the background).
    counter: bool = False
    # Element k of an array (count: n in the YAML): no SV or Python name of its own.
    element: int | None = None

    @property
    def access(self) -> str:
        kinds = {f.access for f in self.fields}
        return "W1C" if "W1C" in kinds else "RW" if "RW" in kinds else "RO"

    def mask_of(self, access: str) -> int:
        return sum(f.mask for f in self.fields if f.access == access)

    @property
    def writable(self) -> bool:
        return self.access != "RO"

    def reset_value(self, params: dict[str, int]) -> int:
        return sum((evaluate(f.reset, params) << f.lsb) & f.mask for f in self.fields)


@dataclass(frozen=True)
class RegBlock:
    block: str
    package: str           # SV package that holds the generated constants
    addr_words: int        # words in the AXI-Lite window (2**AddrW / 4 at the default AddrW)
    registers: tuple[Register, ...]
    # SV-only names: an array's first index (e.g. CSR_ERR_BASE) and the ID constant.
    sv_aliases: tuple[tuple[str, int], ...] = ()
    id_const: str = ""

    @property
    def words(self) -> int:
        return max(r.index for r in self.registers) + 1

    def by_name(self) -> dict[str, Register]:
        return {r.name: r for r in self.registers}

    def by_index(self) -> dict[int, Register]:
        return {r.index: r for r in self.registers}

    def unmapped(self) -> list[int]:
        used = {r.index for r in self.registers}
        return [w for w in range(self.addr_words) if w not in used]


def evaluate(expr: int | str, params: dict[str, int]) -> int:
    """An integer, or + - * // << | & over integers and parameter names."""
    if isinstance(expr, int):
        return expr
    return _eval(ast.parse(expr, mode="eval").body, params)


_OPS = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b,
        ast.Mult: lambda a, b: a * b, ast.FloorDiv: lambda a, b: a // b,
        ast.LShift: lambda a, b: a << b, ast.BitOr: lambda a, b: a | b,
        ast.BitAnd: lambda a, b: a & b}


def _eval(node: ast.expr, params: dict[str, int]) -> int:
    if isinstance(node, ast.Constant) and isinstance(node.value, int):
        return node.value
    if isinstance(node, ast.Name):
        if node.id not in params:
            raise KeyError(f"reset expression names unknown parameter {node.id}")
        return params[node.id]
    if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
        return _OPS[type(node.op)](_eval(node.left, params), _eval(node.right, params))
    raise ValueError(f"unsupported reset expression: {ast.unparse(node)}")


def parameter_names(block: RegBlock) -> set[str]:
    names: set[str] = set()
    for r in block.registers:
        for f in r.fields:
            if isinstance(f.reset, str):
                names |= {n.id for n in ast.walk(ast.parse(f.reset, mode="eval"))
                          if isinstance(n, ast.Name)}
    return names


def dut_params(block: RegBlock, dut: object) -> dict[str, int]:
    """The DUT's values of the parameters the block's reset values name."""
    return {name: int(getattr(dut, name).value) for name in parameter_names(block)}


# ---------------------------------------------------------------- YAML
def load(path: Path) -> RegBlock:
    """Read and check a <blk>_regs.yml description."""
    import yaml  # only the generator and its test read YAML

    doc = yaml.safe_load(path.read_text())
    regs: list[Register] = []
    for raw in doc["registers"]:
        count = int(raw.get("count", 1))
        for k in range(count):
            name = raw["name"] + (str(k) if count > 1 else "")
            regs.append(_register(raw, name, int(raw["index"]) + k, k if count > 1 else None))
    aliases = tuple((a["name"], int(a["index"])) for a in doc.get("sv_aliases", []))
    block = RegBlock(block=doc["block"], package=doc["package"],
                     addr_words=int(doc["addr_words"]), registers=tuple(regs),
                     sv_aliases=aliases, id_const=doc.get("id_const", ""))
    check(block)
    return block


def _register(raw: dict, name: str, index: int, element: int | None) -> Register:
    fields = raw.get("fields") or [{"name": "VALUE", "lsb": 0, "width": 32,
                                    "access": raw.get("access", "RO"),
                                    "reset": raw.get("reset", 0)}]
    return Register(
        name=name, index=index, desc=str(raw.get("desc", "")).strip(),
        volatile=str(raw.get("volatile", "")).strip(), counter=bool(raw.get("counter", False)),
        element=element,
        fields=tuple(RegField(name=f["name"], lsb=int(f["lsb"]), width=int(f["width"]),
                              access=f.get("access", "RO"), reset=f.get("reset", 0),
                              desc=str(f.get("desc", "")).strip()) for f in fields))


def check(block: RegBlock) -> None:
    seen: dict[int, str] = {}
    for r in block.registers:
        if r.index in seen:
            raise ValueError(f"{block.block}: {r.name} and {seen[r.index]} share index {r.index}")
        seen[r.index] = r.name
        if not 0 <= r.index < block.addr_words:
            raise ValueError(f"{block.block}: {r.name} index {r.index} outside the window")
        used = 0
        for f in r.fields:
            if f.access not in ACCESS:
                raise ValueError(f"{r.name}.{f.name}: access {f.access} not in {ACCESS}")
            if f.width < 1 or f.lsb < 0 or f.lsb + f.width > 32 or used & f.mask:
                raise ValueError(f"{r.name}.{f.name}: bits {f.bits()} overlap or exceed 32")
            used |= f.mask
