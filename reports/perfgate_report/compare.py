"""Two runs (A, then B): per scenario, variant and metric, the medians of A and B, the change,
and whether it is significant -> comparison.md.

`perfgate report A B` passes the rows `perfgate compare A B --json` computed (gate/run_diff.cpp:
Mann-Whitney U Holm-corrected across the rows, bootstrap interval, noise band) as `diff`, and
this module only renders them, so the two commands flag the same rows. Without `diff` (the
package used on its own) it computes rows itself, as below.

The two runs are independent, so the test is unpaired: Mann-Whitney U (two-sided) over the raw
non-warm-up samples of each run, and a seeded percentile bootstrap interval for the ratio of
medians B/A. A change is significant when p < alpha AND the whole interval lies outside the
noise band; otherwise it is printed as `~` (benchstat's mark for "no detectable change").
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

from . import fmt, stats
from .markdown import with_incomplete_banner
from .load import load_results
from .model import RunView, ScenarioView
from .output import staged

COMPARISON_FILE = "comparison.md"
PLOTS_DIR = "plots"


@dataclass
class Row:
    scenario: str
    variant: str
    metric: str
    unit: str
    better: str
    n_a: int
    n_b: int
    median_a: float
    median_b: float
    ratio: float | None  # B / A
    ci: tuple[float, float] | None
    p: float | None
    method: str
    significant: bool
    primary: bool
    verdict: str | None = None  # perfgate compare's own verdict, when the row came from it
    judged: bool = True  # a row compare's regression gate judges (a gated variant's)

    @property
    def direction(self) -> str:
        """'better' or 'worse' for a row the gate judges, else only which way it moved ('higher',
        'lower'): never a verdict on what nothing gates; '~' when not significant."""
        if self.verdict == "~" or (self.verdict is None and (not self.significant or self.ratio is None)):
            return "~"
        if not self.judged:
            return "higher" if (self.ratio or 0) > 1 else "lower"
        if self.verdict is not None:
            return self.verdict
        lower = self.ratio < 1
        return "better" if lower == (self.better == "lower") else "worse"


@dataclass
class ScenarioComparison:
    name: str
    a: ScenarioView | None
    b: ScenarioView | None
    rows: list[Row]
    skipped: list[str]


def compare_runs(
    a: RunView, b: RunView, *, alpha: float = 0.05, noise: float = 0.02, seed: int = 1, resamples: int = 10_000
) -> list[ScenarioComparison]:
    out = []
    a_by = {s.name: s for s in a.scenarios}
    b_by = {s.name: s for s in b.scenarios}
    names = [s.name for s in a.scenarios] + [s.name for s in b.scenarios if s.name not in a_by]
    for name in names:
        sa, sb = a_by.get(name), b_by.get(name)
        if sa is None or sb is None:
            out.append(ScenarioComparison(name, sa, sb, [], []))
            continue
        rows, skipped = [], []
        variants = [v for v in sb.variants if v in sa.variants]
        metrics = [m for m in sb.metrics() if m in sa.metric_info]
        for v in variants:
            for m in metrics:
                xa, xb = sa.values(v, m), sb.values(v, m)
                if not xa or not xb:
                    if xa or xb:
                        skipped.append(f"{v} {m}: measured in {'A' if xa else 'B'} only")
                    continue
                rows.append(_row(name, v, m, sb, xa, xb, alpha, noise, seed, resamples, m == sb.primary))
        for v in sa.variants:
            if v not in sb.variants:
                skipped.append(f"variant {v}: in A only")
        for v in sb.variants:
            if v not in sa.variants:
                skipped.append(f"variant {v}: in B only")
        out.append(ScenarioComparison(name, sa, sb, rows, skipped))
    return out


def comparisons_from_diff(a: RunView, b: RunView, diff: dict) -> list[ScenarioComparison]:
    """The rows `perfgate compare A B --json` computed, grouped by scenario in the runs' order."""
    try:
        rows: dict[str, list[Row]] = {}
        judged = {g["row"] for g in (diff.get("gate") or {}).get("rows", [])}
        for i, r in enumerate(diff["rows"]):
            ci = r["ci"]
            rows.setdefault(r["scenario"], []).append(Row(
                r["scenario"], r["variant"], r["metric"], r["unit"], r["better"], r["n_old"], r["n_new"],
                r["old_median"], r["new_median"], r["change"],
                (ci[0], ci[1]) if ci[0] is not None and ci[1] is not None else None,
                r["p_adjusted"], "Holm", r["verdict"] != "~", r["gated"], r["verdict"], i in judged))
    except (KeyError, TypeError, IndexError) as e:
        from .errors import BadInput

        raise BadInput(f"the comparison rows from perfgate compare lack a field: {e}") from e
    a_by = {s.name: s for s in a.scenarios}
    b_by = {s.name: s for s in b.scenarios}
    names = [s.name for s in a.scenarios] + [s.name for s in b.scenarios if s.name not in a_by]
    return [ScenarioComparison(n, a_by.get(n), b_by.get(n), rows.get(n, []), []) for n in names]


