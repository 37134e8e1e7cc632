"""One scenario's section of report.md: what it is, its result, how to reproduce it, then only
the parts it has (measurements, distributions, comparisons, gates, the parity pass, phases, the
write-up's anchors, query plans, microbenchmarks, exclusions other than warm-up, notes, plots)."""

from __future__ import annotations

from pathlib import Path

from . import fmt, parity, phases
from .metrics import RUSAGE_NATIVE
from .model import ScenarioView
from .phrases import anchor_id, anchor_text, key_text, with_resolution
from .plots import Plot

VARIANT_COLUMNS = 5
EXPLAIN_LINES = 40
EXCLUDED_LIST = 20


def section(sc: ScenarioView, plots: list[Plot], out_dir: Path) -> str:
    lines = [f'<a id="{anchor_id(sc)}"></a>', "", f"## {sc.index}. {sc.title} (`{sc.name}`)", ""]
    facts = ([f"source: {sc.raw['source']}"] if sc.raw.get("source") else []) + [
        f"kind: {sc.kind}", f"profile: {sc.raw['profile']}", f"policy: {sc.raw['policy']}"]
    stop = sc.stop
    wr = sc.warmup_rounds
    warm = (f" after {len(wr)} warm-up round{'s' if len(wr) > 1 else ''} (in no figure)" if wr
            else ", no warm-up (first-run effects are inside the samples)")
    facts.append(f"{stop['rounds']} measured rounds{warm}; stopped: {stop['reason']}")
    fx = sc.raw.get("fixture")
    if isinstance(fx, dict):
        seed = fx.get("seed_seconds")
        facts.append(
            f"fixture: {fx.get('kind', '?')} `{str(fx.get('digest', ''))[:12]}`"
            + (" (reused)" if fx.get("reused") else (f" (seeded in {fmt.quantity(seed, 's')})" if seed is not None else ""))
        )
    lines += [" · ".join(facts), ""]
    if sc.raw.get("summary"):
        lines += ["> " + sc.raw["summary"].strip().replace("\n", "\n> "), ""]
    if sc.error is not None:
        lines += _error(sc)
    k = sc.key
    if k.before is not None or k.after is not None:
        ci = ""
        if k.ci and k.ci[0] is not None:
            ci = f", ratio {fmt.ratio_text(k.ratio)} {fmt.interval(k.ci[0], k.ci[1], fmt.ratio_text)}"
        elif k.ratio is not None:
            ci = f", ratio {fmt.ratio_text(k.ratio)}"
        else:
            ci = " (no comparison recorded: no ratio)"
        verdict = f": **{with_resolution(k.verdict, sc.comparison('after', k.metric, 'before'))}**" if k.verdict else ""
        writeup = f" Write-up: {anchor_text(sc, False)}." if sc.anchors() else ""
        lines += [f"**Result.** `{k.metric}` {key_text(sc)}{ci}{verdict}.{writeup}", ""]
    cmd, origin = sc.reproduce()
    lines += [f"Reproduce exactly this run of the scenario ({origin}):", "", "```sh", cmd, "```", ""]
    lines += _measurements(sc)
    lines += _steal(sc)
    lines += _series_table(sc)
    lines += _comparisons(sc)
    lines += _gates(sc)
    lines += parity.section(sc.raw)
    lines += phases.section(sc)
    lines += _anchors(sc)
    lines += _explain(sc)
    lines += _gbench(sc)
    lines += _excluded(sc)
    notes = sc.raw.get("notes") or []
    if notes:
        lines += ["**Notes from the harness.**", ""] + [f"- {n}" for n in notes] + [""]
    if plots:
        lines += ["### Plots", ""]
        for p in plots:
            lines += [f"![{fmt.cell(p.title)}]({p.rel(out_dir)})", "", f"*{p.caption}*", ""]
    return "\n".join(lines)


