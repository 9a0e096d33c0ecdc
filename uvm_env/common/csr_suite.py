# SPDX-License-Identifier: Apache-2.0
"""CsrSuite: OpenTitan-style CSR checks driven from a register description (RegBlock).

hw_reset, rw with every WSTRB pattern, bit-bash, aliasing, unmapped addresses (SLVERR, or
OKAY with data 0 for a block that never answers SLVERR), W1C with strobes, W1C racing a
new event in the same cycle, reads under R-channel back-pressure, and counters read in the
background during command traffic. Every result goes through the bench's scoreboard
(compare/check), so a mismatch fails the test, and each step counts what it checked: a
step that checked nothing fails too.

The mirror follows every access type of uvm_env/common/regs.py: RC bits clear when read,
W1T bits toggle, W1S requests read back 0; what a W1S request starts (ap_start) is the
bench's CsrEffects to model. The W1C steps also serve a W1T bit (ISR): a 1 written to a set
bit clears it either way.

Writes with a chosen WSTRB go straight to the master's AW/W/B channels (the master's
own write() always sets full strobes); the master must have no write of its own in
flight then. The races drive the AW/W (or AR) pins themselves (see at_event).
"""

from __future__ import annotations

import random
from collections.abc import Callable

import cocotb
from cocotb.triggers import ClockCycles, FallingEdge, RisingEdge
from cocotbext.axi import AxiLiteMaster, AxiResp
from cocotbext.axi.axil_channels import AxiLiteAWTransaction, AxiLiteWTransaction

from uvm_env.common.pause import random_pause, set_pattern
from uvm_env.common.regs import M32, RegBlock, Register, dut_params
from uvm_env.common.scoreboard_base import ScoreboardBase

OKAY, SLVERR = int(AxiResp.OKAY), int(AxiResp.SLVERR)


def strobe_mask(strb: int) -> int:
    """The bit mask of the bytes a WSTRB enables."""
    return sum(0xFF << (8 * i) for i in range(4) if strb >> i & 1)


def enabled(reg: Register, strb: int) -> int:
    """The bits a write with strb reaches: its strobed bytes, or all for wstrb: ignored."""
    return M32 if reg.wstrb == "ignored" else strobe_mask(strb)


def merge(reg: Register, old: int, data: int, strb: int) -> int:
    """What a register holds after a write of data with strb: RW bits merge, W1C bits
    written 1 clear, W1T bits written 1 toggle; RO, RC and W1S bits keep (a W1S request
    is taken at once and reads 0: CsrEffects models what it starts)."""
    bits = enabled(reg, strb)
    rw = reg.mask_of("RW") & bits
    w1c = reg.mask_of("W1C") & bits & data
    w1t = reg.mask_of("W1T") & bits & data
    return (((old & ~rw) | (data & rw)) & ~w1c ^ w1t) & M32


def clear_mask(reg: Register) -> int:
    """The bits a 1 written clears while they are set: W1C, and W1T (toggles)."""
    return reg.mask_of("W1C") | reg.mask_of("W1T")


class CsrEffects:
    """What a block does beyond its fields' access types, for the bench to model (what a
    W1S request starts, an output pin that follows the registers). Does nothing here."""

    async def after_write(self, reg: Register, data: int, strb: int) -> None:
        """The write was answered and merged into the mirror: model what it set off."""

    def after_read(self, reg: Register) -> None:
        """A read of reg was checked and the mirror updated: check what must agree."""


class W1cHooks:
    """What a bench supplies for the W1C steps."""

    async def raise_event(self) -> None:
        """Cause one event that sets the W1C bit, and wait until its command is done."""
        raise NotImplementedError

    async def clear_models(self) -> None:
        """The W1C bit was cleared: bring the bench's own models in line."""

    async def after_race(self, offset: int) -> None:
        """Check what the racing event wrote besides the W1C bit."""