def _row(scenario, variant, metric, sc, xa, xb, alpha, noise, seed, resamples, primary) -> Row:
    ma, mb = stats.median(xa), stats.median(xb)
    ratio = mb / ma if ma != 0 else (None if mb != 0 else 1.0)
    if len(set(xa)) == 1 and len(set(xb)) == 1 and xa[0] == xb[0]:
        p, method = 1.0, "identical"
    else:
        t = stats.mann_whitney_u(xa, xb)
        p, method = t.p_value, t.method
    ci = None
    if ma != 0:
        lo, hi = stats.bootstrap_ratio_of_medians(xa, xb, seed=seed, resamples=resamples)
        ci = (lo, hi) if not (math.isnan(lo) or math.isnan(hi)) else None
    outside = ci is not None and (ci[1] < 1 - noise or ci[0] > 1 + noise)
    significant = p < alpha and outside
    return Row(scenario, variant, metric, sc.unit(metric), sc.better(metric), len(xa), len(xb), ma, mb, ratio, ci, p,
               method, significant, primary, judged=variant == "after" or sc.variants == [variant])


# --------------------------------------------------------------------------- markdown
def _run_facts(run: RunView) -> dict[str, str]:
    r, h = run.run, run.host
    git = r["git"]
    return {
        "file": f"`{run.path}`",
        "run": r["id"],
        "started": str(r.get("started_at", "")),
        "commit": f"`{git['commit'][:12]}`" + (" **dirty**" if git["dirty"] else ""),
        "host": f"`{h['fingerprint']}` ({h['cpu_model']}, {h['cores']} cores)",
        "profile": f"{r['profile']} (seed {r['seed'] if r.get('seed') is not None else 'per shard'})",
        "load before / after (1 min)": f"{_l(h.get('load_before'))} / {_l(h.get('load_after'))}",
        "CPU / memory source": f"{h['cgroup']['cpu_source']} / {h['cgroup']['memory_source']}",
        "outcome": f"{run.outcome['status']} (exit {run.outcome['exit_code']})",
    }


def _l(load) -> str:
    return f"{load[0]:.2f}" if isinstance(load, list) and load else "—"


