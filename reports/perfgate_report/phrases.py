"""Phrases the summary, the sections and the caveats of report.md share: a scenario's anchor
link, its key figure, the write-up's figure, a verdict with its resolution, a load average."""

from __future__ import annotations

from . import fmt
from .model import ScenarioView


def anchor_id(sc: ScenarioView) -> str:
    return f"s{sc.index}-{sc.name}".lower()


def key_text(sc: ScenarioView, bold: bool = True) -> str:
    k = sc.key
    if k.before is None and k.after is None:
        return "—"
    arrow = fmt.arrow(k.before, k.after, k.unit)
    f = fmt.factor(k.ratio, k.better)
    return f"{arrow} ({'**' + f + '**' if bold else f})"


def anchor_text(sc: ScenarioView, with_ours: bool) -> str:
    a = sc.headline_anchor()
    if a is None:
        return "—"
    text = f"{fmt.arrow(a.before, a.after, a.unit)} ({fmt.factor(a.ratio, a.better)})"
    if a.label:
        text = f"{a.label}: {text}"
    if a.metric != sc.primary:
        text = f"`{a.metric}` " + text
        if with_ours:
            if a.ours_before is not None or a.ours_after is not None:
                text += (f"; ours {fmt.arrow(a.ours_before, a.ours_after, a.unit)} "
                         f"({fmt.factor(a.ours_ratio, a.better)})")
            else:
                text += "; ours: not measured"
    return text


def resolution(c: dict | None) -> str:
    """What a verdict could have seen: the smallest slowdown this comparison would have flagged
    with 80% power at its corrected alpha, noise band included (results' detectable_effect)."""
    if c is None or "detectable_effect" not in c:
        return ""  # results written before perfgate recorded it
    d = c["detectable_effect"]
    if d is None:
        return "too few rounds to detect any change" if c.get("log_scale") else ""
    return f"would have flagged ≥ {fmt.percent(d)}"


def with_resolution(verdict: str, c: dict | None) -> str:
    """A "cannot tell" (or an old file's "no significant change") is never shown without its
    resolution and, where known, the rounds that would decide it."""
    r = resolution(c)
    if verdict not in ("cannot tell", "no significant change"):
        return verdict
    need = (c or {}).get("rounds_to_decide")
    extra = [x for x in (r, f"~{need} rounds would decide it" if need else "") if x]
    return f"{verdict} ({'; '.join(extra)})" if extra else verdict


def load_text(load) -> str:
    if not isinstance(load, list) or not load:
        return "—"
    return " / ".join(f"{x:.2f}" for x in load)
