# SPDX-License-Identifier: Apache-2.0
"""FpgaRadixCache: SGLang's prefix cache on a RadixDevice (the radix KV-cache controller).

Same constructor as SGLang's ``RadixCache`` (a ``CacheInitParams``), same calls and
results: ``match_prefix`` returns the matched length and a node, ``path_device_indices``
the node's KV indices as a torch tensor, ``evict`` frees through the given allocator in
the device's LRU order. The request hooks (``checkpoint`` and the ``_insert_cache`` it
uses) are SGLang's own, run on this cache's calls. Eviction is LRU only (the device's
order); keys past the device's MaxLen are matched and cached up to MaxLen."""

from __future__ import annotations

import os
import time
from typing import Any

import numpy as np
import torch
from sglang.srt.mem_cache.base_prefix_cache import (
    BasePrefixCache,
    DecLockRefParams,
    DecLockRefResult,
    EvictParams,
    EvictResult,
    IncLockRefResult,
    InsertParams,
    InsertResult,
    MatchPrefixParams,
    MatchResult,
)
from sglang.srt.mem_cache.cache_init_params import CacheInitParams
from sglang.srt.mem_cache.radix_cache import RadixCache

from ..backends.radix_model import RadixGeometry
from ..radix_device import RadixDevice
from ..serving import DeviceNode, RadixCacheCore

# The model back end's default geometry for serving: room for a real KV pool.
SERVING_GEOMETRY = RadixGeometry(node_cap=1 << 17, token_cap=1 << 21, max_len=1 << 15,
                                 hash_buckets=1 << 16, hash_ways=4, stash_depth=16,
                                 num_ns=256)


def default_device() -> RadixDevice:
    backend = os.environ.get("SGLANG_FPGA_BACKEND", "model")
    geometry = SERVING_GEOMETRY if backend != "sim" else None
    return RadixDevice(backend, geometry=geometry,
                       xclbin=os.environ.get("SGLANG_FPGA_XCLBIN"))


class FpgaRadixCache(BasePrefixCache):
    def __init__(self, params: CacheInitParams, device: RadixDevice | None = None) -> None:
        if params.eviction_policy.lower() != "lru":
            raise ValueError(f"the fpga prefix cache evicts LRU only, not "
                             f"{params.eviction_policy!r}")
        self.disable = params.disable
        self.req_to_token_pool = params.req_to_token_pool
        self.token_to_kv_pool_allocator = params.token_to_kv_pool_allocator
        self.page_size = params.page_size
        self.is_eagle = params.is_eagle
        self.kv_events = None
        if params.enable_metrics:
            self.init_metrics_collector()    # SGLang's own radix-cache metrics, as RadixCache
        dev = getattr(self.token_to_kv_pool_allocator, "device", "cpu")
        self.device = torch.device(dev) if isinstance(dev, (str, torch.device)) else \
            torch.device("cpu")
        self.radix = device or default_device()
        self.core = RadixCacheCore(self.radix, self.page_size, self._free)
        self.reset()

    # ---- BasePrefixCache ------------------------------------------------------------
    def reset(self) -> None:
        self.core.reset()
        self.root_node = self.core.root
        self._empty = MatchResult(device_prefix_len=0, last_device_node=self.root_node,
                                  last_host_node=self.root_node,
                                  best_match_node=self.root_node)

    def match_prefix(self, params: MatchPrefixParams) -> MatchResult:
        key, _ = params.key.maybe_to_bigram_view(self.is_eagle)
        if self.disable or len(key) == 0:
            return self._empty
        length, node = self.core.match(list(key.raw_token_ids()[:len(key)]), _extra(key))
        return MatchResult(device_prefix_len=length, last_device_node=node,
                           last_host_node=node, best_match_node=node)

    def insert(self, params: InsertParams) -> InsertResult:
        if self.disable:
            return InsertResult(prefix_len=0)
        key, value = params.key.maybe_to_bigram_view(self.is_eagle, params.value)
        tokens = list(key.raw_token_ids()[:len(key)])
        values = (value[:len(tokens)].tolist() if value is not None else tokens)
        prefix_len, node = self.core.insert(tokens, values, _extra(key))
        return InsertResult(prefix_len=prefix_len, last_device_node=node)

    def evict(self, params: EvictParams) -> EvictResult:
        if self.disable:
            return EvictResult()
        start = time.perf_counter()
        evicted = self.core.evict(params.num_tokens)
        self.update_eviction_metrics(evicted, start)
        return EvictResult(num_tokens_evicted=evicted)

    def inc_lock_ref(self, node: DeviceNode) -> IncLockRefResult:
        if self.disable:
            return IncLockRefResult(delta=0)
        return IncLockRefResult(delta=self.core.lock(node))

    def dec_lock_ref(self, node: DeviceNode,
                     params: DecLockRefParams | None = None) -> DecLockRefResult:
        if self.disable:
            return DecLockRefResult(delta=0)
        return DecLockRefResult(delta=self.core.unlock(node))

    def path_device_indices(self, node: DeviceNode) -> torch.Tensor:
        return torch.as_tensor(self.core.path_indices(node), dtype=torch.int64,
                               device=self.device)

    def evictable_size(self) -> int:
        return self.radix.sizes().evictable

    def protected_size(self) -> int:
        return self.radix.sizes().protected

    def total_size(self) -> int:
        return self.radix.sizes().total

    def supports_prefix_sharing(self) -> bool:
        return not self.disable

    def pretty_print(self) -> None:
        s = self.radix.sizes()
        print(f"fpga radix cache ({self.radix.backend}): {s.total} tokens, "
              f"{s.evictable} evictable, {s.protected} protected")

    # The request hooks are SGLang's RadixCache code, which only calls the methods above.
    checkpoint = RadixCache.checkpoint
    _insert_cache = RadixCache._insert_cache

    # ---- helpers --------------------------------------------------------------------
    def _free(self, kv: np.ndarray) -> None:
        # As RadixCache frees a node: evicted values are whole pages of kv rows.
        self.token_to_kv_pool_allocator.free_segment(
            torch.as_tensor(kv, dtype=torch.int64, device=self.device), start_pos=0)


def _extra(key: Any) -> object:
    return (key.extra_key, key.cache_salt) if key.extra_key or key.cache_salt else None


def factory(ctx: Any) -> FpgaRadixCache:
    """For register_radix_cache_backend: ctx is SGLang's TreeCacheBuildContext."""
    return FpgaRadixCache(ctx.params)


def register_radix_cache() -> None:
    from sglang.srt.mem_cache.registry import (
        register_radix_cache_backend,
        registered_radix_cache_backends,
    )
    if "fpga" not in registered_radix_cache_backends():
        register_radix_cache_backend("fpga", factory)