def _error(sc: ScenarioView) -> list[str]:
    e = sc.error or {}
    lines = [f"**This scenario could not be run** (exit {e.get('exit_code', '?')}): {e.get('message', '')}", ""]
    tail = e.get("stderr_tail")
    if tail:
        lines += ["```", str(tail).rstrip(), "```", ""]
    return lines


def _source_text(sc: ScenarioView, metric: str) -> str:
    info = sc.metric_info.get(metric)
    if not info or not info.sources:
        return "—"
    text = ", ".join(sorted(info.sources))
    if metric not in RUSAGE_NATIVE and any(s.startswith("rusage") for s in info.sources):
        text += " ⚠"
    return text


def _measurements(sc: ScenarioView) -> list[str]:
    metrics = sc.metrics()
    variants = [v for v in sc.variants if any(sc.values(v, m) or sc.summary(v, m) for m in metrics)]
    if not metrics or not variants:
        return ["No measured samples.", ""]
    n_by_variant = {v: max((len(sc.values(v, m)) for m in metrics), default=0) for v in variants}
    rusage = any(_source_text(sc, m).endswith("⚠") for m in metrics)
    lines = ["### Measurements", "",
             "Median of the measured (non-warm-up) samples, with a 95% distribution-free interval of the median "
             "(order statistics; below 6 samples the interval is [min, max] and covers less)."
             + (" ⚠ marks a figure from rusage, a weaker source (see *What this does not say*)." if rusage else ""), ""]
    for start in range(0, len(variants), VARIANT_COLUMNS):
        chunk = variants[start:start + VARIANT_COLUMNS]
        head = " | ".join(f"{v} (n={n_by_variant[v]})" for v in chunk)
        lines += [f"| metric | {head} | source |", "|---|" + "---:|" * len(chunk) + "---|"]
        for m in metrics:
            cells = []
            for v in chunk:
                med = sc.median(v, m)
                if med is None:
                    cells.append("—")
                    continue
                ci = sc.median_interval(v, m)
                unit = sc.unit(m)
                text = (fmt.with_interval(med, ci[0], ci[1], unit) if ci is not None and not (ci[0] == ci[1] == med)
                        else fmt.quantity(med, unit))
                if v == "after" and m == sc.primary:
                    text = f"**{text}**"
                cells.append(text)
            name = f"**{m}**" if m == sc.primary else m
            better = "↓" if sc.better(m) == "lower" else "↑"
            lines.append(f"| {name} {better} | {' | '.join(cells)} | {_source_text(sc, m)} |")
        lines.append("")
    lines += ["↓ lower is better, ↑ higher is better; **bold**: the gated metric.", ""]
    return lines


NOT_IN_FILE = "not in this results file"


def _series_table(sc: ScenarioView) -> list[str]:
    """A program's own series (one figure per page, request, …) as the plots draw it: its
    quantiles as the harness summarised them (`series_summaries`). A file written before those
    were recorded says so: the report computes none."""
    names = sc.series_names()
    rows = []
    for name in names:
        for v in sc.variants:
            ser = sc.series(v).get(name)
            if not sc.series_values(v, name) or (isinstance(ser, dict) and isinstance(ser.get("x"), list)):
                continue
            s = sc.series_summary(v, name)
            if s is None:
                rows.append(f"| {name} | {v} | — | {NOT_IN_FILE} | | | |")
                continue
            unit = s.get("unit", "")
            q = {k: fmt.quantity(float(s[k]), unit) for k in ("p50", "p90", "p99", "max")}
            rows.append(f"| {name} | {v} | {s['n']} | {q['p50']} | {q['p90']} | {q['p99']} | {q['max']} |")
    if not rows:
        return []
    return ["### Distributions", "",
            "Values the program recorded as a series in its last measured sample (one figure per page, request, …).",
            "", "| series | variant | n | p50 | p90 | p99 | max |", "|---|---|--:|--:|--:|--:|--:|", *rows, ""]


