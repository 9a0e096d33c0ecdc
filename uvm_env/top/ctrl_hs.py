# SPDX-License-Identifier: Apache-2.0
"""CtrlHsKernel: the kernel behind top_ctrl_hs (the ap_ctrl_hs control block), played on
its kernel-side pins, and what the block does beyond its fields' access types, for the
CSR suite's mirror (CsrEffects, W1cHooks); plus the steps only this block has.

The kernel behaves as krnl_radix and krnl_fsm do: a start_o pulse starts a run; some
cycles later its results are final on outs_i and done_i pulses for one cycle. By default
a run ends by itself right after the write that started it, so every access the suite
makes finds the block idle and the mirror exact; with `hold` set it waits for finish(),
so a step can act while the kernel is busy.

Pins are driven just after a rising edge and sampled at falling edges (where registered
outputs and driven inputs are settled), so the races of at_event() line up with done_i.
"""

from __future__ import annotations

import random

import cocotb
from cocotb.triggers import ClockCycles, FallingEdge, RisingEdge
from cocotb_coverage.coverage import CoverPoint

from uvm_env.common.csr_suite import CsrEffects, CsrSuite, W1cHooks, enabled
from uvm_env.common.regs import M32, RegBlock, Register
from uvm_env.common.scoreboard_base import ScoreboardBase

RACES = ("isr_clear_x_done", "isr_clear_after_done", "read_x_done", "read_after_done",
         "read_x_start", "read_after_start")


class CtrlHsCoverage:
    """Cover points `<prefix>.*`: how a start was met, the interrupt enables at each done,
    and every race at the same edge and one cycle later."""

    def __init__(self, prefix: str) -> None:
        @CoverPoint(f"{prefix}.start", xf=lambda how: how,
                    bins=["taken", "ignored_busy", "strobe_off"])
        def start(how: str) -> None:
            pass

        @CoverPoint(f"{prefix}.done_gie_ier", xf=lambda gie, ier: (gie, ier),
                    bins=[(0, 0), (0, 1), (1, 0), (1, 1)])
        def done(gie: int, ier: int) -> None:
            pass

        @CoverPoint(f"{prefix}.race", xf=lambda race: race, bins=list(RACES))
        def race(race: str) -> None:
            pass

        self.start, self.done, self.race = start, done, race


