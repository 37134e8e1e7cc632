"""Plots, one module per kind. Each `make(scenario, out_dir)` returns the Plot objects it
wrote (PNG files named after the scenario and the kind) and draws nothing when the scenario
has nothing of that kind.

matplotlib runs headless with the Agg canvas and no pyplot state; figures are 8 inches wide at
100 dpi (800 px, the width a markdown viewer shows), titled, with units on the axes.
"""

from __future__ import annotations

import math
import os
import re
import textwrap
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

os.environ.setdefault("MPLBACKEND", "Agg")
import matplotlib  # noqa: E402

matplotlib.use("Agg", force=True)
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter  # noqa: E402

WIDTH_IN = 8.0
DPI = 100
# Okabe-Ito, readable for colour-blind readers; BEFORE and AFTER always get the first two.
PALETTE = ["#D55E00", "#0072B2", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#8C564B", "#7F7F7F", "#9467BD",
           "#BCBD22", "#17BECF"]
STYLE = {
    "font.size": 10.5,
    "axes.titlesize": 12,
    "axes.labelsize": 10.5,
    "xtick.labelsize": 9.5,
    "ytick.labelsize": 9.5,
    "legend.fontsize": 9,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "savefig.dpi": DPI,
    "figure.dpi": DPI,
}


@dataclass
class Plot:
    kind: str
    path: Path  # absolute, where it was written
    title: str
    caption: str

    def rel(self, base: Path) -> str:
        return os.path.relpath(self.path, base).replace(os.sep, "/")


def figure(height_in: float) -> Figure:
    return Figure(figsize=(WIDTH_IN, height_in), dpi=DPI, layout="constrained")


def save(fig: Figure, out_dir: Path, stem: str) -> Path:
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / f"{slug(stem)}.png"
    fig.savefig(path, dpi=DPI, facecolor="white")
    return path


def slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", text).strip("-") or "plot"


def wrap(title: str, width: int = 75) -> str:
    return "\n".join(textwrap.wrap(title, width)) or title


def colors(variants: Sequence[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    rest = iter(PALETTE[2:] * 10)
    for v in variants:
        out[v] = PALETTE[0] if v == "before" else PALETTE[1] if v == "after" else next(rest)
    return out


def axis_label(metric: str, unit: str) -> str:
    pretty = {"ms": "ms", "us": "µs", "count": "count", "KiB": "KiB", "req/s": "requests/s", "ratio": "ratio"}.get(unit, unit)
    return f"{metric} ({pretty})" if pretty else metric


def want_log(values: Sequence[float], threshold: float = 20.0) -> bool:
    pos = [v for v in values if v > 0]
    return len(pos) == len(values) and len(pos) > 1 and max(pos) / min(pos) >= threshold


def plain_number(x: float, _pos=None) -> str:
    if x == 0:
        return "0"
    a = abs(x)
    if a >= 1e6:
        return f"{x / 1e6:g}M"
    if a >= 1e4:
        return f"{x / 1e3:g}k"
    if a >= 1:
        return f"{x:.4g}"
    return f"{x:.2g}"


def log_axis(ax, which: str = "y") -> None:
    """Log scale with plain tick labels (1, 10, 100) rather than 10^k."""
    if which == "y":
        ax.set_yscale("log")
        ax.yaxis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
        ax.yaxis.set_major_formatter(FuncFormatter(plain_number))
        ax.yaxis.set_minor_formatter(NullFormatter())
    elif which == "x10":
        ax.set_xscale("log")
        ax.xaxis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
        ax.xaxis.set_major_formatter(FuncFormatter(plain_number))
        ax.xaxis.set_minor_formatter(NullFormatter())
    else:
        ax.set_xscale("log", base=2)
        ax.xaxis.set_major_formatter(FuncFormatter(plain_number))
        ax.xaxis.set_minor_formatter(NullFormatter())


def finite(values: Sequence[float]) -> list[float]:
    return [v for v in values if v is not None and math.isfinite(v)]


def render_all(sc, out_dir: Path) -> list[Plot]:
    from . import distribution, percentiles, samples, series_xy, sweep

    plots: list[Plot] = []
    with matplotlib.rc_context(STYLE):
        for module in (samples, sweep, percentiles, series_xy, distribution):
            plots.extend(module.make(sc, out_dir))
    return plots
