"""`perfgate report BISECT.json`: bisect.md and its plot from the file `perfgate bisect` writes
(kind "bisect"): the answer, every tested commit's ratio against good with its interval, and
the build failures and the behaviour change it met."""

from __future__ import annotations

import json
from pathlib import Path

from .errors import BadInput
from .output import staged

REQUIRED = ("good", "bad", "commits", "steps", "answer", "metric", "band", "alpha")


def is_bisect(path: str) -> bool:
    try:
        doc = json.loads(Path(path).read_text())
    except (OSError, json.JSONDecodeError):
        return False
    return isinstance(doc, dict) and doc.get("kind") == "bisect"


def load_bisect(path: str) -> dict:
    doc = json.loads(Path(path).read_text())
    b = doc.get("bisect")
    if not isinstance(b, dict):
        raise BadInput(path, "bisect", "missing")
    for field in REQUIRED:
        if field not in b:
            raise BadInput(path, f"bisect.{field}", "missing")
    for i, s in enumerate(b["steps"]):
        for field in ("index", "sha", "verdict"):
            if field not in s:
                raise BadInput(path, f"bisect.steps[{i}].{field}", "missing")
    return b


def _answer(b: dict) -> str:
    by_sha = {c["sha"]: c for c in b["commits"]}
    step = {s["sha"]: s for s in b["steps"]}

    def name(sha: str) -> str:
        return f"`{sha[:12]}` {by_sha.get(sha, {}).get('subject', '')}"

    if b.get("first_slower") and len(b.get("candidates", [])) <= 1:
        s = step.get(b["first_slower"], {})
        ratio = f" (ratio {s['ratio']:.3f}x [{s['ci'][0]:.3f}, {s['ci'][1]:.3f}] against `{b['good'][:12]}`)" \
            if s.get("ratio") else ""
        return f"**first slower commit: {name(b['first_slower'])}**{ratio}"
    if b.get("candidates"):
        return "**the first slower commit is one of:** " + ", ".join(name(c) for c in b["candidates"])
    if b["answer"] == "bad not slower":
        return f"**no slower commit in the range**: `{b['bad'][:12]}` is not slower than `{b['good'][:12]}`"
    if b["answer"] == "cannot tell":
        return "**cannot tell** whether bad is slower than good within the step budget: no commit is named"
    return "**no slower commit before the behaviour change**"


def build_bisect(path: str, out: str | None, plots: bool = True) -> Path:
    b = load_bisect(path)
    out_dir = Path(out) if out else Path(path).resolve().parent
    with staged(out_dir, "bisect.md", owned="plots/bisect-*.png") as tmp:
        n = len(b["commits"]) - 1
        lines = [f"# bisect: {b['metric']} from `{b['good'][:12]}` (good) to `{b['bad'][:12]}` (bad)", "",
                 _answer(b), ""]
        if b.get("changed_behaviour_at"):
            lines += [f"Changed behaviour at `{b['changed_behaviour_at'][:12]}`: its output differs from the good "
                      "commit's, and no slowdown is attributed at or after it.", ""]
        lines += [f"{n} commits on the first-parent path; {len(b['steps'])} timed; a commit is slower when its "
                  f"interval lies above +{b['band'] * 100:g}% against good. The whole search attributes a slowdown "
                  f"falsely with probability at most {b['alpha']:g} ({b.get('alpha_rule', '')}).", ""]
        if plots and b["steps"]:
            from .plots import bisect as bisect_plot

            plot = bisect_plot.make(b, tmp / "plots")
            lines += [f"![{plot.title}]({plot.rel(tmp)})", "", plot.caption, ""]
        lines += ["| # | commit | subject | verdict | ratio vs good | interval | rounds | level |",
                  "|--:|---|---|---|--:|---|--:|--:|"]
        tested = {s["index"]: s for s in b["steps"]}
        for c in b["commits"]:
            s = tested.get(c["index"])
            if c["index"] == 0:
                lines.append(f"| 0 | `{c['sha'][:12]}` | {c['subject']} | good | 1 | | | |")
            elif s:
                ratio = f"{s['ratio']:.3f}x" if s.get("ratio") else "—"
                ci = f"[{s['ci'][0]:.3f}, {s['ci'][1]:.3f}]" if s.get("ci") else ""
                lines.append(f"| {c['index']} | `{c['sha'][:12]}` | {c['subject']} | {s['verdict']} | {ratio} | {ci} "
                             f"| {s.get('rounds', '')} | {s.get('alpha', 0):.2g} |")
        for sha, why in sorted(b.get("build_failures", {}).items()):
            lines.append(f"\nSkipped `{sha[:12]}`: the build failed, {why}")
        (tmp / "bisect.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return out_dir / "bisect.md"
