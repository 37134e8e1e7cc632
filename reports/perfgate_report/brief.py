"""brief.md (`perfgate report --brief`): a run sized for a pull-request comment — the outcome in
one line, the picture (plots/00-summary.png), one line per scenario, every failed gate once,
and where the full report is. Under 60 lines for the bundled suite."""

from __future__ import annotations

import os
from pathlib import Path

from . import fmt
from .markdown import picture
from .model import RunView, ScenarioView
from .plots import Plot


def _verdict(sc: ScenarioView) -> str:
    if sc.error is not None and not sc.failed_gates:
        return "❌ could not run"
    failed = sc.failed_gates
    if failed:
        return "❌ " + ", ".join(g["kind"] for g in failed) + " failed"
    if open_ := sc.gates_with("cannot tell"):
        return "⚠️ cannot tell: " + ", ".join(sorted({g["kind"] for g in open_}))
    if undecided := sc.gates_with("undecided"):
        return "➖ " + ", ".join(sorted({g["kind"] for g in undecided})) + " not decided"
    return "✅ pass"


def _change(sc: ScenarioView) -> str:
    k = sc.key
    if k.ratio is None:
        return "—"
    interval = ""
    if k.ci and k.ci[0] is not None and k.ci[1] is not None:
        interval = " " + fmt.interval(k.ci[0], k.ci[1], fmt.ratio_text)
    return f"{fmt.factor(k.ratio, k.better)} ({fmt.ratio_text(k.ratio)}{interval})"


def _failure(sc: ScenarioView, g: dict) -> str:
    detail = g["detail"]
    prefix = f"{g['kind']} gate failed: "
    if detail.startswith(prefix):
        detail = detail[len(prefix):]
    return f"- **{sc.name}** {g['kind']} `{fmt.cell(g['name'])}`: {fmt.cell(detail)}"


def render_brief(run: RunView, plot: Plot | None, out_dir: Path, results_path: Path) -> str:
    o, r, h = run.outcome, run.run, run.host
    mark = "✅" if o["status"] == "passed" else "❌"
    commit = r["git"]["commit"]
    facts = [f"commit `{commit[:12]}`" + (" (dirty)" if r["git"]["dirty"] else ""), f"profile `{r['profile']}`",
             f"{h['cpu_model']}, {h['cores']} cores", f"load {(h.get('load_before') or [0])[0]:.2f}"]
    lines = [f"## perfgate: {mark} {o['status']} (exit {o['exit_code']})", "", " · ".join(facts), ""]
    if plot is not None:
        lines += [picture(plot, out_dir), ""]
    anchors = any(sc.anchors() for sc in run.scenarios)
    lines += ["| scenario | gated metric | before → after | change (ratio [95% CI]) |"
              + (" write-up |" if anchors else "") + " gates |",
              "|---|---|---|---|" + ("---|" if anchors else "") + "---|"]
    for sc in run.scenarios:
        k = sc.key
        writeup = ""
        if anchors:
            a = sc.headline_anchor()
            writeup = f" {fmt.factor(a.ratio, a.better) if a and a.metric == sc.primary else '—'} |"
        lines.append(f"| {sc.name} | `{sc.primary}` | {fmt.arrow(k.before, k.after, k.unit)} | {_change(sc)} |"
                     f"{writeup} {_verdict(sc)} |")
    failures = [_failure(sc, g) for sc in run.scenarios for g in sc.failed_gates]
    failures += [f"- **{sc.name}** could not run: {fmt.cell(str(sc.error.get('message', '')))}"
                 for sc in run.scenarios if sc.error is not None and not sc.failed_gates]
    if failures:
        lines += ["", "**Failures**", ""] + failures
    rel = os.path.relpath(results_path, out_dir).replace(os.sep, "/")
    lines += ["", f"Change: N times better (Nx) or the change in percent; write-up: the published factor on the gated "
                  f"metric. Everything else: `perfgate report {rel}` (report.md)."]
    return "\n".join(lines) + "\n"