def render(a: RunView, b: RunView, comps: list[ScenarioComparison], alpha: float, noise: float, seed: int,
           resamples: int, plots: dict, out_dir: Path, from_compare: bool = False) -> str:
    fa, fb = _run_facts(a), _run_facts(b)
    lines = ["# perfgate comparison — B against A", "", "| | A | B |", "|---|---|---|"]
    lines += [f"| {k} | {fmt.cell(fa[k])} | {fmt.cell(fb[k])} |" for k in fa]
    warnings = []
    if a.host["fingerprint"] != b.host["fingerprint"]:
        warnings.append("the runs were made on **different hosts** (fingerprints differ): a change may be the machine's")
    if a.run["profile"] != b.run["profile"]:
        warnings.append(f"the profiles differ ({a.run['profile']} vs {b.run['profile']}): the work is not the same size")
    if a.run["git"]["dirty"] or b.run["git"]["dirty"]:
        warnings.append("a run was made from a dirty tree: its commit does not say exactly what ran")
    for tag, run in (("A", a), ("B", b)):
        if run.host_fallbacks():
            warnings.append(f"{tag} took CPU or memory from rusage, not a cgroup")
    if warnings:
        lines += ["", "**Read with care:**", ""] + [f"- {w}" for w in warnings]
    method = [
        "",
        "Computed by `perfgate compare A B` (the same rows, the same verdicts): per scenario, variant and the "
        "scenario's gated metric, `wall_ms` and `cpu_ms`, the median of the measured samples of each run, the change "
        "B/A with a bootstrap 95% interval of the ratio of medians, and the two-sided Mann–Whitney U p-value "
        f"**Holm-corrected across every row**. A change is flagged when the corrected p < {alpha:g} **and** the "
        f"interval lies wholly outside the ±{fmt.num(noise * 100)}% noise band; otherwise `~`.",
    ] if from_compare else [
        "",
        f"Per scenario, variant and metric: the median of the measured (non-warm-up) samples of each run, the change "
        f"B/A with a {resamples:,}-resample bootstrap 95% interval of the ratio of medians (seed {seed}), and the "
        f"two-sided Mann–Whitney U p-value of the raw samples. A change is flagged when p < {alpha:g} **and** the "
        f"interval lies wholly outside the ±{fmt.num(noise * 100)}% noise band; otherwise `~`. The p-values are not "
        f"corrected for the number of rows: with many rows, expect about {alpha:g} × rows false flags among "
        f"metrics that did not change — trust the gated metric (**bold**) first.",
    ]
    lines += method
    # summary: primary metric per scenario and variant
    lines += ["", "## Summary", "", "| scenario | variant | key metric | A | B | change | |", "|---|---|---|--:|--:|---|---|"]
    for c in comps:
        if c.a is None or c.b is None:
            lines.append(f"| {c.name} | | | | | only in {'A' if c.a else 'B'} | |")
            continue
        for r in c.rows:
            if r.primary:
                lines.append(f"| [{c.name}](#{_anchor(c.name)}) | {r.variant} | `{r.metric}` | {_v(r, r.median_a)} | "
                             f"{_v(r, r.median_b)} | {_change(r)} | {_flag(r)} |")
    for c in comps:
        lines += ["", f'<a id="{_anchor(c.name)}"></a>', "", f"## {c.name}", ""]
        if c.a is None or c.b is None:
            lines.append(f"Only in {'A' if c.a else 'B'}: nothing to compare.")
            continue
        if not c.rows:
            lines.append("No metric was measured in both runs.")
        else:
            lines += ["| variant | metric | A median (n) | B median (n) | change | B/A [95% CI] | p | |",
                      "|---|---|--:|--:|---|---|---|---|"]
            for r in c.rows:
                metric = f"**{r.metric}**" if r.primary else r.metric
                ci = fmt.interval(r.ci[0], r.ci[1], fmt.ratio_text) if r.ci else ""
                p = fmt.p_value(r.p) + ("" if r.method in ("exact", "normal") else f" ({r.method})")
                lines.append(
                    f"| {r.variant} | {metric} | {_v(r, r.median_a)} ({r.n_a}) | {_v(r, r.median_b)} ({r.n_b}) | "
                    f"{_change(r)} | {fmt.ratio_text(r.ratio)} {ci} | {p} | {_flag(r)} |"
                )
        if c.skipped:
            lines += ["", "Not compared: " + "; ".join(c.skipped) + "."]
        for plot in plots.get(c.name, []):
            lines += ["", f"![{fmt.cell(plot.title)}]({plot.rel(out_dir)})", "", f"*{plot.caption}*"]
    lines += ["", "`better` / `worse`: a significant change of a row the regression gate judges (the AFTER variant's), in "
                  "the metric's better / worse direction; `higher` / `lower`: a significant change of a row nothing gates "
                  "(BEFORE, sweep variants), which way it moved; `~`: no significant change. Change: B relative to A "
                  "(Nx = N times better)."]
    return "\n".join(lines) + "\n"


def _anchor(name: str) -> str:
    return f"c-{name}".lower()


def _v(r: Row, v: float) -> str:
    return fmt.quantity(v, r.unit)


def _change(r: Row) -> str:
    if not r.significant:
        return "~"
    return fmt.factor(r.ratio, r.better)


def _flag(r: Row) -> str:
    d = r.direction
    return "~" if d == "~" else (f"**{d}**" if d == "worse" else d)


# --------------------------------------------------------------------------- entry point
def build_comparison(
    a_path: str | Path,
    b_path: str | Path,
    out_dir: str | Path | None = None,
    *,
    plots: bool = True,
    alpha: float = 0.05,
    noise: float | None = None,
    seed: int = 1,
    resamples: int = 10_000,
    diff: str | Path | None = None,
    incomplete: list[str] = (),
) -> Path:
    a_doc = load_results(a_path)
    b_doc = load_results(b_path)
    a, b = RunView(a_doc, str(a_path)), RunView(b_doc, str(b_path))
    if diff is not None:
        import json

        band = 0.02 if noise is None else noise  # perfgate compare's default band
        comps = comparisons_from_diff(a, b, json.loads(Path(diff).read_text(encoding="utf-8")))
    else:
        band = noise if noise is not None else b.noise_band
        comps = compare_runs(a, b, alpha=alpha, noise=band, seed=seed, resamples=resamples)
    b_path = Path(b_path)
    out = Path(out_dir) if out_dir is not None else (b_path.parent if str(b_path.parent) else Path("."))
    with staged(out, COMPARISON_FILE, owned=f"{PLOTS_DIR}/compare-*.png") as tmp:
        drawn = {}
        if plots:
            from .plots import compare_plot

            for c in comps:
                if c.a is not None and c.b is not None:
                    drawn[c.name] = compare_plot.make(c, tmp / PLOTS_DIR)
        text = render(a, b, comps, alpha, band, seed, resamples, drawn, tmp, from_compare=diff is not None)
        text = with_incomplete_banner(text, list(incomplete))
        (tmp / COMPARISON_FILE).write_text(text, encoding="utf-8")
    return out / COMPARISON_FILE
