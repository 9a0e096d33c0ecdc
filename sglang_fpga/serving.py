# SPDX-License-Identifier: Apache-2.0
"""What the SGLang plug-ins do, without SGLang or torch: a prefix cache and a grammar
matcher on the devices. ``sglang_fpga.sglang`` wraps these in SGLang's
classes; keeping the logic here lets it be tested where SGLang is not installed."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from .compiler import Grammar
from .fsm_device import FsmDevice
from .models.regex_dfa import ByteDFA, compile_regex
from .radix_device import RadixDevice


@dataclass(eq=False)
class DeviceNode:
    """A node SGLang holds (req.last_node, lock anchors): the device's handle, and the key
    that reached it so its path indices can be asked for again."""

    handle: int
    tokens: tuple[int, ...] = ()
    ns: int = 0
    indices: np.ndarray | None = None
    parent: DeviceNode | None = None      # only the root has none; SGLang walks .parent
    children: dict[object, DeviceNode] = field(default_factory=dict)


class RadixCacheCore:
    """SGLang's prefix-cache calls on a RadixDevice. Keys longer than the device's MaxLen
    are cut to it (a shorter prefix match, never a wrong one); each distinct extra key
    (LoRA id, cache salt) gets its own device namespace."""

    def __init__(self, device: RadixDevice, page_size: int = 1,
                 free: Callable[[np.ndarray], None] | None = None) -> None:
        self.device, self.page_size = device, page_size
        self.free = free or (lambda kv: None)
        self.namespaces: dict[object, int] = {None: 0}
        self.reset()

    def reset(self) -> None:
        self.device.reset()
        self.root = DeviceNode(handle=-1, indices=np.empty(0, dtype=np.int64))

    def key(self, tokens: Sequence[int], extra: object = None) -> tuple[list[int], int]:
        """Page-aligned tokens cut to the device's MaxLen, and the namespace of ``extra``."""
        n = min(len(tokens), self.device.geometry.max_len)
        n -= n % self.page_size
        if extra not in self.namespaces:
            if len(self.namespaces) >= self.device.geometry.num_ns:
                raise ValueError(f"more than {self.device.geometry.num_ns} distinct extra "
                                 "keys: the device has no namespace left")
            self.namespaces[extra] = len(self.namespaces)
        return [int(t) for t in tokens[:n]], self.namespaces[extra]

    def match(self, tokens: Sequence[int], extra: object = None) -> tuple[int, DeviceNode]:
        toks, ns = self.key(tokens, extra)
        if not toks:
            return 0, self.root
        m = self.device.match(toks, ns)
        if m.length == 0:
            return 0, self.root
        node = DeviceNode(m.handle, tuple(toks[:m.length]), ns, m.kv_indices, self.root)
        return m.length, node

    def insert(self, tokens: Sequence[int], values: Sequence[int],
               extra: object = None) -> tuple[int, DeviceNode]:
        toks, ns = self.key(tokens, extra)
        if not toks:
            return 0, self.root
        ins = self.device.insert(toks, [int(v) for v in values[:len(toks)]], ns)
        return ins.prefix_len, DeviceNode(ins.handle, tuple(toks), ns, None, self.root)

    def path_indices(self, node: DeviceNode) -> np.ndarray:
        if node.indices is None:
            node.indices = self.device.match(list(node.tokens), node.ns).kv_indices
        return node.indices

    def evict(self, num_tokens: int) -> int:
        """Evict and free through ``free``, in the device's eviction order."""
        if num_tokens <= 0:
            return 0
        freed = self.device.evict(num_tokens).kv_indices
        if len(freed):
            self.free(freed)
        return len(freed)

    def lock(self, node: DeviceNode) -> int:
        return 0 if node is self.root else self.device.lock(node.handle)

    def unlock(self, node: DeviceNode) -> int:
        return 0 if node is self.root else self.device.unlock(node.handle)


class SlotPool:
    """The validator's slots, handed to grammar matchers and taken back when they finish."""

    def __init__(self, device: FsmDevice) -> None:
        self.device = device
        self.free = list(range(device.geometry.n_slots - 1, -1, -1))

    def take(self) -> int:
        if not self.free:
            raise RuntimeError(f"all {self.device.geometry.n_slots} validator slots are in "
                               "use")
        return self.free.pop()

    def give(self, slot: int) -> None:
        self.free.append(slot)


class GrammarCore:
    """One request's grammar on one validator slot: accept, rollback, mask, jump forward."""

    def __init__(self, pool: SlotPool, bank: int, grammar: Grammar, token_bytes:
                 Callable[[int], bytes]) -> None:
        self.pool, self.bank, self.grammar = pool, bank, grammar
        self.token_bytes = token_bytes
        self.slot = pool.take()
        self.history: list[int] = []
        self.terminated = False
        self.state = pool.device.bind(self.slot, bank).state

    @property
    def device(self) -> FsmDevice:
        return self.pool.device

    def accept(self, token: int) -> bool:
        """Advance by ``token``; False (and the slot unchanged) if the grammar refuses it."""
        if self.terminated:
            return True
        eos = self.grammar.fsm.tables.eos_id
        step = self.device.advance(self.slot, token)
        if not step.accepted:
            self._replay()          # a refused token marks the slot violated: undo that
            return False
        self.history.append(int(token))
        self.state = step.state
        self.terminated = token == eos
        return True

    def rollback(self, k: int) -> None:
        if k > 0:
            self.history = self.history[:-k]
            self.terminated = False
            self._replay()

    def allowed(self) -> np.ndarray:
        return self.device.mask(self.slot)

    def jump_forward(self) -> tuple[list[int], str] | None:
        """The text the grammar forces from here, as xgrammar's jump-forward gives it:
        ([], text) while each byte-level state has exactly one way on and cannot end; None
        if nothing is forced. The text stops before an incomplete UTF-8 character."""
        dfa = byte_dfa(self.grammar.pattern)
        eos = self.grammar.fsm.tables.eos_id
        done = b"".join(self.token_bytes(t) for t in self.history if t != eos)
        state, out = dfa.run(dfa.start, done), bytearray()
        while state >= 0 and not dfa.accepting[state] and len(out) < 4096:
            live = np.flatnonzero(dfa.transitions[state] >= 0)
            if len(live) != 1 or len(dfa.class_bytes(int(live[0]))) != 1:
                break
            out.append(dfa.class_bytes(int(live[0]))[0])
            state = int(dfa.transitions[state, live[0]])
        text = _whole_chars(bytes(out))
        return ([], text) if text else None

    def copy(self) -> GrammarCore:
        return GrammarCore(self.pool, self.bank, self.grammar, self.token_bytes)

    def release(self) -> None:
        if self.slot >= 0:
            self.pool.give(self.slot)
            self.slot = -1

    def _replay(self) -> None:
        state = self.device.reset_slot(self.slot).state   # also clears "violated"
        if self.history:
            first, st = self.device.validate(self.slot, self.history)
            assert first is None, "a history the grammar accepted must replay"
            state = st.state
        self.state = state


@lru_cache(maxsize=64)
def byte_dfa(pattern: str) -> ByteDFA:
    return compile_regex(pattern)


def _whole_chars(data: bytes) -> str:
    for cut in range(len(data), max(-1, len(data) - 4), -1):
        try:
            return data[:cut].decode("utf-8")
        except UnicodeDecodeError:
            continue
    return ""