def _comparisons(sc: ScenarioView) -> list[str]:
    comps = sc.raw["comparisons"]
    if not comps:
        return []
    chosen = [c for c in comps if c["gated"] or c["metric"] == sc.primary or (c["variant"] == "after" and c["baseline"] == "before")]
    chosen.sort(key=lambda c: (not c["gated"], c["variant"] != "after", c["metric"] != sc.primary))
    lines = ["### Comparisons", "",
             "Ratio = variant / baseline, the Hodges–Lehmann estimate of the per-round paired log-ratios with its "
             "exact Walsh-average interval (the one that inverts the signed-rank test; ≥ 95%); p-values two-sided "
             "(Wilcoxon signed-rank, Holm-adjusted; Mann–Whitney U unadjusted, for comparison with benchstat and "
             "compare.py). Detectable = the smallest slowdown the comparison would have flagged with 80% power at "
             "its corrected α, noise band included. A row nothing gates says only which way its figure moved "
             "(higher, lower; ~ when not significant) and its change in percent: nothing judged it.", "",
             "| variant vs baseline | metric | ratio [CI] | change | p Wilcoxon (Holm) | p Mann–Whitney | detectable | verdict |",
             "|---|---|---|---|---|---|---|---|"]
    for c in chosen:
        ci = c.get("ci") or [None, None]
        better = c.get("better") or sc.better(c["metric"])
        gated = " (gated)" if c["gated"] else ""
        if c["gated"]:
            verdict, change = f"**{with_resolution(c['verdict'], c)}**", fmt.factor(c["ratio"], better)
        else:
            verdict, change = direction(c), fmt.change(c["ratio"])
        d = c.get("detectable_effect")
        detect = fmt.percent(d) if d is not None else ("none" if "detectable_effect" in c and c.get("log_scale") else "—")
        if c.get("zero_spread"):
            detect += " (same ratio every round)"
        ratio = fmt.ratio_text(c["ratio"])
        if c["ratio"] is not None and (ci[0] is not None or ci[1] is not None):
            ratio += f" {fmt.interval(ci[0], ci[1], fmt.ratio_text)}"
        lines.append(
            f"| {c['variant']} vs {c['baseline']}{gated} | {c['metric']} | {ratio} | {change} | "
            f"{fmt.p_value(c['p_wilcoxon'])} ({fmt.p_value(c['p_wilcoxon_adjusted'])}) | {fmt.p_value(c['p_mann_whitney'])} | "
            f"{detect} | {verdict} |"
        )
    rest = len(comps) - len(chosen)
    if rest:
        lines += ["", f"{rest} more comparison(s) of other metrics of the sweep variants are in the results file "
                      f"(`scenarios[{sc.index - 1}].comparisons`)."]
    return lines + [""]


def direction(c: dict) -> str:
    """A comparison nothing gates: which way it moved, never whether that is good."""
    if c["verdict"] not in ("better", "worse") or c.get("ratio") is None:
        return "~"
    return "higher" if c["ratio"] > 1 else "lower"


def _steal(sc: ScenarioView) -> list[str]:
    """Time the hypervisor took from the samples' CPUs, per variant, as the harness summarised it
    (scenarios[].steal: run::summarise_steal, which also defines the share of the wall variance
    steal explains). Nothing for results written before perfgate recorded it."""
    lines = []
    for variant, st in sorted((sc.raw.get("steal") or {}).items()):
        flagged, n = st.get("flagged_samples", 0), st.get("samples", 0)
        if not n or (not st.get("steal_ms_max") and not flagged):
            continue  # nothing lost: nothing to say
        share = st.get("wall_variance_explained_by_steal")
        explained = "" if share is None else f"; steal explains {fmt.percent(share, 0)} of the wall variance"
        lines.append(f"- `{variant}`: steal mean {fmt.quantity(st['steal_ms_mean'], 'ms')}/sample (max "
                     f"{fmt.quantity(st['steal_ms_max'], 'ms')}), {flagged} of {n} samples flagged (> "
                     f"{fmt.percent(st.get('flag_share', 0.05), 0)} of wall lost to the hypervisor){explained}")
    if not lines:
        return []
    return ["**Steal.**", ""] + lines + [""]


