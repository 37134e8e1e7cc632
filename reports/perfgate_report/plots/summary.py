"""The picture report.md opens with (plots/00-summary.png): a forest plot of every gated
comparison of the run, one row each, its ratio and interval on a log axis turned so that right
is better (BEFORE/AFTER for a lower-is-better metric, AFTER/BEFORE for a higher-is-better one),
the noise band shaded around 1, and the write-up's own figure beside it where the write-up
measured the gated metric."""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import matplotlib
from matplotlib.lines import Line2D
from matplotlib.patches import Patch
from matplotlib.ticker import FixedLocator, FuncFormatter, NullFormatter

from .. import fmt
from . import STYLE, Plot, figure, save

GREEN, RED, GREY, ANCHOR = "#009E73", "#D55E00", "#7F7F7F", "#0072B2"
STEM = "00-summary"


@dataclass
class Row:
    label: str
    factor: float | None  # how many times better AFTER is; None: no ratio
    lo: float | None
    hi: float | None
    verdict: str
    failed: bool  # a gate of the scenario failed
    anchor: float | None  # the write-up's factor on the same metric
    change: str = ""  # the change as the report's tables print it (fmt.factor)


def _factor_label(factor: float) -> str:
    if factor >= 1:
        return f"{factor:.2f}x" if factor < 10 else f"{factor:.1f}x"
    return f"{1 / factor:.2f}x worse" if factor > 0.1 else f"{1 / factor:.1f}x worse"


def _better_factor(ratio: float | None, better: str) -> float | None:
    if ratio is None or not math.isfinite(ratio) or ratio <= 0:
        return None
    return 1.0 / ratio if better == "lower" else ratio


def rows_of(run) -> list[Row]:
    """One row per gated comparison, in the run's order; a scenario with none gets a row that
    says why (it could not run, or its work differed)."""
    out = []
    for sc in run.scenarios:
        failed = bool(sc.failed_gates) or sc.error is not None
        gated = [c for c in sc.raw["comparisons"] if c.get("gated")]
        if sc.raw.get("gates") and any(g["kind"] == "equivalence" for g in sc.failed_gates):
            gated = []  # unequal work: its figures compare nothing
        if not gated:
            out.append(Row(f"{sc.name}", None, None, None, "not compared", failed, None))
            continue
        for c in gated:
            better = c.get("better") or sc.better(c["metric"])
            ci = c.get("ci") or [None, None]
            ends = [_better_factor(x, better) for x in ci]
            lo, hi = (sorted(ends) if None not in ends else (None, None))
            anchor = next((a for a in sc.anchors() if a.metric == c["metric"]), None)
            label = sc.name if len(gated) == 1 else f"{sc.name} · {c['metric']}"
            out.append(Row(label, _better_factor(c.get("ratio"), better), lo, hi, c.get("verdict", ""), failed,
                           _better_factor(anchor.ratio, anchor.better) if anchor else None,
                           fmt.factor(c.get("ratio"), better)))
    return out


def _times(x: float, _pos=None) -> str:
    if x >= 10:
        return f"{x:.0f}x"
    if x >= 1:
        return f"{x:.3g}x"
    return f"{x:.2g}x"


def _ticks(lo: float, hi: float) -> list[float]:
    fine = [0.8, 1.25] if hi / lo < 20 else []  # between 1 and 2 only where there is room
    candidates = sorted([0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000] + fine)
    return [t for t in candidates if lo <= t <= hi]


