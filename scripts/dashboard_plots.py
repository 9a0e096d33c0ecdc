# SPDX-License-Identifier: Apache-2.0
"""matplotlib figures for the dashboard, returned as base64 PNG so the page stands alone."""

from __future__ import annotations

import base64
import io
from collections.abc import Sequence

import matplotlib

matplotlib.use("Agg")  # no display on CI machines
import matplotlib.pyplot as plt  # noqa: E402 - the backend must be chosen first

PASS, FAIL, NOTRUN, PLANNED = "#2e7d32", "#c62828", "#9e9e9e", "#90caf9"
KIND_COLOURS = {"line": "#1565c0", "branch": "#6a1b9a", "toggle": "#ef6c00", "expr": "#00838f"}


def _h(inches: float) -> float:
    """Figure height: room for the axis label and legend even with one or two bars."""
    return max(2.2, inches)


def _png(fig: plt.Figure) -> str:
    buf = io.BytesIO()
    fig.tight_layout()
    fig.savefig(buf, format="png", dpi=80)
    plt.close(fig)
    return base64.b64encode(buf.getvalue()).decode("ascii")


def stage_progress(stages: Sequence[str], counts: dict[str, dict[str, int]]) -> str:
    """Stacked horizontal bars: testpoints passing / failing / not run / planned per stage."""
    fig, ax = plt.subplots(figsize=(8, _h(0.6 + 0.5 * len(stages))))
    left = [0] * len(stages)
    for key, colour in (("passing", PASS), ("failing", FAIL), ("not run", NOTRUN),
                        ("planned", PLANNED)):
        vals = [counts[s].get(key, 0) for s in stages]
        ax.barh(stages, vals, left=left, color=colour, label=key)
        left = [a + b for a, b in zip(left, vals, strict=True)]
    ax.invert_yaxis()
    ax.set_xlabel("testpoints")
    ax.legend(ncol=4, loc="lower center", bbox_to_anchor=(0.5, 1.0), frameon=False)
    return _png(fig)


def pass_rates(names: Sequence[str], rates: Sequence[float]) -> str:
    fig, ax = plt.subplots(figsize=(8, _h(0.4 + 0.28 * len(names))))
    colours = [PASS if r >= 1.0 else FAIL for r in rates]
    ax.barh(names, [100 * r for r in rates], color=colours)
    ax.set_xlim(0, 100)
    ax.invert_yaxis()
    ax.set_xlabel("pass rate over seeds x simulators (%)")
    return _png(fig)


def times(names: Sequence[str], sim_us: Sequence[float], wall_s: Sequence[float]) -> str:
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(9, _h(0.4 + 0.28 * len(names))), sharey=True)
    a1.barh(names, sim_us, color="#5c6bc0")
    a1.set_xlabel("simulated time, mean (us)")
    a2.barh(names, wall_s, color="#8d6e63")
    a2.set_xlabel("wall time, mean (s)")
    a1.invert_yaxis()
    return _png(fig)


def percent_bars(names: Sequence[str], pct: Sequence[float], xlabel: str) -> str:
    fig, ax = plt.subplots(figsize=(8, _h(0.4 + 0.32 * len(names))))
    ax.barh(names, pct, color=[PASS if p >= 100 else "#f9a825" if p >= 80 else FAIL
                               for p in pct])
    ax.set_xlim(0, 100)
    ax.invert_yaxis()
    ax.set_xlabel(xlabel)
    return _png(fig)


def grouped_percent(names: Sequence[str], series: dict[str, Sequence[float | None]],
                    xlabel: str) -> str:
    """One group of bars per name, one bar per series (e.g. line / branch / toggle)."""
    fig, ax = plt.subplots(figsize=(8, _h(0.5 + 0.45 * len(names))))
    height = 0.8 / max(1, len(series))
    for k, (label, vals) in enumerate(series.items()):
        ys = [i + k * height for i in range(len(names))]
        ax.barh(ys, [v or 0 for v in vals], height=height, label=label,
                color=KIND_COLOURS.get(label))
    ax.set_yticks([i + 0.4 - height / 2 for i in range(len(names))], names)
    ax.set_xlim(0, 100)
    ax.invert_yaxis()
    ax.set_xlabel(xlabel)
    ax.legend(ncol=len(series), loc="lower center", bbox_to_anchor=(0.5, 1.0), frameon=False)
    return _png(fig)


def bars(labels: Sequence[str], values: Sequence[float], xlabel: str,
         colour: str = "#5c6bc0") -> str:
    fig, ax = plt.subplots(figsize=(8, _h(0.5 + 0.3 * len(labels))))
    ax.barh(labels, values, color=colour)
    ax.invert_yaxis()
    ax.set_xlabel(xlabel)
    return _png(fig)


def compare(labels: Sequence[str], ours: Sequence[float], theirs: Sequence[float],
            ours_label: str, theirs_label: str, xlabel: str) -> str:
    fig, ax = plt.subplots(figsize=(8, _h(0.6 + 0.5 * len(labels))))
    ys = range(len(labels))
    ax.barh([y - 0.2 for y in ys], ours, height=0.4, label=ours_label, color="#2e7d32")
    ax.barh([y + 0.2 for y in ys], theirs, height=0.4, label=theirs_label, color="#9e9e9e")
    ax.set_yticks(list(ys), labels)
    ax.set_xscale("log")
    ax.invert_yaxis()
    ax.set_xlabel(xlabel)
    ax.legend(loc="lower right")
    return _png(fig)


def trends(runs: Sequence[str], series: dict[str, Sequence[float | None]], ylabel: str,
           ylim: tuple[float, float] | None = None) -> str:
    fig, ax = plt.subplots(figsize=(9, 3))
    xs = list(range(len(runs)))
    for label, vals in series.items():
        pts = [(x, v) for x, v in zip(xs, vals, strict=True) if v is not None]
        if pts:
            ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label=label)
    step = max(1, len(runs) // 12)
    ax.set_xticks(xs[::step], [runs[i] for i in xs[::step]], rotation=30, ha="right",
                  fontsize=7)
    if ylim:
        ax.set_ylim(*ylim)
    ax.set_ylabel(ylabel)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
    return _png(fig)
