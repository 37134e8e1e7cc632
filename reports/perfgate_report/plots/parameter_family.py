"""A parameter family of `perfgate ab` (--parameter-scan, --parameter-list): the gated ratio
of every pair, with its interval, over the parameter's values, beside the noise band. One plot
per family (the ab scenarios of a run that carry parameters and gate the same metric), shown
in the section of the family's first pair."""

from __future__ import annotations

from pathlib import Path

import matplotlib
from matplotlib.ticker import MaxNLocator

from . import STYLE, Plot, figure, save, wrap

VERDICT_COLORS = {"better": "#009E73", "worse": "#D55E00"}
NEUTRAL = "#7F7F7F"


def _gated(sc) -> dict | None:
    for c in sc.raw.get("comparisons", []):
        if c.get("gated") and c.get("variant") == "after":
            return c
    return None


def _label(params: dict) -> str:
    return ",".join(f"{k}={v}" for k, v in params.items())


def make(run, out_dir: Path) -> list[tuple[str, Plot]]:
    families: dict[tuple, list] = {}
    for sc in run.scenarios:
        params = sc.raw.get("params") or {}
        c = _gated(sc)
        if sc.kind != "ab" or not params or c is None:
            continue
        families.setdefault((tuple(params), c["metric"]), []).append((sc, params, c))
    out = []
    for (names, metric), members in families.items():
        if len(members) < 2:
            continue
        first = members[0][0]
        single = len(names) == 1
        numeric = single and all(isinstance(p[names[0]], (int, float)) for _, p, _ in members)
        xs = [p[names[0]] if numeric else i for i, (_, p, _) in enumerate(members)]
        band = run.noise_band
        with matplotlib.rc_context(STYLE):
            fig = figure(4.2)
            ax = fig.add_subplot()
            ax.axhspan(1 - band, 1 + band, color=NEUTRAL, alpha=0.12, lw=0, label=f"noise band ±{band:.0%}")
            ax.axhline(1, color=NEUTRAL, lw=1)
            for x, (sc, params, c) in zip(xs, members):
                lo, hi = c["ci"]
                color = VERDICT_COLORS.get(c["verdict"], NEUTRAL)
                ax.errorbar([x], [c["ratio"]], yerr=[[c["ratio"] - lo], [hi - c["ratio"]]], fmt="o", color=color,
                            capsize=4, ms=6)
            ax.plot(xs, [c["ratio"] for _, _, c in members], color=NEUTRAL, lw=0.8, alpha=0.6)
            if numeric and all(float(x).is_integer() for x in xs):
                ax.xaxis.set_major_locator(MaxNLocator(integer=True))
            if not numeric:
                ax.set_xticks(xs, [_label(p) for _, p, _ in members], rotation=30 if len(members) > 4 else 0)
            ax.set_xlabel(names[0] if single else "parameters")
            ax.set_ylabel(f"{metric}: after / before")
            ax.legend(frameon=False, loc="best")
            title = f"{first.name.split('[')[0]}: {metric} ratio over {', '.join(names)} (green better, red worse)"
            ax.set_title(wrap(title))
            path = save(fig, out_dir, f"{first.index:02d}-{first.name}-parameters")
        caption = (f"The gated ratio of each pair of the family with its interval, one point per value of "
                   f"{', '.join(names)}; the shaded band is the run's noise band. Holm-corrected together.")
        out.append((first.name, Plot("parameters", path, title, caption)))
    return out
