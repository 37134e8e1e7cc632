"""Latency percentiles: metrics named like latency_p50_ms / latency_p99_ms (or ms_per_page_p50,
select_p95_ms) grouped by family, bars per variant, one bar per percentile."""

from __future__ import annotations

from pathlib import Path

from matplotlib.ticker import FuncFormatter

from .. import fmt, metrics
from . import Plot, axis_label, colors, figure, finite, log_axis, plain_number, save, want_log, wrap

MAX_VARIANTS = 6
MAX_FAMILIES = 2


def families(sc) -> dict[str, list[tuple[float, str]]]:
    fams: dict[str, list[tuple[float, str]]] = {}
    for m in sc.metrics():
        p = metrics.percentile_of(m)
        if p and sc.unit(m) in metrics.TIME_UNITS:
            fams.setdefault(p[0], []).append((p[1], m))
    return {f: sorted(ms) for f, ms in fams.items() if len(ms) >= 2}


def make(sc, out_dir: Path) -> list[Plot]:
    plots = []
    for family, members in list(families(sc).items())[:MAX_FAMILIES]:
        variants = [v for v in sc.variants if any(sc.values(v, m) for _, m in members)]
        if len(variants) > MAX_VARIANTS:
            variants = [v for v in variants if v in ("before", "after")]
        if not variants:
            continue
        unit = sc.unit(members[0][1])
        fig = figure(4.2)
        ax = fig.add_subplot()
        width = 0.8 / len(members)
        col = colors(sc.variants)
        shades = [1.0, 0.65, 0.4, 0.25]
        all_y = []
        for i, (pct, m) in enumerate(members):
            xs, ys, lo, hi, cs = [], [], [], [], []
            for j, v in enumerate(variants):
                med = sc.median(v, m)
                if med is None:
                    continue
                ci = sc.median_interval(v, m)
                xs.append(j + (i - (len(members) - 1) / 2) * width)
                ys.append(med)
                lo.append(med - ci[0] if ci else 0)
                hi.append(ci[1] - med if ci else 0)
                cs.append(col[v])
            all_y += ys
            bars = ax.bar(xs, ys, width=width * 0.92, color=cs, alpha=shades[i % len(shades)], edgecolor="black",
                          linewidth=0.5, yerr=[lo, hi], capsize=3, label=f"p{pct:g}")
            for b, y, h in zip(bars, ys, hi):
                ax.annotate(f"p{pct:g}\n{fmt.num(y)}", (b.get_x() + b.get_width() / 2, y + h), textcoords="offset points",
                            xytext=(0, 2), ha="center", fontsize=8)
        ax.set_xticks(range(len(variants)), variants)
        log = want_log(finite(all_y), 30)
        if log:
            log_axis(ax, "y")
        else:
            ax.yaxis.set_major_formatter(FuncFormatter(plain_number))
        ax.margins(y=0.12)
        ax.set_ylabel(axis_label(f"{family} percentile", unit) + (", log scale" if log else ""))
        ax.grid(axis="x", visible=False)
        title = f"{sc.name}: {family} percentiles per variant ({', '.join(m for _, m in members)})"
        ax.set_title(wrap(title))
        path = save(fig, out_dir, f"{sc.index:02d}-{sc.name}-percentiles-{family}")
        caption = ("Median over the measured samples of each percentile metric; error bars: 95% interval of that "
                   "median. Lighter bars are higher percentiles.")
        plots.append(Plot("percentiles", path, title, caption))
    return plots
