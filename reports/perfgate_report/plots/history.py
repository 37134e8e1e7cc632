"""One metric of one scenario over runs (`perfgate history show ... --json FILE`): the value of
each run with its interval, the fitted segments' means, and a line at every change point
labelled with the commit where the step happened."""

from __future__ import annotations

from pathlib import Path

from ..history import step_percent
from . import Plot, axis_label, figure, save, wrap


def make(hist: dict, out_dir: Path) -> Plot:
    points = hist["points"]
    steps = sorted(hist.get("change_points", []), key=lambda c: c["index"])
    x = list(range(1, len(points) + 1))
    y = [p["value"] for p in points]
    fig = figure(4.2)
    ax = fig.add_subplot()
    lo = [p["value"] - p["ci"][0] if p.get("ci") and p["ci"][0] is not None else 0 for p in points]
    hi = [p["ci"][1] - p["value"] if p.get("ci") and p["ci"][1] is not None else 0 for p in points]
    ax.errorbar(x, y, yerr=[lo, hi], fmt="o", ms=4, color="#1f77b4", ecolor="#9ecae1", capsize=2, label="run (95% interval)")
    # Segment means of the step fit: flat lines between change points.
    bounds = [0] + [c["index"] for c in steps] + [len(points)]
    for i, (a, b) in enumerate(zip(bounds, bounds[1:])):
        if b <= a:
            continue
        mean = steps[i - 1]["mean_after"] if i > 0 else (steps[0]["mean_before"] if steps else sum(y[a:b]) / (b - a))
        ax.hlines(mean, a + 0.6, b + 0.4, colors="#d62728", linewidth=2, label="segment mean" if i == 0 else None)
    for c in steps:
        ax.axvline(c["index"] + 0.5, color="#d62728", linestyle=":", linewidth=1)
        ax.annotate(f"{step_percent(c):+.1f}% at {c['commit'][:8]}", (c["index"] + 0.5, ax.get_ylim()[1]),
                    xytext=(3, -12), textcoords="offset points", fontsize=8, color="#d62728")
    what = "AFTER/BEFORE ratio" if hist.get("kind") == "ratio" else f"{hist.get('variant', 'after')} median"
    ax.set_title(wrap(f"{hist['scenario']} ({hist.get('profile', '')}): {hist['metric']} {what} over runs, "
                      f"{len(steps)} change point(s)"))
    ax.set_xlabel("run (oldest first)")
    ax.set_ylabel(axis_label(hist["metric"], "x" if hist.get("kind") == "ratio" else hist.get("unit", "")))
    ax.legend(loc="best", fontsize=8)
    path = save(fig, out_dir, f"history-{hist['scenario']}-{hist['metric']}")
    method = hist.get("method", {})
    return Plot("history", path, f"{hist['scenario']} {hist['metric']} history",
                f"Change points by {method.get('name', 'a penalised step fit')}; the dotted lines mark where a step began.")
