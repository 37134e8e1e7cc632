"""The samples of each variant side by side for the key metric: a box per variant with every
non-warm-up sample drawn over it; warm-up samples (excluded) hollow and grey."""

from __future__ import annotations

import random
from pathlib import Path

from matplotlib.ticker import FuncFormatter

from . import Plot, axis_label, colors, figure, log_axis, plain_number, save, want_log, wrap


def make(sc, out_dir: Path) -> list[Plot]:
    metric = sc.primary
    variants = [v for v in sc.variants if sc.values(v, metric)]
    if not variants:
        return []
    unit = sc.unit(metric)
    data = [sc.values(v, metric) for v in variants]
    warm = [sc.warmup_values(v, metric) for v in variants]
    col = colors(sc.variants)
    horizontal = len(variants) > 6
    height = max(3.6, 0.42 * len(variants) + 1.4) if horizontal else 4.4
    fig = figure(height)
    ax = fig.add_subplot()
    positions = list(range(1, len(variants) + 1))
    if horizontal:
        positions = positions[::-1]  # first variant on top
    bp = ax.boxplot(data, positions=positions, vert=not horizontal, widths=0.5, showfliers=False,
                    patch_artist=True, medianprops={"color": "black", "linewidth": 1.6}, whis=(0, 100))
    for patch, v in zip(bp["boxes"], variants):
        patch.set_facecolor(col[v])
        patch.set_alpha(0.25)
        patch.set_edgecolor(col[v])
    rng = random.Random(0)
    for pos, v, vals, wvals in zip(positions, variants, data, warm):
        jit = [pos + rng.uniform(-0.15, 0.15) for _ in vals]
        wjit = [pos + rng.uniform(-0.15, 0.15) for _ in wvals]
        if horizontal:
            ax.scatter(vals, jit, s=22, color=col[v], zorder=3, edgecolors="white", linewidths=0.5)
            if wvals:
                ax.scatter(wvals, wjit, s=22, facecolors="none", edgecolors="grey", zorder=3)
        else:
            ax.scatter(jit, vals, s=22, color=col[v], zorder=3, edgecolors="white", linewidths=0.5)
            if wvals:
                ax.scatter(wjit, wvals, s=22, facecolors="none", edgecolors="grey", zorder=3)
    labels = [f"{v}\n(n={len(d)})" if not horizontal else f"{v} (n={len(d)})" for v, d in zip(variants, data)]
    all_values = [x for d in data + warm for x in d]
    log = want_log(all_values)
    if horizontal:
        ax.set_yticks(positions, labels)
        ax.set_xlabel(axis_label(metric, unit) + (", log scale" if log else ""))
        if log:
            log_axis(ax, "x10")
        else:
            ax.xaxis.set_major_formatter(FuncFormatter(plain_number))
        ax.grid(axis="y", visible=False)
    else:
        ax.set_xticks(positions, labels)
        ax.set_ylabel(axis_label(metric, unit) + (", log scale" if log else ""))
        if log:
            log_axis(ax, "y")
        else:
            ax.yaxis.set_major_formatter(FuncFormatter(plain_number))
        ax.grid(axis="x", visible=False)
    better = "lower is better" if sc.better(metric) == "lower" else "higher is better"
    title = f"{sc.name}: {metric} per sample ({better})"
    ax.set_title(wrap(title))
    if any(warm):
        from matplotlib.lines import Line2D

        ax.legend(handles=[Line2D([], [], marker="o", linestyle="", color="grey", markerfacecolor="none", label="warm-up (excluded)"),
                           Line2D([], [], marker="o", linestyle="", color="black", label="measured sample")],
                  loc="best", frameon=False)
    path = save(fig, out_dir, f"{sc.index:02d}-{sc.name}-samples")
    caption = (f"Every measured sample of {metric} per variant; box: quartiles, whiskers: min-max, "
               f"line: median. Warm-up samples, if any, are hollow and excluded from every figure.")
    return [Plot("samples", path, title, caption)]
