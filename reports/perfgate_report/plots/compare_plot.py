"""Comparison of two runs: the key metric's samples of A and B side by side, per variant."""

from __future__ import annotations

import random
from pathlib import Path

import matplotlib
from matplotlib.lines import Line2D
from matplotlib.ticker import FuncFormatter

from . import STYLE, Plot, axis_label, figure, log_axis, plain_number, save, want_log, wrap

MAX_VARIANTS = 6
COLORS = {"A": "#7F7F7F", "B": "#0072B2"}


def make(comp, out_dir: Path) -> list[Plot]:
    sa, sb = comp.a, comp.b
    metric = sb.primary
    variants = [v for v in sb.variants if v in sa.variants and (sa.values(v, metric) or sb.values(v, metric))]
    if len(variants) > MAX_VARIANTS:
        variants = [v for v in variants if v in ("before", "after")]
    if not variants:
        return []
    with matplotlib.rc_context(STYLE):
        fig = figure(4.2)
        ax = fig.add_subplot()
        rng = random.Random(0)
        all_values = []
        for i, v in enumerate(variants):
            for j, (tag, sc) in enumerate((("A", sa), ("B", sb))):
                vals = sc.values(v, metric)
                if not vals:
                    continue
                pos = i * 3 + j + 1
                all_values += vals
                bp = ax.boxplot([vals], positions=[pos], widths=0.7, showfliers=False, patch_artist=True, whis=(0, 100),
                                medianprops={"color": "black", "linewidth": 1.6})
                bp["boxes"][0].set_facecolor(COLORS[tag])
                bp["boxes"][0].set_alpha(0.25)
                ax.scatter([pos + rng.uniform(-0.18, 0.18) for _ in vals], vals, s=18, color=COLORS[tag], zorder=3,
                           edgecolors="white", linewidths=0.5)
        ax.set_xticks([i * 3 + 1.5 for i in range(len(variants))], variants)
        ax.set_xlim(0, len(variants) * 3)
        log = want_log(all_values)
        if log:
            log_axis(ax, "y")
        else:
            ax.yaxis.set_major_formatter(FuncFormatter(plain_number))
        ax.set_ylabel(axis_label(metric, sb.unit(metric)) + (", log scale" if log else ""))
        ax.grid(axis="x", visible=False)
        ax.legend(handles=[Line2D([], [], marker="s", linestyle="", color=COLORS[t], label=f"run {t}") for t in ("A", "B")],
                  frameon=False, loc="best")
        title = f"{comp.name}: {metric}, run A against run B"
        ax.set_title(wrap(title))
        path = save(fig, out_dir, f"compare-{comp.name}")
    return [Plot("compare", path, title, f"Measured samples of {metric} per variant, A (grey) and B (blue).")]