def make(run, out_dir: Path) -> list[Plot]:
    rows = rows_of(run)
    if not rows:
        return []
    noise = run.noise_band
    with matplotlib.rc_context(STYLE):
        plot_h, legend_h = max(1.9, 0.34 * len(rows) + 1.1), 0.6
        fig = figure(plot_h + legend_h)
        # The legend in a row of its own under the axes, so it hides no row and no label.
        grid = fig.add_gridspec(2, 1, height_ratios=[plot_h, legend_h])
        ax = fig.add_subplot(grid[0])
        legend_ax = fig.add_subplot(grid[1])
        legend_ax.axis("off")
        ys = list(range(len(rows)))[::-1]  # the first scenario on top
        values = [v for r in rows for v in (r.factor, r.lo, r.hi, r.anchor) if v]
        lo_x = min(values + [1 / (1 + noise)]) / 1.6
        hi_x = max(values + [1 + noise]) * 1.6
        ax.set_xscale("log")
        ax.set_xlim(lo_x, hi_x)
        ax.axvspan(1 / (1 + noise), 1 + noise, color=GREY, alpha=0.18, lw=0)
        ax.axvline(1, color=GREY, lw=1)
        for y, r in zip(ys, rows):
            if r.factor is None:
                ax.text(1, y, f"  {r.verdict}", va="center", ha="left", color=RED if r.failed else GREY, fontsize=9)
                continue
            colour = GREEN if r.verdict == "better" else RED if r.verdict == "worse" else GREY
            if r.lo is not None:
                ax.plot([r.lo, r.hi], [y, y], color=colour, lw=2.2, solid_capstyle="butt")
            ax.plot([r.factor], [y], "o", color=colour, ms=6, zorder=3)
            if r.anchor:
                ax.plot([r.anchor], [y], "D", mfc="none", mec=ANCHOR, ms=6.5, mew=1.4, zorder=4)
        ax.set_yticks(ys, [("✗ " if r.failed else "") + r.label for r in rows])
        for tick, r in zip(ax.get_yticklabels(), rows):
            if r.failed:
                tick.set_color(RED)
        ax.set_ylim(-0.7, len(rows) - 0.3)
        # The factor the dot sits at, in the axis' own terms (times better), on the right: the
        # tables' "−27%" for a 1.37x gain would read like a loss beside "5.5x".
        right = ax.twinx()
        right.set_ylim(ax.get_ylim())
        right.set_yticks(ys, [_factor_label(r.factor) if r.factor is not None else "" for r in rows])
        right.tick_params(axis="y", length=0, labelsize=9)
        right.grid(False)
        right.spines["right"].set_visible(False)
        ax.xaxis.set_major_locator(FixedLocator(_ticks(lo_x, hi_x)))
        ax.xaxis.set_major_formatter(FuncFormatter(_times))
        ax.xaxis.set_minor_formatter(NullFormatter())
        ax.grid(axis="y", visible=False)
        ax.set_xlabel("AFTER vs BEFORE, times better (log scale): right of 1x is better, left worse")
        title = f"Every gated ratio of the run ({len(rows)}), with its ≥ 95% interval"
        ax.set_title(title)
        handles = [Line2D([], [], marker="o", color=GREEN, label="better"),
                   Line2D([], [], marker="o", color=GREY, label="the same / cannot tell"),
                   Line2D([], [], marker="o", color=RED, label="worse"),
                   Patch(color=GREY, alpha=0.18, label=f"noise band ±{noise * 100:g}%")]
        if any(r.anchor for r in rows):
            handles.append(Line2D([], [], marker="D", linestyle="", mfc="none", mec=ANCHOR, label="the write-up's figure"))
        if any(r.failed for r in rows):
            handles.append(Line2D([], [], linestyle="", marker="$✗$", color=RED, label="a gate failed"))
        legend_ax.legend(handles=handles, loc="center", ncol=min(len(handles), 3), frameon=False, fontsize=8.5)
        path = save(fig, out_dir, STEM)
    # The legend names only marks the plot carries (an ab run has no write-up).
    caption = ("Each gated comparison AFTER/BEFORE of the run as a factor of improvement (BEFORE/AFTER for a "
               "lower-is-better metric), dot: the Hodges–Lehmann ratio the gate used, bar: its exact interval; "
               "shaded: the noise band"
               + ("; ◇: the write-up's published factor on the same metric" if any(r.anchor for r in rows) else "")
               + ("; ✗: a scenario with a failed gate" if any(r.failed for r in rows) else "") + ".")
    return [Plot("summary", path, title, caption)]
