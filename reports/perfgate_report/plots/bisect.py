"""`perfgate bisect`: each tested commit's ratio against the good commit, with its interval, along
the first-parent path; the band's edge (1 + band) dashed; the first slower commit marked."""

from __future__ import annotations

from pathlib import Path

from . import PALETTE, Plot, figure, save, wrap

COLOR = {"slower": PALETTE[0], "not slower": PALETTE[2], "cannot tell": PALETTE[4]}


def make(b: dict, out_dir: Path) -> Plot:
    fig = figure(3.8)
    ax = fig.add_subplot()
    steps = sorted((s for s in b["steps"] if s.get("ratio")), key=lambda s: s["index"])
    for verdict, color in COLOR.items():
        mine = [s for s in steps if s["verdict"] == verdict]
        if not mine:
            continue
        x = [s["index"] for s in mine]
        y = [s["ratio"] for s in mine]
        lo = [s["ratio"] - s["ci"][0] for s in mine]
        hi = [s["ci"][1] - s["ratio"] for s in mine]
        ax.errorbar(x, y, yerr=[lo, hi], fmt="o", ms=5, color=color, capsize=3, label=verdict)
    ax.axhline(1.0, color="#7F7F7F", linewidth=1)
    ax.axhline(1 + b["band"], color=PALETTE[0], linestyle="--", linewidth=1, label=f"+{b['band'] * 100:g}% (slower beyond)")
    for s in b["steps"]:
        if not s.get("ratio"):
            ax.annotate(s["verdict"], (s["index"], 1.0), xytext=(0, 8), textcoords="offset points", fontsize=8,
                        ha="center", color="#7F7F7F")
    first = next((c["index"] for c in b["commits"] if c["sha"] == b.get("first_slower")), None)
    if first is not None:
        ax.axvline(first, color=PALETTE[0], linestyle=":", linewidth=1)
    ax.set_xlim(-0.5, len(b["commits"]) - 0.5)
    ax.set_xlabel("commit on the first-parent path (0 = good)")
    ax.set_ylabel(f"{b['metric']}: tested / good")
    title = f"bisect: {b['metric']} of each tested commit against good"
    ax.set_title(wrap(title))
    ax.legend(loc="best")
    path = save(fig, out_dir, "bisect-ratio")
    return Plot("bisect", path, title,
                "Each point is a tested commit's ratio against the good commit with its interval at the step's "
                "level; slower means the interval lies above the dashed line.")