class CsrSuite:
    def __init__(self, block: RegBlock, master: AxiLiteMaster, clock: object,
                 params: dict[str, int], sb: ScoreboardBase, rng: random.Random,
                 effects: CsrEffects | None = None) -> None:
        self.block, self.master, self.clock, self.sb, self.rng = block, master, clock, sb, rng
        self.effects = effects or CsrEffects()
        self.by_index = block.by_index()
        # Expected value of every register the suite can predict (not the volatile ones);
        # None until written for a register without reset.
        self.mirror: dict[int, int | None] = {r.index: r.reset_value(params)
                                              for r in block.registers}
        self.counts: dict[str, int] = {}

    # ---------------------------------------------------------------- access
    def count(self, step: str, n: int = 1) -> None:
        if step not in self.counts:
            self.sb.logger.info(f"CSR suite: {step}")
        self.counts[step] = self.counts.get(step, 0) + n

    async def read(self, word: int) -> tuple[int, int]:
        rsp = await self.master.read(4 * word, 4)
        return int.from_bytes(rsp.data, "little"), int(rsp.resp)

    async def write(self, word: int, data: int, strb: int = 0xF) -> int:
        wi = self.master.write_if
        await wi.aw_channel.send(AxiLiteAWTransaction(awaddr=4 * word, awprot=0))
        await wi.w_channel.send(AxiLiteWTransaction(wdata=data & M32, wstrb=strb))
        return int((await wi.b_channel.recv()).bresp)

    def response(self, reg: Register | None, write: bool) -> int:
        """What an access answers: SLVERR for an unmapped word or a write to a read-only
        register, in a block that answers SLVERR at all; OKAY otherwise."""
        refused = reg is None or (write and not reg.writable)
        return SLVERR if refused and self.block.slverr else OKAY

    async def write_reg(self, reg: Register, data: int, strb: int, step: str) -> None:
        """Write, check the response, update the mirror, and let the effects follow."""
        resp = await self.write(reg.index, data, strb)
        self.sb.compare(f"{step}: {reg.name} write response", self.response(reg, True), resp)
        old = self.mirror[reg.index]
        # A register without reset that is written in part stays unknown.
        self.mirror[reg.index] = (merge(reg, old, data, strb) if old is not None else
                                  data & M32 if enabled(reg, strb) == M32 else None)
        await self.effects.after_write(reg, data, strb)

    def predict_read(self, word: int) -> int | None:
        """The value a read of word returns (None: not predictable), and its side effect:
        the RC bits of the register read are cleared."""
        reg = self.by_index.get(word)
        if reg is None:
            return 0
        value = self.mirror[word]
        if value is not None:
            self.mirror[word] = value & ~reg.mask_of("RC")
        return None if reg.volatile else value

    async def expect(self, reg: Register, step: str) -> None:
        if self.mirror[reg.index] is None:
            raise AssertionError(f"{step}: {reg.name} has no reset and was not written")
        value, resp = await self.read(reg.index)
        self.sb.compare(f"{step}: {reg.name} read response", OKAY, resp)
        exp = self.predict_read(reg.index)
        if exp is not None:
            self.sb.compare(f"{step}: {reg.name}", exp, value)
        self.effects.after_read(reg)
        self.count(step)

    async def expect_all(self, step: str) -> None:
        for reg in self.block.registers:
            await self.expect(reg, step)

    def require(self, steps: tuple[str, ...] = ()) -> None:
        """Each step (default: all) must have checked something."""
        for step in steps or self.STEPS:
            self.sb.check(f"CSR suite step {step} ran", self.counts.get(step, 0) > 0,
                          f"{self.counts.get(step, 0)} checks")

    @classmethod
    def on_dut(cls, block: RegBlock, master: AxiLiteMaster, clock: object, dut: object,
               sb: ScoreboardBase, rng: random.Random,
               effects: CsrEffects | None = None) -> CsrSuite:
        """The suite with reset values evaluated on the DUT's own parameters."""
        return cls(block, master, clock, dut_params(block, dut), sb, rng, effects)

    # ---------------------------------------------------------------- the steps
    # Every step the suite has; require() them at the end of a test that ran them all.
    STEPS = ("hw_reset", "unmapped", "rw", "bit_bash", "aliasing", "r_backpressure",
             "aw_w_apart", "w1c strobes", "w1c race same cycle", "background")

    async def register_steps(self) -> None:
        """The steps that need no core traffic, from the idle state after reset."""
        await self.hw_reset()
        await self.unmapped()
        await self.rw_strobes()
        await self.bit_bash()
        await self.aliasing()
        await self.reads_under_backpressure()
        await self.aw_w_apart()

    async def hw_reset(self) -> None:
        """Every register with a reset value reads it. One without (reset: null) is not
        read, since it may hold X in simulation, but written 0 so later steps know it."""
        for reg in self.block.registers:
            if self.mirror[reg.index] is None:
                await self.write_reg(reg, 0, 0xF, "hw_reset: init")
            else:
                await self.expect(reg, "hw_reset")

    async def unmapped(self) -> None:
        """Every unmapped word answers SLVERR (or, in a block without SLVERR, OKAY) with
        data 0, on reads and writes; no write to one changes a register."""
        want = self.response(None, False)
        for word in self.block.unmapped():
            value, resp = await self.read(word)
            self.sb.compare(f"unmapped read {word}", (want, 0), (resp, value))
            wr = await self.write(word, self.rng.getrandbits(32))
            self.sb.compare(f"unmapped write {word}", want, wr)
            self.count("unmapped")
        await self.expect_all("unmapped")

    async def rw_strobes(self) -> None:
        """Every WSTRB pattern on every writable register: the expected byte merge."""
        for reg in self.block.registers:
            if not reg.writable:
                continue
            for strb in self.rng.sample(range(16), 16):
                await self.write_reg(reg, self.rng.getrandbits(32), strb, f"rw strb={strb:#x}")
                await self.expect(reg, "rw")

    async def bit_bash(self) -> None:
        """Walking 1s and 0s on writable registers; read-only bits never move. Read-only
        registers take all-ones, zero and a checkerboard (answered SLVERR where the block
        answers it) and keep their value."""
        for reg in self.block.registers:
            pats = ([1 << b for b in range(32)] + [M32 ^ (1 << b) for b in range(32)]
                    if reg.writable else [M32, 0, 0xA5A5_A5A5])
            for data in pats:
                await self.write_reg(reg, data, 0xF, "bit_bash")
                await self.expect(reg, "bit_bash")
            await self.write_reg(reg, 0, 0xF, "bit_bash")

    async def aliasing(self) -> None:
        """Write each writable register, then read every register: only it changed."""
        for reg in self.block.registers:
            if not reg.writable:
                continue
            await self.write_reg(reg, self.rng.getrandbits(32) | reg.mask_of("RW"), 0xF,
                                 "aliasing")
            await self.expect_all("aliasing")
            await self.write_reg(reg, 0, 0xF, "aliasing")

    async def reads_under_backpressure(self, p_stall: float = 0.7, rounds: int = 3) -> None:
        """Reads queued back to back while RREADY is held low at random: each answer is the
        register's own value (RDATA/RRESP held while stalled)."""
        chan = self.master.read_if.r_channel
        set_pattern(chan, random_pause(random.Random(self.rng.getrandbits(32)), p_stall))
        try:
            for _ in range(rounds):
                regs = [r for r in self.block.registers if not r.volatile]
                words = [r.index for r in self.rng.sample(regs, len(regs))]
                holes = self.block.unmapped()
                words += self.rng.sample(holes, min(4, len(holes)))
                tasks = [cocotb.start_soon(self.read(w)) for w in words]
                # Answered in order, so the RC side effects are predicted in that order.
                for w, task in zip(words, tasks, strict=True):
                    got = await task
                    exp = (self.predict_read(w), self.response(self.by_index.get(w), False))
                    self.sb.compare(f"read of word {w} under R back-pressure", exp, got)
                    self.count("r_backpressure")
        finally:
            set_pattern(chan, None)

    async def aw_w_apart(self, gap: int = 5) -> None:
        """AXI4-Lite lets AW and W arrive in either order and cycles apart: a write
        presented on one channel only must not complete (no B, register unchanged) until
        the other arrives; then exactly one B, and the register holds the new value.
        Only RW bits are written here, so no write sets anything off (W1S, W1C, W1T)."""
        wi = self.master.write_if
        for reg in [r for r in self.block.registers if r.writable and r.mask_of("RW")]:
            if self.mirror[reg.index] is None:
                await self.write_reg(reg, 0, 0xF, "aw_w_apart")
            for held in (wi.w_channel, wi.aw_channel):   # AW first, then W first
                data = self.rng.getrandbits(32) & reg.mask_of("RW")
                held.pause = True
                await wi.aw_channel.send(AxiLiteAWTransaction(awaddr=4 * reg.index, awprot=0))
                await wi.w_channel.send(AxiLiteWTransaction(wdata=data, wstrb=0xF))
                await ClockCycles(self.clock, gap)
                early = not wi.b_channel.empty()
                await self.expect(reg, "aw_w_apart")      # still the old value
                self.sb.check(f"aw_w_apart: no B for {reg.name} before both channels",
                              not early, "a B came with only one of AW and W")
                held.pause = False
                resp = int((await wi.b_channel.recv()).bresp)
                self.sb.compare(f"aw_w_apart: {reg.name} write response",
                                self.response(reg, True), resp)
                self.mirror[reg.index] = merge(reg, self.mirror[reg.index], data, 0xF)
                await self.effects.after_write(reg, data, 0xF)
                await ClockCycles(self.clock, gap)
                self.sb.check(f"aw_w_apart: one B for {reg.name}", wi.b_channel.empty(),
                              "a second B")
                await self.expect(reg, "aw_w_apart")
            await self.write_reg(reg, 0, 0xF, "aw_w_apart")

    # ---------------------------------------------------------------- W1C
    async def w1c_strobes(self, reg: Register, hooks: W1cHooks) -> None:
        """With the W1C (or W1T) bit set, a write of all ones clears it only if its strobe
        covers the bit's byte."""
        bit = clear_mask(reg)
        for strb in self.rng.sample(range(16), 16):
            await hooks.raise_event()
            self.mirror[reg.index] |= bit
            await self.expect(reg, "w1c set")
            await self.write_reg(reg, M32, strb, f"w1c strb={strb:#x}")
            if strobe_mask(strb) & bit:
                await hooks.clear_models()
            await self.expect(reg, "w1c strobes")
        await self.clear(reg, hooks)

    async def clear(self, reg: Register, hooks: W1cHooks) -> None:
        # Ones to every W1C bit, and to the W1T bits that are set (a 1 would set a clear one).
        w1t_clear = reg.mask_of("W1T") & ~(self.mirror[reg.index] or 0)
        await self.write_reg(reg, M32 & ~w1t_clear, 0xF, "w1c clear")
        await hooks.clear_models()
        await self.expect(reg, "w1c clear")

    async def at_event(self, event: object, offset: int, limit: int = 20_000) -> bool:
        """Wait until `offset` cycles after `event` (a pulse into the register block) is seen
        high, at a falling edge: an access driven on the pins now is taken on the next
        rising edge, the one that also registers the event at offset 0. Returns whether
        the event is high in this cycle.

        The event is sampled at a falling edge, where registered outputs and pins driven
        after a rising edge are settled."""
        for _ in range(limit):
            await FallingEdge(self.clock)
            if int(event.value):
                break
        else:
            raise AssertionError(f"race: the event never came in {limit} cycles")
        for _ in range(offset):
            await FallingEdge(self.clock)
        return bool(int(event.value))

    async def pin_write(self, word: int, data: int, what: str) -> None:
        """Drive one write on the AW/W pins now (at a falling edge, the master idle) so the
        slave (AWREADY = WREADY = AWVALID & WVALID & !BVALID) takes it on the next rising
        edge; the master's B sink collects the response, read back here."""
        bus = self.master.write_if.aw_channel.bus
        wbus = self.master.write_if.w_channel.bus
        bus.awaddr.value = 4 * word
        wbus.wdata.value = data & M32
        wbus.wstrb.value = 0xF
        bus.awvalid.value = 1
        wbus.wvalid.value = 1
        await RisingEdge(self.clock)
        taken = bool(int(bus.awready.value)) and bool(int(wbus.wready.value))
        bus.awvalid.value = 0
        wbus.wvalid.value = 0
        self.sb.check(f"{what}: write taken on the edge", taken, "AWREADY/WREADY low")
        resp = int((await self.master.write_if.b_channel.recv()).bresp)
        self.sb.compare(f"{what}: write response", OKAY, resp)

    async def pin_read(self, word: int, what: str) -> tuple[int, int]:
        """Drive one read on the AR pins now (at a falling edge, the master's reads idle),
        taken on the next rising edge when ARREADY is high; the master's R sink collects
        the answer, read back here as (data, response)."""
        bus = self.master.read_if.ar_channel.bus
        bus.araddr.value = 4 * word
        bus.arvalid.value = 1
        await RisingEdge(self.clock)
        taken = bool(int(bus.arready.value))
        bus.arvalid.value = 0
        self.sb.check(f"{what}: read taken on the edge", taken, "ARREADY low")
        r = await self.master.read_if.r_channel.recv()
        return int(r.rdata), int(r.rresp)

    async def clear_racing_event(self, reg: Register, event: object, offset: int) -> bool:
        """A W1C write of reg taken on the clock edge that ends the cycle `offset` cycles
        after `event` (a core-to-CSR event pulse) is seen high (at_event). Returns whether
        the event was high in the cycle the write landed."""
        landed_with_event = await self.at_event(event, offset)
        await self.pin_write(reg.index, M32, f"W1C race (offset {offset})")
        return landed_with_event

    async def w1c_race(self, reg: Register, event: object, hooks: W1cHooks,
                       rounds: int = 4) -> None:
        """The W1C (or W1T) bit is pending; a clear lands in the cycle of a new event
        (offset 0: the event must survive) or one cycle after it (offset 1: the clear
        wins)."""
        bit = clear_mask(reg)
        for r in range(rounds):
            for offset in (0, 1):
                await hooks.raise_event()
                self.mirror[reg.index] |= bit
                await self.expect(reg, "w1c race pending")
                racer = cocotb.start_soon(self.clear_racing_event(reg, event, offset))
                if offset == 0:
                    await hooks.clear_models()    # the clear is not later than the event
                await hooks.raise_event()
                with_event = await racer
                if offset == 1:
                    await hooks.clear_models()
                self.mirror[reg.index] = (self.mirror[reg.index] & ~bit) | (
                    bit if with_event else 0)
                await self.expect(reg, f"w1c race offset {offset}")
                await hooks.after_race(offset)
                if offset == 0:
                    self.sb.check(f"W1C race {r}: clear and event in one cycle", with_event,
                                  "the event was not high in the write's cycle")
                    self.count("w1c race same cycle", int(with_event))
                await self.clear(reg, hooks)

    # ---------------------------------------------------------------- background
    async def background_counters(self, done: Callable[[], bool]) -> dict[str, int]:
        """Read the counters in random order until done(): each must never decrease.
        Returns the last values read."""
        counters = [r for r in self.block.registers if r.counter]
        last: dict[str, int] = {}
        while not done():
            reg = self.rng.choice(counters)
            value, resp = await self.read(reg.index)
            self.sb.compare(f"background read {reg.name} response", OKAY, resp)
            prev = last.get(reg.name, 0)
            self.sb.check(f"counter {reg.name} monotonic", value >= prev,
                          f"{value} after {prev}")
            last[reg.name] = value
            self.count("background")
        return last
