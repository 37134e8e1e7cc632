"""`perfgate report --history HISTORY.json`: history.md and its plot from the JSON that
`perfgate history show SCENARIO [METRIC] --json FILE` writes."""

from __future__ import annotations

import json
from pathlib import Path

from .errors import BadInput
from .output import staged

REQUIRED = ("scenario", "metric", "points", "change_points")


def load_history(path: str) -> dict:
    try:
        doc = json.loads(Path(path).read_text())
    except OSError as e:
        raise BadInput(path, None, f"cannot read: {e.strerror}") from e
    except json.JSONDecodeError as e:
        raise BadInput(path, None, f"not JSON: {e.msg} at line {e.lineno}") from e
    if not isinstance(doc, dict):
        raise BadInput(path, None, "not a history document (perfgate history show --json)")
    for field in REQUIRED:
        if field not in doc:
            raise BadInput(path, field, "missing")
    for i, p in enumerate(doc["points"]):
        for field in ("value", "commit"):
            if field not in p:
                raise BadInput(path, f"points[{i}].{field}", "missing")
    if not doc["points"]:
        raise BadInput(path, "points", "empty")
    return doc


def step_percent(change_point: dict) -> float:
    """A change point's step in percent, as `history show` printed it (`change_pct`). A file
    written by a perfgate from before the field has only the ratio `change`: read off it here,
    the one place, for the table and the plot alike."""
    if isinstance(change_point.get("change_pct"), (int, float)):
        return float(change_point["change_pct"])
    return (change_point["change"] - 1) * 100


def build_history(path: str, out: str | None, plots: bool = True) -> Path:
    hist = load_history(path)
    out_dir = Path(out) if out else Path(path).resolve().parent
    with staged(out_dir, "history.md", owned="plots/history-*.png") as tmp:
        lines = [f"# {hist['scenario']}: {hist['metric']} over {len(hist['points'])} runs", ""]
        if plots:
            from .plots import history as history_plot

            plot = history_plot.make(hist, tmp / "plots")
            lines += [f"![{plot.title}]({plot.rel(tmp)})", "", plot.caption, ""]
        lines += ["| # | started | commit | value |", "|--:|---|---|---|"]
        steps = {c["index"]: c for c in hist["change_points"]}
        for i, p in enumerate(hist["points"]):
            mark = f" ◀ step {step_percent(steps[i]):+.1f}%" if i in steps else ""
            lines.append(f"| {i + 1} | {p.get('started_at', '')} | `{p['commit'][:12]}`{'+' if p.get('dirty') else ''} "
                         f"| {p['value']:.4g}{mark} |")
        (tmp / "history.md").write_text("\n".join(lines) + "\n")
    return out_dir / "history.md"
