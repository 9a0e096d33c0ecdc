# SPDX-License-Identifier: Apache-2.0
"""Prometheus metrics from the devices' counters, under SGLang's metric names, so the
dashboards that watch an SGLang server watch the card the same way. Needs prometheus_client
(extra ``[sglang]``)::

    from prometheus_client import REGISTRY
    REGISTRY.register(DeviceCollector(radix=dev, labels={"model_name": "m"}))
"""

from __future__ import annotations

from collections.abc import Iterator

from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily
from prometheus_client.registry import Collector

from .fsm_device import FsmDevice
from .radix_device import RadixDevice


class DeviceCollector(Collector):
    def __init__(self, radix: RadixDevice | None = None, fsm: FsmDevice | None = None,
                 labels: dict[str, str] | None = None) -> None:
        self.radix, self.fsm = radix, fsm
        self.labels = dict(labels or {})

    def collect(self) -> Iterator[GaugeMetricFamily | CounterMetricFamily]:
        names, values = list(self.labels), list(self.labels.values())

        def gauge(name: str, doc: str, value: float) -> GaugeMetricFamily:
            g = GaugeMetricFamily(name, doc, labels=names)
            g.add_metric(values, value)
            return g

        def counter(name: str, doc: str, value: float) -> CounterMetricFamily:
            c = CounterMetricFamily(name, doc, labels=names)
            c.add_metric(values, value)
            return c

        if self.radix is not None:
            k = self.radix.counters
            rate = k.hit_tokens / k.match_tokens if k.match_tokens else 0.0
            yield gauge("sglang:cache_hit_rate", "Prefix cache hit rate (matched tokens / "
                        "looked-up tokens), from the radix device.", rate)
            yield counter("sglang:evicted_tokens", "Tokens evicted from the prefix cache.",
                          k.evicted_tokens)
            yield counter("sglang:fpga_radix_commands", "Commands sent to the radix "
                          "device.", k.commands)
            yield counter("sglang:fpga_radix_calls", "Batches (kernel runs) sent to the "
                          "radix device.", k.calls)
            yield counter("sglang:fpga_radix_refusals", "Commands the radix device "
                          "refused.", sum(k.refusals.values()))
        if self.fsm is not None:
            f = self.fsm.counters
            yield counter("sglang:fpga_grammar_masks", "Vocabulary masks from the "
                          "token-FSM device.", f.masks)
            yield counter("sglang:fpga_grammar_violations", "Tokens the token-FSM device "
                          "refused.", f.violations)
