"""The report's closing part, "What this does not say": what was left out, what the CPU and
memory windows hold, how noisy the run was, which figures came from a weaker source, what is
not gated."""

from __future__ import annotations

from . import fmt
from .metrics import CPU_METRICS
from .model import RunView, ScenarioView
from .phrases import load_text


def _cpu_window(sc: ScenarioView) -> str:
    warm_text = "" if sc.warmup_samples else "; no warm-up round was run, so first-run effects (cold caches) are inside the samples"
    fx = sc.raw.get("fixture")
    seed_text = ""
    if isinstance(fx, dict):
        seeded = "reused from the cache" if fx.get("reused") else (
            f"seeded in {fmt.quantity(fx['seed_seconds'], 's')}" if fx.get("seed_seconds") is not None else "seeded")
        seed_text = f"; the fixture was {seeded} before the first sample, outside every window"
    if sc.kind == "service":
        return (f"**{sc.name}** (service): CPU, RSS and throughput are deltas over the measured phase only; server start-up, "
                f"seeding, warm-up and any agreement pass are outside the window{seed_text}{warm_text}.")
    who = "the command" if sc.kind == "ab" else "the one sample process"
    extra = ""
    if sc.kind == "batch":
        extra = (" CPU measured outside the client (a database server's own CPU) is only in the figures whose source says "
                 "`server-cgroup`.") if "postgres" in str((fx or {}).get("kind", "")) else ""
    return (f"**{sc.name}** ({sc.kind}): each CPU and RSS figure is the window of {who} and its children, from exec to exit "
            f"(start-up included){seed_text}{warm_text}.{extra}")


def does_not_say(run: RunView) -> str:
    lines = ["## What this does not say", ""]

    # exclusions
    lines += ["### What was left out", ""]
    any_excl = False
    warm = [sc.name for sc in run.scenarios if sc.warmup_samples]
    if warm:
        any_excl = True
        who = "every scenario" if len(warm) == len(run.scenarios) else ", ".join(warm)
        lines.append(f"- Warm-up rounds ({who}): run and left out of every figure; each section says how many.")
    for sc in run.scenarios:
        for e in sc.exclusions():
            if "warm-up" in e.what.lower() or "warm-up" in e.why.lower():
                continue
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
        load = f"{load_text(sc.raw.get('load_before'))} → {load_text(sc.raw.get('load_after'))}"
        if run.busy(sc.raw.get("load_before")) or run.busy(sc.raw.get("load_after")):
            load += " ⚠ busy"
        none = "—" if sc.spreads_recorded() else "not in this results file"
        lines.append(f"| {sc.name} | `{sc.primary}` | {', '.join(spreads) or none} | {load} |")
    h = run.host
    busy = run.busy(h.get("load_before")) or run.busy(h.get("load_after"))
    lines += ["", f"Whole run: load average {load_text(h.get('load_before'))} before, {load_text(h.get('load_after'))} after, "
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


    # sweeps and ungated
    ungated = [(sc.name, [v for v in sc.variants if v not in ("before", "after")]) for sc in run.scenarios]
    ungated = [(n, vs) for n, vs in ungated if vs]
    if ungated:
        lines += ["### Not gated", ""]
        lines += [f"- **{n}**: {', '.join(vs)} — reported and compared, never gated; their p-values are adjusted "
                  f"within the scenario only." for n, vs in ungated]
        lines.append("")
    return "\n".join(lines)