class CtrlHsKernel(CsrEffects, W1cHooks):
    def __init__(self, dut: object, clock: object, block: RegBlock, rng: random.Random,
                 cov: CtrlHsCoverage) -> None:
        self.dut, self.clock, self.block, self.rng, self.cov = dut, clock, block, rng, cov
        regs = block.by_name()
        self.ctrl, self.gie, self.ier, self.isr = (regs[n] for n in ("AP_CTRL", "GIE", "IER",
                                                                     "ISR"))
        self.bit = {f.name: f.mask for f in self.ctrl.fields}
        self.args = [r for r in block.registers if r.array == "ARG"]
        self.results = [r for r in block.registers if r.array == "RESULT"]
        self.suite: CsrSuite | None = None
        self.sb: ScoreboardBase | None = None
        self.hold = False
        self.starts = 0            # start_o pulses seen
        self.expected_starts = 0   # ... and predicted
        self.args_at_start = 0     # args_o at the latest one
        self.drive_idle()

    # ---------------------------------------------------------------- plumbing
    def attach(self, suite: CsrSuite) -> None:
        """Predict into this suite's mirror and check through its scoreboard."""
        self.suite, self.sb = suite, suite.sb

    def drive_idle(self) -> None:
        """The kernel side at rest, results 0 (as the kernels' are after reset)."""
        self.dut.done_i.value = 0
        self.dut.outs_i.value = 0

    def start_monitor(self) -> None:
        cocotb.start_soon(self._monitor())

    async def _monitor(self) -> None:
        while True:
            await FallingEdge(self.clock)
            if int(self.dut.start_o.value):
                self.starts += 1
                self.args_at_start = int(self.dut.args_o.value)

    @property
    def mirror(self) -> dict[int, int | None]:
        assert self.suite is not None, "attach() the suite first"
        return self.suite.mirror

    def _ctrl_update(self, set_bits: int = 0, clear_bits: int = 0) -> None:
        i = self.ctrl.index
        self.mirror[i] = (self.mirror[i] & ~clear_bits) | set_bits

    def _mirrored_args(self) -> int:
        return sum(self.mirror[r.index] << (32 * k) for k, r in enumerate(self.args))

    async def _check_starts(self, what: str) -> None:
        # The pulse is in the cycle after the write's edge: seen before the B answer
        # returns; one more falling edge leaves room for a late or a second one.
        await FallingEdge(self.clock)
        await FallingEdge(self.clock)
        self.sb.compare(f"{what}: start_o pulses so far", self.expected_starts, self.starts)

    # ---------------------------------------------------------------- the kernel
    async def finish(self) -> None:
        """End the run: after a few cycles, new results on outs_i and one done_i pulse."""
        await ClockCycles(self.clock, self.rng.randint(0, 4))
        await RisingEdge(self.clock)
        outs = [self.rng.getrandbits(32) for _ in self.results]
        self.dut.outs_i.value = sum(v << (32 * k) for k, v in enumerate(outs))
        self.dut.done_i.value = 1
        await RisingEdge(self.clock)
        self.dut.done_i.value = 0
        gie, ier = self.mirror[self.gie.index] & 1, self.mirror[self.ier.index] & 1
        self._ctrl_update(self.bit["AP_DONE"] | self.bit["AP_IDLE"])
        for reg, value in zip(self.results, outs, strict=True):
            self.mirror[reg.index] = value
        if ier:
            self.mirror[self.isr.index] |= 1
        self.cov.done(gie, ier)

    # ---------------------------------------------------------------- CsrEffects
    async def after_write(self, reg: Register, data: int, strb: int) -> None:
        """A 1 reaching AP_START starts a run if the block is idle: one start_o pulse
        carrying the arguments, AP_IDLE clears and AP_READY sets; busy, it is dropped."""
        if reg.name != self.ctrl.name or not data & self.bit["AP_START"]:
            return
        if not enabled(reg, strb) & self.bit["AP_START"]:
            self.cov.start("strobe_off")
            await self._check_starts("AP_START written with its byte's strobe off")
            return
        if not self.mirror[self.ctrl.index] & self.bit["AP_IDLE"]:
            self.cov.start("ignored_busy")
            await self._check_starts("AP_START written while busy")
            return
        self.cov.start("taken")
        self.expected_starts += 1
        await self._check_starts("AP_START written while idle")
        self.sb.compare("args_o at the start pulse", self._mirrored_args(), self.args_at_start)
        self._ctrl_update(self.bit["AP_READY"], self.bit["AP_IDLE"])
        if not self.hold:
            await self.finish()

    def after_read(self, reg: Register) -> None:
        want = self.mirror[self.gie.index] & self.mirror[self.isr.index] & 1
        self.sb.compare(f"interrupt_o after reading {reg.name} (GIE & ISR[0])", want,
                        int(self.dut.interrupt_o.value))
        assert self.suite is not None
        self.suite.count("interrupt")

    # ---------------------------------------------------------------- W1cHooks (ISR)
    async def raise_event(self) -> None:
        """A whole run (IER set): its done sets ISR[0]."""
        assert self.suite is not None and not self.hold
        await self.suite.write_reg(self.ctrl, self.bit["AP_START"], 0xF, "run for ISR")

    async def after_race(self, offset: int) -> None:
        assert self.suite is not None
        self.cov.race(RACES[offset])
        await self.suite.expect(self.ctrl, f"AP_CTRL after the ISR race (offset {offset})")

    # ---------------------------------------------------------------- steps
    async def handshakes(self, rounds: int) -> None:
        """ap_start / ap_done / ap_idle / ap_ready as the kernels use them, under every
        GIE x IER: arguments written, a 1 written with AP_START's strobe off starting
        nothing, the start taken with the arguments, AP_CTRL while busy (READY read once,
        then cleared), a second start while busy dropped, the results final at done, DONE
        read once then cleared, ISR toggled off, interrupt = GIE & ISR[0]."""
        s = self.suite
        assert s is not None
        start = self.bit["AP_START"]
        for r in range(rounds):
            for reg in self.args:
                await s.write_reg(reg, self.rng.getrandbits(32), 0xF, "handshake args")
            await s.write_reg(self.gie, r & 1, 0xF, "handshake GIE")
            await s.write_reg(self.ier, r >> 1 & 1, 0xF, "handshake IER")
            # WSTRB[0] low: the 1 does not reach AP_START, nothing starts.
            await s.write_reg(self.ctrl, M32, 0xE, "start with its strobe off")
            self.hold = True
            await s.write_reg(self.ctrl, start, 0xF, "handshake start")
            for _ in range(2):
                await s.expect(self.ctrl, "handshakes")
            # Every bit of AP_CTRL written while busy: no start, the RO/RC bits keep.
            await s.write_reg(self.ctrl, M32 if r & 1 else start, 0xF, "start while busy")
            await s.expect(self.ctrl, "handshakes")
            self.hold = False
            await self.finish()
            for reg in (*self.results, self.ctrl, self.ctrl, self.isr):
                await s.expect(reg, "handshakes")
            if self.mirror[self.isr.index] & 1:
                await s.write_reg(self.isr, 1, 0xF, "ISR toggled off")
                await s.expect(self.isr, "handshakes")

    async def _read_at(self, event: object, offset: int, what: str) -> tuple[int, int, bool]:
        assert self.suite is not None
        with_event = await self.suite.at_event(event, offset)
        value, resp = await self.suite.pin_read(self.ctrl.index, what)
        return value, resp, with_event

    async def read_races(self, rounds: int) -> None:
        """An AP_CTRL read taken on the edge that registers done_i returns the state before
        it and must not clear the new AP_DONE; one cycle later it returns DONE and clears
        it. Likewise a read on the edge that takes a start (start_o high) returns
        AP_START 1 and must not clear the new AP_READY."""
        s = self.suite
        assert s is not None
        rc, start = self.ctrl.mask_of("RC"), self.bit["AP_START"]
        for _ in range(rounds):
            for offset in (0, 1):
                # done_i racing the read
                self.hold = True
                await s.write_reg(self.ctrl, start, 0xF, "done race: start")
                before = self.mirror[self.ctrl.index]
                racer = cocotb.start_soon(self._read_at(self.dut.done_i, offset, "done race"))
                await self.finish()
                value, resp, with_event = await racer
                after = self.mirror[self.ctrl.index]
                self.sb.compare(f"AP_CTRL read with done_i (offset {offset})",
                                (before if offset == 0 else after, 0), (value, resp))
                # The read clears RC bits, but not a DONE set on its own edge.
                self._ctrl_update(clear_bits=self.bit["AP_READY"] if offset == 0 else rc)
                self._race_taken("read_x_done", "read_after_done", offset, with_event)
                await s.expect(self.ctrl, "done race after")
                self.hold = False

                # a start being taken racing the read (offset 0: the read sees AP_START)
                await s.expect(self.ctrl, "start race before")   # RC bits cleared
                before = self.mirror[self.ctrl.index]
                self.hold = True
                racer = cocotb.start_soon(self._read_at(self.dut.start_o, offset,
                                                        "start race"))
                await s.write_reg(self.ctrl, start, 0xF, "start race: start")
                value, resp, with_event = await racer
                after = self.mirror[self.ctrl.index]
                self.sb.compare(f"AP_CTRL read with start_o (offset {offset})",
                                (before | start if offset == 0 else after, 0), (value, resp))
                if offset == 1:
                    self._ctrl_update(clear_bits=self.bit["AP_READY"])
                self._race_taken("read_x_start", "read_after_start", offset, with_event)
                await s.expect(self.ctrl, "start race after")
                self.hold = False
                await self.finish()

    def _race_taken(self, same: str, later: str, offset: int, with_event: bool) -> None:
        assert self.suite is not None
        self.sb.check(f"{same}: the event in the read's cycle only at offset 0",
                      with_event == (offset == 0), f"offset {offset}, event {with_event}")
        self.cov.race(later if offset else same)
        self.suite.count("read races", int(with_event == (offset == 0)))

    async def reset_mid_run(self, apply_reset: object) -> None:
        """ap_rst_n with a run on: every register with a reset value returns to it, the
        arguments (no reset) keep theirs, and no start_o follows."""
        s = self.suite
        assert s is not None
        self.hold = True
        await s.write_reg(self.ctrl, self.bit["AP_START"], 0xF, "reset: start")
        self.drive_idle()      # the kernels' results are reset with them
        await apply_reset()
        self.hold = False
        params = dict(self.block.params)
        for reg in self.block.registers:
            value = reg.reset_value(params)
            if value is not None:
                self.mirror[reg.index] = value
        for reg in self.block.registers:
            await s.expect(reg, "reset mid-run")
        await self._check_starts("after the reset")
