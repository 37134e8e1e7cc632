"""Distributions a program recorded as a series (per-page times, per-request latencies): the
percentile curve of each variant, p50 / p90 / p99 marked."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from . import Plot, axis_label, colors, figure, finite, log_axis, save, want_log, wrap
from .series_xy import xy_series

MIN_VALUES = 5
MAX_SERIES = 2


def distribution_series(sc) -> list[str]:
    skip = set(xy_series(sc))
    names = []
    for name in sc.series_names():
        if name in skip:
            continue
        if any(len(sc.series_values(v, name)) >= MIN_VALUES for v in sc.variants):
            names.append(name)
    return names[:MAX_SERIES]


def make(sc, out_dir: Path) -> list[Plot]:
    plots = []
    col = colors(sc.variants)
    for name in distribution_series(sc):
        fig = figure(4.2)
        ax = fig.add_subplot()
        unit = ""
        all_y: list[float] = []
        variants = [v for v in sc.variants if len(sc.series_values(v, name)) >= MIN_VALUES]
        marked = False
        for v in variants:
            vals = np.sort(np.asarray(sc.series_values(v, name)))
            unit = sc.series(v)[name].get("unit", unit)
            ranks = np.linspace(0, 100, len(vals))
            ax.plot(ranks, vals, color=col[v], label=f"{v} (n={len(vals)})", linewidth=1.6)
            s = sc.series_summary(v, name)
            if s is not None:  # the harness's quantiles; a file written before them has none to mark
                marked = True
                ax.scatter([50, 90, 99], [s["p50"], s["p90"], s["p99"]], color=col[v], zorder=3, s=18)
            all_y += list(vals)
        if not all_y:
            continue
        for p in (50, 90, 99):
            ax.axvline(p, color="grey", linewidth=0.8, linestyle=":")
            ax.annotate(f"p{p}", (p, 0.0), xycoords=("data", "axes fraction"), xytext=(-14, 4),
                        textcoords="offset points", fontsize=8, color="grey")
        log = want_log(finite([y for y in all_y if y > 0]), 20) and min(all_y) > 0
        if log:
            log_axis(ax, "y")
        ax.set_xlim(0, 100)
        ax.set_xlabel("percentile of the values in one sample (%)")
        ax.set_ylabel(axis_label(name, unit) + (", log scale" if log else ""))
        ax.legend(frameon=True, framealpha=0.85, loc="best")
        title = f"{sc.name}: distribution of {name} (last measured sample of each variant)"
        ax.set_title(wrap(title))
        path = save(fig, out_dir, f"{sc.index:02d}-{sc.name}-distribution-{name}")
        caption = (f"Every value of the series {name} from the last measured sample of each variant, sorted; "
                   + ("dots mark p50, p90 and p99." if marked else "its p50, p90 and p99 are not in this results file."))
        plots.append(Plot("distribution", path, title, caption))
    return plots
