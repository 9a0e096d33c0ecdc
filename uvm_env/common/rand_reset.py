# SPDX-License-Identifier: Apache-2.0
"""Reset at a random cycle, OpenTitan's *_with_rand_reset: where, and how the bench copes.

A test picks a reset point per round (ResetPoint), starts traffic, waits for that point on
the DUT's pins, pulls rst_ni low and then asks the bench to resynchronise: drop whatever
was in flight (the DUT forgets it), bring the predictor back to its power-on state, check
every register's reset value and go on with traffic. The hooks a bench implements are
RandResetHooks; RandResetRounds runs the rounds and counts where each reset landed, so a
test can require that every point it asked for was reached.

Points are found on the pins, sampled at the falling edge (the DUT's registered outputs
and the bench's drives of the previous rising edge are settled then). A point that does
not come within its limit is counted as missed, and the test decides whether that fails.
"""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from cocotb.task import Task
from cocotb.triggers import ClockCycles, FallingEdge, RisingEdge

from uvm_env.common.csr_noise import CsrNoise


@dataclass(frozen=True)
class StreamPins:
    """The handshake pins of one AXI4-Stream port."""

    valid: object
    ready: object
    last: object

    def mid_frame(self) -> bool:
        """A beat that is not the frame's last is taken at the next rising edge."""
        return bool(int(self.valid.value) and int(self.ready.value)
                    and not int(self.last.value))

    def stalled(self) -> bool:
        return bool(int(self.valid.value) and not int(self.ready.value))


async def wait_until(clock: object, cond: Callable[[], bool], limit: int) -> bool:
    """Falling edges until cond() holds (then True), at most `limit` of them."""
    for _ in range(limit):
        await FallingEdge(clock)
        if cond():
            return True
    return False


async def pulse_reset(clock: object, reset: object, cycles: int,
                      while_low: Callable[[], Awaitable[None]] | None = None) -> None:
    """rst_ni low for `cycles` clock edges (from just after a rising edge, so the DUT sees
    it at the next one); while_low runs with the reset held, from the falling edge: by then
    every bench model has handled that rising edge (a response beat it took there is in
    its queue, not arriving after while_low has emptied it) and has seen the reset."""
    await RisingEdge(clock)
    reset.value = 0
    await FallingEdge(clock)
    if while_low is not None:
        await while_low()
    await ClockCycles(clock, cycles)
    reset.value = 1


class RandResetHooks:
    """What a bench supplies. Each coroutine runs in the test's context. `env` is the
    bench's env, with abort_for_reset() and power_on() (the defaults below use them)."""

    env: object
    resets = 0

    def start_traffic(self, round_no: int) -> Task:
        """Start one round's traffic in the background and return its task (not called
        for a quiet point, which needs no traffic of its own)."""
        raise NotImplementedError

    def stop_traffic(self) -> None:
        """Ask the round's sequences to stop issuing (they check a flag)."""
        raise NotImplementedError

    async def wait_point(self, point: str, rng: random.Random) -> bool:
        """Wait for `point` on the pins; False if it did not come."""
        raise NotImplementedError

    def abort_in_flight(self) -> None:
        """Reset is low: drop every command, response and queued beat (the DUT forgot
        them) and let waiting sequences go."""
        self.env.abort_for_reset()

    def power_on_models(self) -> None:
        """The predictors back to the DUT's state after reset."""
        self.env.power_on()
        self.resets += 1

    async def after_reset(self) -> None:
        """Reset released: wait until the DUT is ready and check every reset value."""
        raise NotImplementedError


@dataclass
class RandResetRounds:
    """Rounds of traffic, each ended by a reset at a point drawn from `points`."""

    hooks: RandResetHooks
    clock: object
    reset: object
    rng: random.Random
    points: tuple[str, ...]
    quiet: tuple[str, ...] = ()
    reset_cycles: int = 5
    stop_timeout_cycles: int = 200_000
    # Background AXI-Lite traffic (stress_all): runs with each round's traffic, stops
    # before the reset and the reset-value check.
    noise: CsrNoise | None = None
    reached: dict[str, int] = field(default_factory=dict)
    missed: dict[str, int] = field(default_factory=dict)

    def schedule(self, rounds: int) -> list[str]:
        """Every point at least once (when rounds allow), the rest at random."""
        order = list(self.points) * (rounds // len(self.points))
        order += self.rng.sample(self.points, rounds - len(order))
        self.rng.shuffle(order)
        return order

    async def run(self, rounds: int) -> None:
        for k, point in enumerate(self.schedule(rounds)):
            traffic = None if point in self.quiet else self.hooks.start_traffic(k)
            if self.noise is not None and traffic is not None:
                self.noise.start()
            landed = await self.hooks.wait_point(point, self.rng)
            tally = self.reached if landed else self.missed
            tally[point] = tally.get(point, 0) + 1
            self.hooks.stop_traffic()
            if self.noise is not None:
                self.noise.stop()

            async def flush(traffic: Task | None = traffic) -> None:
                if self.noise is not None:
                    await self.noise.join()    # its access in flight was flushed
                self.hooks.abort_in_flight()
                # The sequences see the stop flag (or their aborted commands) and end.
                for _ in range(self.stop_timeout_cycles // 100):
                    if traffic is None or traffic.done():
                        break
                    await ClockCycles(self.clock, 100)
                    self.hooks.abort_in_flight()
                if traffic is not None:
                    if not traffic.done():
                        raise AssertionError("traffic did not stop after the reset")
                    traffic.result()   # re-raises what a sequence raised
                self.hooks.power_on_models()

            await pulse_reset(self.clock, self.reset, self.reset_cycles, flush)
            await self.hooks.after_reset()

    def require(self, check: Callable[[str, bool, str], bool]) -> None:
        """Each point was reached at least once (each scheduled one, with fewer rounds
        than points)."""
        for point in self.points:
            if point not in self.reached and point not in self.missed:
                continue
            n = self.reached.get(point, 0)
            check(f"reset point {point} reached", n > 0,
                  f"reached {n} times, missed {self.missed.get(point, 0)}")
