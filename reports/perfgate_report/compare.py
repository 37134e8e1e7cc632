"""Two runs (A, then B): per scenario, variant and metric, the medians of A and B, the change,
and whether it is significant -> comparison.md.

The rows are the ones `perfgate compare A B --json` computed (gate/run_diff.cpp: Mann-Whitney U
Holm-corrected across the rows, bootstrap interval, noise band, the regression gate's
drift-corrected rows): `perfgate report A B` passes them as `diff`, and this module only renders
them, so both commands print the same rows, p-values and verdicts. It computes no statistic.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from . import fmt
from .errors import BadInput
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
    p: float  # Mann-Whitney U, two-sided
    p_adjusted: float  # Holm across every row
    significant: bool
    primary: bool
    verdict: str  # compare's: better, worse, ~
    judged: bool  # a row compare's regression gate judges (a gated variant's)

    @property
    def direction(self) -> str:
        """compare's verdict for a row the gate judges ('better', 'worse'), else only which way it
        moved ('higher', 'lower'): never a verdict on what nothing gates; '~' when not significant."""
        if self.verdict == "~":
            return "~"
        if not self.judged:
            return "higher" if (self.ratio or 0) > 1 else "lower"
        return self.verdict


@dataclass
class ScenarioComparison:
    name: str
    a: ScenarioView | None
    b: ScenarioView | None
    rows: list[Row]
    skipped: list[str]


@dataclass
class Diff:
    """What `perfgate compare A B --json` computed, and the level and band it decided with."""

    comparisons: list[ScenarioComparison]
    gate: list[dict]  # the regression gate's rows (gate/run_diff.hpp GateRow), as compare prints them
    rows: list[Row]
    alpha: float
    noise: float


def read_diff(a: RunView, b: RunView, path: str | Path) -> Diff:
    """The rows of a compare file, grouped by scenario in the runs' order."""
    try:
        diff = json.loads(Path(path).read_text(encoding="utf-8"))
        gate = diff["gate"]["rows"]
        judged = {g["row"] for g in gate}
        rows = [Row(r["scenario"], r["variant"], r["metric"], r["unit"], r["better"], r["n_old"], r["n_new"],
                    r["old_median"], r["new_median"], r["change"],
                    (r["ci"][0], r["ci"][1]) if None not in r["ci"] else None, r["p_mann_whitney"], r["p_adjusted"],
                    r["verdict"] != "~", r["gated"], r["verdict"], i in judged) for i, r in enumerate(diff["rows"])]
        alpha, noise = float(diff["options"]["alpha"]), float(diff["options"]["noise"])
    except (OSError, ValueError, KeyError, TypeError, IndexError) as e:
        raise BadInput(str(path), None, f"not the rows of perfgate compare --json: {e!r}") from None
    by_scenario: dict[str, list[Row]] = {}
    for r in rows:
        by_scenario.setdefault(r.scenario, []).append(r)
    a_by = {s.name: s for s in a.scenarios}
    b_by = {s.name: s for s in b.scenarios}
    names = [s.name for s in a.scenarios] + [s.name for s in b.scenarios if s.name not in a_by]
    comps = [ScenarioComparison(n, a_by.get(n), b_by.get(n), by_scenario.get(n, []), []) for n in names]
    return Diff(comps, gate, rows, alpha, noise)


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


def render(a: RunView, b: RunView, diff: Diff, plots: dict, out_dir: Path) -> str:
    comps = diff.comparisons
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
    lines += [
        "",
        "Computed by `perfgate compare A B` (the same rows, the same p-values, the same verdicts): per scenario, "
        "variant and the scenario's gated metric, `wall_ms` and `cpu_ms`, the median of the measured samples of each "
        "run, the change B/A with a bootstrap 95% interval of the ratio of medians, and the two-sided Mann–Whitney U "
        f"p-value, beside it **Holm-corrected across every row**. A change is flagged when the corrected p < {diff.alpha:g} "
        f"**and** the interval lies wholly outside the ±{fmt.num(diff.noise * 100)}% noise band; otherwise `~`.",
    ]
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
    lines += _gate(diff)
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
                p = f"{fmt.p_value(r.p)} (Holm {fmt.p_value(r.p_adjusted)})"
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
                  "(BEFORE, sweep variants), which way it moved; `same`: within the band; `~`: cannot tell. Change: B relative to A "
                  "(Nx = N times better)."]
    return "\n".join(lines) + "\n"


def _gate(diff: Diff) -> list[str]:
    """compare's regression gate: each gated variant's change divided by its reference's."""
    if not diff.gate:
        return []
    lines = ["", "## The regression gate", "",
             "Each gated variant's change divided by its reference variant's (a drift of the machine moves both); "
             "`(raw)`: judged on its own change. p: Mann–Whitney U of the per-round ratios, Holm-corrected over these "
             "rows.", "", "| scenario / variant | metric | change | reference moved | judged change [95% CI] | p | verdict |",
             "|---|---|---|---|---|---|---|"]
    for g in diff.gate:
        r = diff.rows[g["row"]]
        ref = diff.rows[g["reference_row"]] if g.get("reference_row") is not None else None
        moved = f"{ref.variant} {fmt.change(ref.ratio)}" if ref else "—"
        ci = fmt.interval(g["ci"][0], g["ci"][1], fmt.ratio_text)
        judged = ("" if g["drift_corrected"] else "(raw) ") + f"{fmt.ratio_text(g['change'])} {ci}"
        verdict = f"**{g['verdict']}**" if g["verdict"] == "worse" else g["verdict"]
        lines.append(f"| {r.scenario} / {r.variant} | {r.metric} | {fmt.change(r.ratio)} | {moved} | {judged} | "
                     f"{fmt.p_value(g['p_mann_whitney'])} (Holm {fmt.p_value(g['p_adjusted'])}) | {verdict} |")
    return lines


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
def build_comparison(a_path: str | Path, b_path: str | Path, out_dir: str | Path | None = None, *, diff: str | Path,
                     plots: bool = True, incomplete: list[str] = ()) -> Path:
    a = RunView(load_results(a_path), str(a_path))
    b = RunView(load_results(b_path), str(b_path))
    rows = read_diff(a, b, diff)
    b_path = Path(b_path)
    out = Path(out_dir) if out_dir is not None else (b_path.parent if str(b_path.parent) else Path("."))
    with staged(out, COMPARISON_FILE, owned=f"{PLOTS_DIR}/compare-*.png") as tmp:
        drawn = {}
        if plots:
            from .plots import compare_plot

            for c in rows.comparisons:
                if c.a is not None and c.b is not None:
                    drawn[c.name] = compare_plot.make(c, tmp / PLOTS_DIR)
        text = with_incomplete_banner(render(a, b, rows, drawn, tmp), list(incomplete))
        (tmp / COMPARISON_FILE).write_text(text, encoding="utf-8")
    return out / COMPARISON_FILE
