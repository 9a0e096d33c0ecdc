# SPDX-License-Identifier: Apache-2.0
"""Register descriptions: one per block (rtl/<blk>/<blk>_regs.yml), read by scripts/gen_regs.py.

The generator writes the SV package constants, uvm_env/<blk>/csr_regs.py (which builds
these dataclasses from literals, so simulations need no YAML) and the docs' register
tables. The CSR suite (uvm_env/common/csr_suite.py) is driven from the same objects.

Reset values are an integer or an expression over the DUT's parameters ("NodeCap - 1"),
evaluated with the parameters read from the DUT. A reset value is the value software
reads once the block is idle after reset (radix: after its init sweep); None (`reset: null`
in the YAML) says the register has no reset at all and keeps its value across one.

Access types (per field):
  RO   read-only; a write leaves it alone.
  RW   read/write; a write merges the bytes WSTRB enables.
  W1C  write 1 to clear (hardware sets it).
  RC   a read clears it (hardware sets it): Vitis' COR, clear on read.
  W1T  write 1 toggles it (hardware sets it): Vitis' TOW, toggle on write.
  W1S  write 1 to request (ap_start): the hardware takes the request the cycle after, so it
       reads back 0 by the time the write is answered; what the request starts is the bench's
       to model (csr_suite.CsrEffects).

A description may be parameterised: `configs` names the DUT configurations it serves
(parameter values), and a register's `index` and `count` may then be parameter
expressions. load_all() expands it once per configuration (top_ctrl: one per kernel).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

M32 = 0xFFFF_FFFF
ACCESS = ("RO", "RW", "W1C", "RC", "W1T", "W1S")
# Kinds a write can change (the others ignore writes).
WRITABLE = ("RW", "W1C", "W1T", "W1S")


@dataclass(frozen=True)
class RegField:
    name: str
    lsb: int
    width: int
    access: str          # one of ACCESS
    reset: int | str | None  # integer, parameter expression, or None: not reset
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
    # "bytes": a write changes only the bytes WSTRB enables; "ignored": every write
    # writes the whole word, whatever WSTRB says (top_ctrl's arguments).
    wstrb: str = "bytes"

    @property
    def access(self) -> str:
        """The fields' kind, or their kinds joined by '/' when they differ (AP_CTRL)."""
        kinds = {f.access for f in self.fields}
        return "/".join(k for k in ACCESS if k in kinds)

    def mask_of(self, access: str) -> int:
        return sum(f.mask for f in self.fields if f.access == access)

    @property
    def writable(self) -> bool:
        return any(f.access in WRITABLE for f in self.fields)

    @property
    def array(self) -> str:
        """An array element's array name (ERR_COUNT for ERR_COUNT3); else its own name."""
        return self.name if self.element is None else self.name[:-len(str(self.element))]

    def reset_value(self, params: dict[str, int]) -> int | None:
        """The value read after reset; None for a register that is not reset."""
        if any(f.reset is None for f in self.fields):
            return None
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
    # True: unmapped words and writes to read-only registers answer SLVERR. False: every
    # access answers OKAY, unmapped words read 0 and such writes change nothing (Vitis).
    slverr: bool = True
    # A parameterised description's configuration: its name and parameter values.
    config: str = ""
    params: tuple[tuple[str, int], ...] = ()

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
    names: set[str] = set(dict(block.params))
    for r in block.registers:
        for f in r.fields:
            if isinstance(f.reset, str):
                names |= {n.id for n in ast.walk(ast.parse(f.reset, mode="eval"))
                          if isinstance(n, ast.Name)}
    return names


def dut_params(block: RegBlock, dut: object) -> dict[str, int]:
    """The DUT's values of the parameters the block's reset values (and configuration) name."""
    return {name: int(getattr(dut, name).value) for name in parameter_names(block)}


def for_dut(blocks: dict[str, RegBlock], dut: object) -> RegBlock:
    """The configuration of a parameterised description that the DUT was built with."""
    for block in blocks.values():
        if all(int(getattr(dut, k).value) == v for k, v in block.params):
            return block
    first = next(iter(blocks.values()))
    have = {k: int(getattr(dut, k).value) for k, _ in first.params}
    raise ValueError(f"{first.block}: the DUT's {have} is none of the described "
                     f"configurations {sorted(blocks)}")


# ---------------------------------------------------------------- YAML
def load(path: Path) -> RegBlock:
    """Read and check a <blk>_regs.yml description (one without configs)."""
    blocks = load_all(path)
    if list(blocks) != [""]:
        raise ValueError(f"{path.name} is parameterised ({sorted(blocks)}): use load_all()")
    return blocks[""]


def load_all(path: Path) -> dict[str, RegBlock]:
    """Read and check a description: {config name: block}, {"": block} without configs."""
    import yaml  # only the generator and its test read YAML

    doc = yaml.safe_load(path.read_text())
    configs = doc.get("configs") or {"": {}}
    return {name: _block(doc, name, {k: int(v) for k, v in params.items()})
            for name, params in configs.items()}


def _block(doc: dict, config: str, params: dict[str, int]) -> RegBlock:
    regs: list[Register] = []
    for raw in doc["registers"]:
        count = evaluate(raw.get("count", 1), params)
        base = evaluate(raw["index"], params)
        for k in range(count):
            name = raw["name"] + (str(k) if count > 1 else "")
            regs.append(_register(raw, name, base + k, k if count > 1 else None))
    aliases = tuple((a["name"], int(a["index"])) for a in doc.get("sv_aliases", []))
    block = RegBlock(block=doc["block"], package=doc["package"],
                     addr_words=int(doc["addr_words"]), registers=tuple(regs),
                     sv_aliases=aliases, id_const=doc.get("id_const", ""),
                     slverr=bool(doc.get("slverr", True)), config=config,
                     params=tuple(params.items()))
    check(block)
    return block


def _register(raw: dict, name: str, index: int, element: int | None) -> Register:
    fields = raw.get("fields") or [{"name": "VALUE", "lsb": 0, "width": 32,
                                    "access": raw.get("access", "RO"),
                                    "reset": raw.get("reset", 0)}]
    return Register(
        name=name, index=index, desc=str(raw.get("desc", "")).strip(),
        volatile=str(raw.get("volatile", "")).strip(), counter=bool(raw.get("counter", False)),
        element=element, wstrb=str(raw.get("wstrb", "bytes")),
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
        if r.wstrb not in ("bytes", "ignored"):
            raise ValueError(f"{r.name}: wstrb {r.wstrb} is neither bytes nor ignored")
        used = 0
        for f in r.fields:
            if f.access not in ACCESS:
                raise ValueError(f"{r.name}.{f.name}: access {f.access} not in {ACCESS}")
            if f.width < 1 or f.lsb < 0 or f.lsb + f.width > 32 or used & f.mask:
                raise ValueError(f"{r.name}.{f.name}: bits {f.bits()} overlap or exceed 32")
            used |= f.mask
