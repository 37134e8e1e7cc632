"""report.md: the header, the summary table, a section per scenario, and what the run does
not say. Reads a RunView and the plots already drawn; writes nothing itself."""

from __future__ import annotations

import os
from datetime import datetime
from pathlib import Path

from . import fmt, parity, phases
from .model import CPU_METRICS, RUSAGE_NATIVE, RunView, ScenarioView
from .plots import Plot

VARIANT_COLUMNS = 5
EXPLAIN_LINES = 40
EXCLUDED_LIST = 20
FACTOR_NOTE = (
    "**Nx** is N times better (less of a lower-is-better metric, more of a higher-is-better one); "
    "a smaller improvement, or any regression, is the change of the metric itself in percent. "
    "Our ratio is the one the gates used: the median of the per-round paired ratios AFTER/BEFORE "
    "(`comparisons[]`), so it can differ a little from the ratio of the two medians shown."
)


def with_incomplete_banner(text: str, incomplete: list[str]) -> str:
    """`perfgate report` passes what keeps a file from vouching for itself (store/results_complete):
    said in large type under the title, since a reader skims past a table row."""
    if not incomplete:
        return text
    title, _, rest = text.partition("\n")
    banner = ["", "## ⚠ INCOMPLETE: this run cannot vouch for a gate", ""]
    banner += [f"> **{fmt.cell(why)}**" for why in incomplete]
    banner += ["", "`perfgate merge`, `history add` and `baseline update` refuse this file; what follows is what it holds.", ""]
    return title + "\n" + "\n".join(banner) + rest


def render(run: RunView, plots: dict[str, list[Plot]], out_dir: Path, results_path: Path) -> str:
    parts = [header(run, out_dir, results_path), summary(run)]
    for sc in run.scenarios:
        parts.append(section(sc, plots.get(sc.name, []), out_dir))
    parts.append(does_not_say(run))
    return "\n\n".join(p.rstrip() for p in parts if p) + "\n"


# --------------------------------------------------------------------------- header
def _when(run: dict) -> str:
    start, end = run.get("started_at"), run.get("finished_at")
    try:
        t0 = _parse_time(start)
    except (TypeError, ValueError):
        return f"{start} → {end or 'did not finish'}"
    text = t0.strftime("%Y-%m-%d %H:%M:%S %Z").strip()
    if not end:
        return text + " (did not finish)"
    try:
        t1 = _parse_time(end)
    except ValueError:
        return f"{text} → {end}"
    secs = int((t1 - t0).total_seconds())
    same_day = t1.date() == t0.date()
    text += " → " + t1.strftime("%H:%M:%S" if same_day else "%Y-%m-%d %H:%M:%S")
    return text + (f" ({secs // 60} min {secs % 60} s)" if secs >= 60 else f" ({secs} s)")


def _seed(r: dict) -> str:
    if r.get("seed") is not None:
        return f"seed {r['seed']}"
    return "seeds per shard: each scenario's reproduce line has its own"