_OUTCOME_WORDS = {"passed": "passed", "failed": "**FAILED**", "cannot tell": "**cannot tell**",
                  "undecided": "not evaluated"}


def _gates(sc: ScenarioView) -> list[str]:
    if not sc.gates:
        return ["### Gates", "", "No gate was evaluated.", ""]
    lines = ["### Gates", "", "| kind | gate | outcome | detail |", "|---|---|---|---|"]
    for g in sc.gates:
        outcome = _OUTCOME_WORDS[g["outcome"]]
        lines.append(f"| {g['kind']} | {fmt.cell(g['name'])} | {outcome} | {fmt.cell(g['detail'])} |")
    return lines + [""]


def _anchors(sc: ScenarioView) -> list[str]:
    anchors = sc.anchors()
    if not anchors:
        return []
    lines = ["### Against the write-up", "", "| anchor | metric | write-up | ours (this run) |", "|---|---|---|---|"]
    for a in anchors:
        theirs = f"{fmt.arrow(a.before, a.after, a.unit)} ({fmt.factor(a.ratio, a.better)})"
        if a.ours_before is None and a.ours_after is None:
            ours = "not measured in this run"
        else:
            ours = f"{fmt.arrow(a.ours_before, a.ours_after, a.unit)} (**{fmt.factor(a.ours_ratio, a.better)}**)"
        lines.append(f"| {fmt.cell(a.label or '—')} | `{a.metric}` | {theirs} | {ours} |")
    return lines + [""]


def _explain(sc: ScenarioView) -> list[str]:
    plans = [(v, sc.explain(v)) for v in sc.variants if sc.explain(v)]
    if not plans:
        return []
    lines = ["### Query plans (EXPLAIN)", "", "From the last measured sample of each variant (`extra.<variant>.explain`).", ""]
    for v, text in plans:
        body = text.rstrip().splitlines()
        cut = len(body) - EXPLAIN_LINES
        shown = body[:EXPLAIN_LINES]
        lines += [f"**{v}**", "", "```", *shown]
        if cut > 0:
            lines.append(f"… {cut} more line(s) in the results file")
        lines += ["```", ""]
    return lines


def _gbench(sc: ScenarioView) -> list[str]:
    g = (sc.raw.get("extra") or {}).get("gbench")
    if not isinstance(g, dict) or not isinstance(g.get("benchmarks"), list) or not g["benchmarks"]:
        return []
    lines = ["### Microbenchmarks (Google Benchmark)", "",
             f"`{fmt.cell(str(g.get('program', '')))}`, run once beside the samples; not gated.", "",
             "| benchmark | real time | CPU time | iterations |", "|---|--:|--:|--:|"]
    for b in g["benchmarks"]:
        if not isinstance(b, dict):
            continue
        unit = str(b.get("time_unit", "ns"))
        lines.append(f"| {fmt.cell(str(b.get('name', '')))} | {fmt.quantity(b.get('real_time'), unit)} | "
                     f"{fmt.quantity(b.get('cpu_time'), unit)} | {fmt.quantity(b.get('iterations'), 'count')} |")
    return lines + [""]


def is_warmup(e: dict) -> bool:
    text = f"{e.get('what', '')} {e.get('why', '')}".lower()
    return "warm-up" in text or "warmup" in text


def _excluded(sc: ScenarioView) -> list[str]:
    """What the harness left out, but the warm-up rounds the facts line already states."""
    listed = [e for e in sc.raw["excluded"] if not is_warmup(e)]
    if not listed:
        return []
    lines = ["### Excluded", "", "Left out of the figures above by the harness:", ""]
    for e in listed[:EXCLUDED_LIST]:
        lines.append(f"- {fmt.cell(str(e['what']))} — {fmt.cell(str(e['why']))}")
    if len(listed) > EXCLUDED_LIST:
        lines.append(f"- … and {len(listed) - EXCLUDED_LIST} more in `scenarios[{sc.index - 1}].excluded`")
    return lines + [""]
