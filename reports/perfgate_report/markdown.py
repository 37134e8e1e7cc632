"""report.md: the header, the summary table, a section per scenario, and what the run does
not say. Reads a RunView and the plots already drawn; writes nothing itself."""

from __future__ import annotations

import os
from datetime import datetime
from pathlib import Path

from . import fmt
from .caveats import does_not_say
from .model import RunView, ScenarioView
from .phrases import anchor_id, anchor_text, key_text, load_text, with_resolution
from .plots import Plot
from .sections import section

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


def picture(plot: Plot | None, out_dir: Path) -> str:
    """The run as one picture (plots/summary.py), first thing under the title."""
    if plot is None:
        return ""
    return f"![{fmt.cell(plot.title)}]({plot.rel(out_dir)})\n\n*{plot.caption}*"


def render(run: RunView, plots: dict[str, list[Plot]], out_dir: Path, results_path: Path,
           summary_plot: Plot | None = None) -> str:
    title, _, rest = header(run, out_dir, results_path).partition("\n")
    parts = [title, picture(summary_plot, out_dir), rest.strip(), summary(run)]
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
    load = f"before {load_text(h.get('load_before'))}, after {load_text(h.get('load_after'))}{busy}"
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
def verdict_text(sc: ScenarioView) -> str:
    if sc.error is not None:
        return f"**error**: {fmt.cell(str(sc.error.get('message', 'could not be run')))}"
    parts = []
    v = sc.key.verdict
    if len(sc.gated) > 1:  # a Google Benchmark scenario: one verdict per benchmark, counted
        parts.append(benchmark_counts(sc.gated))
    elif v is not None:
        v = with_resolution(v, sc.comparison("after", sc.primary, "before"))
        parts.append(f"**{v}**" if v == "worse" else v)
    else:
        parts.append("no comparison")
    failed = sc.failed_gates
    gates = sc.gates
    if failed:
        parts.append("**FAILED** " + ", ".join(f"{g['kind']} `{g['name']}`" for g in failed))
    elif gates:
        unknown = sc.gates_with("undecided")
        open_ = sc.gates_with("cannot tell")
        passed = len(sc.gates_with("passed"))
        text = f"{passed}/{len(gates)} gates passed"
        if open_:
            text += f", **{len(open_)} cannot tell**"
        if unknown:
            text += f", {len(unknown)} not evaluated"
        parts.append(text)
    return "; ".join(parts)


def benchmark_counts(gated: list[dict]) -> str:
    """'**1 of 5 benchmarks worse** (`BM_X:cpu_time`), 1 better, 3 the same'."""
    by: dict[str, list[str]] = {}
    for c in gated:
        by.setdefault(c["verdict"], []).append(c["metric"])
    worse = by.get("worse", [])
    parts = [f"**{len(worse)} of {len(gated)} benchmarks worse** ({', '.join(f'`{m}`' for m in worse)})"] if worse \
        else [f"{len(gated)} benchmarks, none worse"]
    if by.get("better"):
        parts.append(f"{len(by['better'])} better")
    if by.get("the same"):
        parts.append(f"{len(by['the same'])} the same")
    if by.get("not worse"):
        parts.append(f"{len(by['not worse'])} not worse")
    undecided = by.get("cannot tell", []) + by.get("no significant change", [])
    if undecided:
        parts.append(f"**{len(undecided)} cannot tell**")
    return ", ".join(parts)


def summary(run: RunView) -> str:
    anchors = any(sc.anchors() for sc in run.scenarios)  # a column only where some scenario has a write-up
    lines = [
        "## Summary",
        "",
        "| # | scenario | key metric | before → after |" + (" write-up (anchor) |" if anchors else "") + " verdict |",
        "|--:|---|---|---|" + ("---|" if anchors else "") + "---|",
    ]
    for sc in run.scenarios:
        writeup = f" {fmt.cell(anchor_text(sc, True))} |" if anchors else ""
        metric = f"`{sc.key.metric}` (the worst of {len(sc.gated)})" if len(sc.gated) > 1 else f"`{sc.primary}`"
        lines.append(f"| {sc.index} | [{fmt.cell(sc.title)}](#{anchor_id(sc)}) | {metric} | {key_text(sc)} |"
                     f"{writeup} {verdict_text(sc)} |")
    if not run.scenarios:
        lines.append("| — | no scenario started | | |" + (" |" if anchors else "") + " |")
    lines += ["", FACTOR_NOTE]
    if run.run["profile"] != "full" and any(sc.anchors() for sc in run.scenarios):
        lines += ["", f"The write-ups measured at their own sizes (profile `full`); this run is `{run.run['profile']}`, "
                      "so compare ratios with the anchors, not absolute figures."]
    return "\n".join(lines)