def _parse_time(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def _load(load) -> str:
    if not isinstance(load, list) or not load:
        return "—"
    return " / ".join(f"{x:.2f}" for x in load)


def header(run: RunView, out_dir: Path, results_path: Path) -> str:
    r, h, o = run.run, run.host, run.outcome
    git = r["git"]
    commit = git["commit"]
    short = commit[:12] if commit != "unknown" else "unknown (not a git work tree)"
    dirty = "**dirty** (uncommitted changes: the figures are not of this commit alone)" if git["dirty"] else "clean"
    cg = h["cgroup"]
    mem = h.get("memory_kib")
    mem_text = f", {mem / 1048576:.1f} GiB" if isinstance(mem, (int, float)) else ""
    allowed = h.get("allowed_cpus")
    allowed_text = f" (allowed: {_ranges(allowed)})" if allowed else ""
    host = (
        f"`{h['fingerprint']}` — {h.get('hostname', '?')}, {h['cpu_model']}, {h['cores']} cores{allowed_text}, "
        f"kernel {h['kernel']}{mem_text}; cgroup {cg['layout']} (CPU from {cg['cpu_source']}, memory from {cg['memory_source']})"
    )
    busy = " — **busy**: a 1-minute load of half the cores or more" if run.busy(h.get("load_before")) or run.busy(h.get("load_after")) else ""
    load = f"before {_load(h.get('load_before'))}, after {_load(h.get('load_after'))}{busy}"
    opts = run.options
    rr = run.rounds_range()
    rounds = "—"
    if rr:
        rounds = f"{rr[0]}" if rr[0] == rr[1] else f"{rr[0]}–{rr[1]}"
        rounds += " measured rounds per scenario (`stop.rounds`)"
    if opts:
        bits = []
        if "warmup" in opts:
            bits.append(f"{opts['warmup']} warm-up")
        if "min_rounds" in opts or "max_rounds" in opts:
            bits.append(f"min {opts.get('min_rounds', '?')}, max {opts.get('max_rounds', '?')}")
        if "alpha" in opts:
            bits.append(f"α {opts['alpha']}")
        if "noise" in opts:
            bits.append(f"noise band ±{fmt.num(float(opts['noise']) * 100)}%")
        if bits:
            rounds += "; " + "; ".join(bits)
    status = o["status"]
    message = o.get("message", "")
    outcome = f"**{status}** (exit {o['exit_code']})" + (f": {message}" if message and message != status else "")
    rel = os.path.relpath(results_path, out_dir).replace(os.sep, "/")
    rows = [
        ("outcome", outcome),
        ("when", _when(r)),
        ("commit", f"`{short}`, {dirty}"),
        ("host", host),
        ("load average (1 / 5 / 15 min)", load),
        ("profile", f"{r['profile']} ({_seed(r)})"),
        ("rounds", rounds),
        ("stopped", r["stop_reason"]),
        ("command", f"`{fmt.cell(' '.join(r['command_line']))}`"),
        ("results", f"[`{rel}`]({rel}) — every figure below is traced to its raw samples there"),
    ]
    if r.get("perfgate_version"):
        rows.insert(2, ("perfgate", r["perfgate_version"]))
    lines = [f"# perfgate report — run {r['id']}", "", "| | |", "|---|---|"]
    lines += [f"| {k} | {v} |" for k, v in rows]
    if status in ("running", "interrupted", "error") or r["stop_reason"] in ("interrupted", "error"):
        lines += ["", f"**This run did not complete** (status {status}, stopped: {r['stop_reason']}): the report covers "
                      "what finished before it stopped."]
    failures = [f for f in o.get("failures") or [] if f.strip() != message.strip()]
    if failures:
        lines += ["", "Failures:", ""] + [f"- {fmt.cell(f)}" for f in failures]
    return "\n".join(lines)


def _ranges(cpus: list[int]) -> str:
    cpus = sorted(set(cpus))
    out, start = [], None
    for i, c in enumerate(cpus):
        if start is None:
            start = c
        if i + 1 == len(cpus) or cpus[i + 1] != c + 1:
            out.append(f"{start}" if start == c else f"{start}-{c}")
            start = None
    return ",".join(out)


# --------------------------------------------------------------------------- summary
def anchor_id(sc: ScenarioView) -> str:
    return f"s{sc.index}-{sc.name}".lower()


def key_text(sc: ScenarioView, bold: bool = True) -> str:
    k = sc.key
    if k.before is None and k.after is None:
        return "—"
    arrow = f"{fmt.num(k.before, k.unit)} → {fmt.with_unit(fmt.num(k.after, k.unit), k.unit)}"
    f = fmt.factor(k.ratio, k.better)
    return f"{arrow} ({'**' + f + '**' if bold else f})"


def anchor_text(sc: ScenarioView, with_ours: bool) -> str:
    a = sc.headline_anchor()
    if a is None:
        return "—"
    text = f"{fmt.num(a.before, a.unit)} → {fmt.with_unit(fmt.num(a.after, a.unit), a.unit)} ({fmt.factor(a.ratio, a.better)})"
    if a.label:
        text = f"{a.label}: {text}"
    if a.metric != sc.primary:
        text = f"`{a.metric}` " + text
        if with_ours:
            if a.ours_before is not None or a.ours_after is not None:
                text += (f"; ours {fmt.num(a.ours_before, a.unit)} → {fmt.with_unit(fmt.num(a.ours_after, a.unit), a.unit)} "
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
    """A "no significant change" is never shown without its resolution."""
    r = resolution(c)
    return f"{verdict} ({r})" if r and verdict == "no significant change" else verdict


def verdict_text(sc: ScenarioView) -> str:
    if sc.error is not None:
        return f"**error**: {fmt.cell(str(sc.error.get('message', 'could not be run')))}"
    parts = []
    v = sc.key.verdict
    if v is not None:
        v = with_resolution(v, sc.comparison("after", sc.primary, "before"))
        parts.append(f"**{v}**" if v == "worse" else v)
    else:
        parts.append("no comparison")
    failed = sc.failed_gates
    gates = sc.gates
    if failed:
        parts.append("**FAILED** " + ", ".join(f"{g['kind']} `{g['name']}`" for g in failed))
    elif gates:
        unknown = [g for g in gates if g["passed"] is None]
        text = f"{len(gates) - len(unknown)}/{len(gates)} gates passed, {len(unknown)} not evaluated" if unknown else f"{len(gates)}/{len(gates)} gates passed"
        parts.append(text)
    return "; ".join(parts)


def summary(run: RunView) -> str:
    lines = [
        "## Summary",
        "",
        "| # | scenario | key metric | before → after | write-up (anchor) | verdict |",
        "|--:|---|---|---|---|---|",
    ]
    for sc in run.scenarios:
        lines.append(
            f"| {sc.index} | [{fmt.cell(sc.title)}](#{anchor_id(sc)}) | `{sc.primary}` | {key_text(sc)} | "
            f"{fmt.cell(anchor_text(sc, True))} | {verdict_text(sc)} |"
        )
    if not run.scenarios:
        lines.append("| — | no scenario started | | | | |")
    lines += ["", FACTOR_NOTE]
    if run.run["profile"] != "full" and any(sc.anchors() for sc in run.scenarios):
        lines += ["", f"The write-ups measured at their own sizes (profile `full`); this run is `{run.run['profile']}`, "
                      "so compare ratios with the anchors, not absolute figures."]
    return "\n".join(lines)


# --------------------------------------------------------------------------- per scenario
def section(sc: ScenarioView, plots: list[Plot], out_dir: Path) -> str:
    lines = [f'<a id="{anchor_id(sc)}"></a>', "", f"## {sc.index}. {sc.title} (`{sc.name}`)", ""]
    facts = [f"source: {sc.raw.get('source') or '—'}", f"kind: {sc.kind}", f"profile: {sc.raw['profile']}",
             f"policy: {sc.raw['policy']}"]
    stop = sc.stop
    wr = sc.warmup_rounds
    warm = f" after {len(wr)} warm-up round(s) ({len(sc.warmup_samples)} samples, excluded)" if wr else ", no warm-up"
    facts.append(f"{stop['rounds']} measured rounds{warm}; stopped: {stop['reason']}")
    fx = sc.raw.get("fixture")
    if isinstance(fx, dict):
        seed = fx.get("seed_seconds")
        facts.append(
            f"fixture: {fx.get('kind', '?')} `{str(fx.get('digest', ''))[:12]}`"
            + (" (reused)" if fx.get("reused") else (f" (seeded in {fmt.num(seed)} s)" if seed is not None else ""))
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
            ci = f", ratio {fmt.ratio_text(k.ratio)} (of the medians: no comparison recorded)"
        verdict = f": **{with_resolution(k.verdict, sc.comparison('after', k.metric, 'before'))}**" if k.verdict else ""
        lines += [f"**Result.** `{k.metric}` {key_text(sc)}{ci}{verdict}. Write-up: {anchor_text(sc, False)}.", ""]
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
    lines = ["### Measurements", "",
             "Median of the measured (non-warm-up) samples, with a 95% distribution-free interval of the median "
             "(order statistics; below 6 samples the interval is [min, max] and covers less). "
             "⚠ marks a figure from rusage, a weaker source (see *What this does not say*).", ""]
    for start in range(0, len(variants), VARIANT_COLUMNS):
        chunk = variants[start:start + VARIANT_COLUMNS]
        head = " | ".join(f"{v} (n={n_by_variant[v]})" for v in chunk)
        lines += [f"| metric | unit | {head} | source |", "|---|---|" + "---:|" * len(chunk) + "---|"]
        for m in metrics:
            cells = []
            for v in chunk:
                med = sc.median(v, m)
                if med is None:
                    cells.append("—")
                    continue
                ci = sc.median_interval(v, m)
                unit = sc.unit(m)
                text = fmt.num(med, unit)
                if ci is not None and not (ci[0] == ci[1] == med):
                    text += f" {fmt.interval(ci[0], ci[1], lambda x: fmt.num(x, unit))}"
                if v == "after" and m == sc.primary:
                    text = f"**{text}**"
                cells.append(text)
            name = f"**{m}**" if m == sc.primary else m
            better = "↓" if sc.better(m) == "lower" else "↑"
            lines.append(f"| {name} {better} | {sc.unit(m) or ''} | {' | '.join(cells)} | {_source_text(sc, m)} |")
        lines.append("")
    lines += ["↓ lower is better, ↑ higher is better; **bold**: the gated metric.", ""]
    return lines


def _series_table(sc: ScenarioView) -> list[str]:
    from . import stats

    names = sc.series_names()
    rows = []
    for name in names:
        for v in sc.variants:
            ser = sc.series(v).get(name)
            vals = sc.series_values(v, name)
            if not vals or (isinstance(ser, dict) and isinstance(ser.get("x"), list)):
                continue
            unit = ser.get("unit", "") if isinstance(ser, dict) else ""
            rows.append(
                f"| {name} | {v} | {unit} | {len(vals)} | {fmt.num(stats.percentile(vals, 50), unit)} | "
                f"{fmt.num(stats.percentile(vals, 90), unit)} | {fmt.num(stats.percentile(vals, 99), unit)} | "
                f"{fmt.num(max(vals), unit)} |"
            )
    if not rows:
        return []
    return ["### Distributions", "",
            "Values the program recorded as a series in its last measured sample (one figure per page, request, …).",
            "", "| series | variant | unit | n | p50 | p90 | p99 | max |", "|---|---|---|--:|--:|--:|--:|--:|", *rows, ""]


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
             "its corrected α, noise band included.", "",
             "| variant vs baseline | metric | ratio [CI] | change | p Wilcoxon (Holm) | p Mann–Whitney | detectable | verdict |",
             "|---|---|---|---|---|---|---|---|"]
    for c in chosen:
        ci = c.get("ci") or [None, None]
        better = c.get("better") or sc.better(c["metric"])
        gated = " (gated)" if c["gated"] else ""
        verdict = f"**{with_resolution(c['verdict'], c)}**" if c["gated"] else with_resolution(c["verdict"], c)
        d = c.get("detectable_effect")
        detect = fmt.percent(d) if d is not None else ("none" if "detectable_effect" in c and c.get("log_scale") else "—")
        if c.get("zero_spread"):
            detect += " (same ratio every round)"
        ratio = fmt.ratio_text(c["ratio"])
        if c["ratio"] is not None and (ci[0] is not None or ci[1] is not None):
            ratio += f" {fmt.interval(ci[0], ci[1], fmt.ratio_text)}"
        lines.append(
            f"| {c['variant']} vs {c['baseline']}{gated} | {c['metric']} | {ratio} | {fmt.factor(c['ratio'], better)} | "
            f"{fmt.p_value(c['p_wilcoxon'])} ({fmt.p_value(c['p_wilcoxon_adjusted'])}) | {fmt.p_value(c['p_mann_whitney'])} | "
            f"{detect} | {verdict} |"
        )
    rest = len(comps) - len(chosen)
    if rest:
        lines += ["", f"{rest} more comparison(s) of other metrics of the sweep variants are in the results file "
                      f"(`scenarios[{sc.index - 1}].comparisons`)."]
    return lines + [""]


def _steal(sc: ScenarioView) -> list[str]:
    """Time the hypervisor took from the samples' CPUs (samples[].steal_ms, read from /proc/stat),
    per variant, and how much of the wall-time variance it accounts for. Nothing for results
    written before perfgate recorded it."""
    lines = []
    for variant in sorted({s["variant"] for s in sc.raw.get("samples", [])}):
        rows = [s for s in sc.raw["samples"] if s["variant"] == variant and not s.get("warmup") and "steal_ms" in s]
        if not rows:
            continue
        steal = [float(s["steal_ms"]) for s in rows]
        flagged = sum(1 for s in rows if s.get("steal_flagged"))
        wall = [s.get("metrics", {}).get("wall_ms", {}).get("value") for s in rows]
        explained = ""
        if all(w is not None for w in wall) and len(rows) >= 3:
            r2 = _r_squared(steal, [float(w) for w in wall])
            if r2 is not None:
                explained = f"; steal explains {fmt.percent(r2, 0)} of the wall variance"
        lines.append(f"- `{variant}`: steal mean {fmt.num(sum(steal) / len(steal))} ms/sample (max {fmt.num(max(steal))}), "
                     f"{flagged} of {len(rows)} samples flagged (> 5% of wall lost to the hypervisor){explained}")
    if not lines:
        return []
    return ["**Steal.**", ""] + lines + [""]


def _r_squared(x: list[float], y: list[float]) -> float | None:
    n = len(x)
    mx, my = sum(x) / n, sum(y) / n
    sxx = sum((a - mx) ** 2 for a in x)
    syy = sum((b - my) ** 2 for b in y)
    if sxx == 0 or syy == 0:
        return None
    sxy = sum((a - mx) * (b - my) for a, b in zip(x, y))
    return sxy * sxy / (sxx * syy)


def _gates(sc: ScenarioView) -> list[str]:
    if not sc.gates:
        return ["### Gates", "", "No gate was evaluated.", ""]
    lines = ["### Gates", "", "| kind | gate | outcome | detail |", "|---|---|---|---|"]
    for g in sc.gates:
        outcome = "passed" if g["passed"] is True else "**FAILED**" if g["passed"] is False else "not evaluated"
        lines.append(f"| {g['kind']} | {fmt.cell(g['name'])} | {outcome} | {fmt.cell(g['detail'])} |")
    return lines + [""]


def _anchors(sc: ScenarioView) -> list[str]:
    anchors = sc.anchors()
    if not anchors:
        return []
    lines = ["### Against the write-up", "", "| anchor | metric | write-up | ours (this run) |", "|---|---|---|---|"]
    for a in anchors:
        theirs = f"{fmt.num(a.before, a.unit)} → {fmt.with_unit(fmt.num(a.after, a.unit), a.unit)} ({fmt.factor(a.ratio, a.better)})"
        if a.ours_before is None and a.ours_after is None:
            ours = "not measured in this run"
        else:
            ours = f"{fmt.num(a.ours_before, a.unit)} → {fmt.with_unit(fmt.num(a.ours_after, a.unit), a.unit)} (**{fmt.factor(a.ours_ratio, a.better)}**)"
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
        lines.append(f"| {fmt.cell(str(b.get('name', '')))} | {fmt.with_unit(fmt.num(b.get('real_time'), unit), unit)} | "
                     f"{fmt.with_unit(fmt.num(b.get('cpu_time'), unit), unit)} | {fmt.num(b.get('iterations'))} |")
    return lines + [""]


def _excluded(sc: ScenarioView) -> list[str]:
    listed = sc.raw["excluded"]
    if not listed:
        return []
    lines = ["### Excluded", "", "Left out of the figures above by the harness:", ""]
    for e in listed[:EXCLUDED_LIST]:
        lines.append(f"- {fmt.cell(str(e['what']))} — {fmt.cell(str(e['why']))}")
    if len(listed) > EXCLUDED_LIST:
        lines.append(f"- … and {len(listed) - EXCLUDED_LIST} more in `scenarios[{sc.index - 1}].excluded`")
    return lines + [""]


# --------------------------------------------------------------------------- caveats
def _cpu_window(sc: ScenarioView) -> str:
    warm = len(sc.warmup_samples)
    warm_text = (f"{warm} warm-up sample(s) were run and are in no summary" if warm
                 else "no warm-up round was run, so first-run effects (cold caches) are inside the samples")
    fx = sc.raw.get("fixture")
    if isinstance(fx, dict):
        seeded = "reused from the cache" if fx.get("reused") else (
            f"seeded in {fmt.num(fx['seed_seconds'])} s" if fx.get("seed_seconds") is not None else "seeded")
        seed_text = f"the fixture was {seeded} before the first sample, outside every window"
    else:
        seed_text = "there is no fixture to seed"
    if sc.kind == "service":
        return (f"**{sc.name}** (service): CPU, RSS and throughput are deltas over the measured phase only; server start-up, "
                f"seeding, warm-up and any agreement pass are outside the window; {seed_text}; {warm_text}.")
    who = "the command" if sc.kind == "ab" else "the one sample process"
    extra = ""
    if sc.kind == "batch":
        extra = (" CPU measured outside the client (a database server's own CPU) is only in the figures whose source says "
                 "`server-cgroup`.") if "postgres" in str((fx or {}).get("kind", "")) else ""
    return (f"**{sc.name}** ({sc.kind}): each CPU and RSS figure is the window of {who} and its children, from exec to exit "
            f"(start-up included); {seed_text}; {warm_text}.{extra}")


def does_not_say(run: RunView) -> str:
    lines = ["## What this does not say", ""]

    # exclusions
    lines += ["### What was left out", ""]
    any_excl = False
    for sc in run.scenarios:
        for e in sc.exclusions():
            any_excl = True
            tag = "" if not e.derived else " *(from the samples)*"
            lines.append(f"- **{sc.name}**: {fmt.cell(e.what)} — {fmt.cell(e.why)}{tag}")
        if sc.error is not None:
            any_excl = True
            lines.append(f"- **{sc.name}**: the whole scenario — {fmt.cell(str(sc.error.get('message', 'could not be run')))}")
    if not any_excl:
        lines.append("- Nothing was excluded.")
    lines.append("")

    # CPU windows
    lines += ["### What the CPU and memory windows hold", ""]
    lines += [f"- {_cpu_window(sc)}" for sc in run.scenarios] or ["- No scenario ran."]
    lines.append("")

    # noise
    band = run.noise_band
    lines += ["### How noisy the run was", "",
              f"Spread is MAD / median of the gated metric over the measured samples of each variant; ⚠ marks a spread "
              f"wider than the ±{fmt.num(band * 100)}% noise band, where a change of that size cannot be told from noise.",
              "", "| scenario | metric | MAD / median per variant | load average before → after (1 / 5 / 15 min) |",
              "|---|---|---|---|"]
    for sc in run.scenarios:
        spreads = []
        for v in sc.variants:
            s = sc.spread(v, sc.primary)
            if s is None:
                continue
            mark = " ⚠" if s > band else ""
            spreads.append(f"{v} {fmt.percent(s)}{mark}")
        load = f"{_load(sc.raw.get('load_before'))} → {_load(sc.raw.get('load_after'))}"
        if run.busy(sc.raw.get("load_before")) or run.busy(sc.raw.get("load_after")):
            load += " ⚠ busy"
        lines.append(f"| {sc.name} | `{sc.primary}` | {', '.join(spreads) or '—'} | {load} |")
    h = run.host
    busy = run.busy(h.get("load_before")) or run.busy(h.get("load_after"))
    lines += ["", f"Whole run: load average {_load(h.get('load_before'))} before, {_load(h.get('load_after'))} after, "
                  f"on {h['cores']} cores" + (" — **the machine was busy**: other work shared it while we measured." if busy else ".")]
    lines.append("")

    # fallbacks
    lines += ["### Figures from a weaker source", ""]
    fb_lines = []
    for f in run.host_fallbacks():
        why = f" ({f.why})" if f.why else ""
        fb_lines.append(f"- **host**: {f.metric} from `{f.source}` for every sample: no usable cgroup{why}.")
    for sc in run.scenarios:
        by_source: dict[tuple[str, str, tuple[str, ...]], list[str]] = {}
        for f in sc.fallbacks():
            what = "CPU" if f.metric in CPU_METRICS else "memory" if f.metric.startswith("peak_rss") else "figures"
            by_source.setdefault((what, f.source, tuple(f.variants)), []).append(f.metric + (f" ({f.why})" if f.why else ""))
        for (what, source, variants), metrics in by_source.items():
            consequence = {
                "CPU": "rusage counts only the reaped process and its waited-for children, not everything in the sample's cgroup",
                "memory": "ru_maxrss is the largest single process, not the sum over the sample's processes",
            }.get(what, "not from a cgroup")
            fb_lines.append(f"- **{sc.name}**: {', '.join(metrics)} from `{source}` for {', '.join(variants)} — {consequence}.")
        for m, sources in sc.mixed_sources().items():
            fb_lines.append(f"- **{sc.name}**: `{m}` mixes sources across samples: {', '.join(sources)}.")
    if fb_lines:
        lines += fb_lines
    else:
        cg = h["cgroup"]
        lines.append(f"- None: CPU from {cg['cpu_source']}, memory from {cg['memory_source']}, for every sample.")
    lines.append("")

    # notes
    notes = [(sc.name, n) for sc in run.scenarios for n in sc.raw.get("notes") or []]
    if notes:
        lines += ["### Notes from the harness", ""] + [f"- **{name}**: {n}" for name, n in notes] + [""]

    # sweeps and ungated
    ungated = [(sc.name, [v for v in sc.variants if v not in ("before", "after")]) for sc in run.scenarios]
    ungated = [(n, vs) for n, vs in ungated if vs]
    if ungated:
        lines += ["### Not gated", ""]
        lines += [f"- **{n}**: {', '.join(vs)} — reported and compared, never gated; their p-values are adjusted "
                  f"within the scenario only." for n, vs in ungated]
        lines.append("")
    return "\n".join(lines)
