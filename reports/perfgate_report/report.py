"""One run: results.json -> report.md and plots/."""

from __future__ import annotations

from pathlib import Path

from . import markdown
from .load import load_results
from .model import RunView
from .output import staged
from .plots import render_all

REPORT_FILE = "report.md"
PLOTS_DIR = "plots"


def build_report(results_path: str | Path, out_dir: str | Path | None = None, *, plots: bool = True,
                 incomplete: list[str] = ()) -> Path:
    """Validates the results file (BadInput on any problem, before anything is written), then
    writes report.md and its plots into out_dir (default: the results file's folder).
    Returns the path of report.md."""
    results_path = Path(results_path)
    doc = load_results(results_path)
    out = Path(out_dir) if out_dir is not None else (results_path.parent if str(results_path.parent) else Path("."))
    run = RunView(doc, str(results_path))
    with staged(out, REPORT_FILE, owned=f"{PLOTS_DIR}/[0-9][0-9]-*.png") as tmp:
        drawn = {}
        for sc in run.scenarios:
            drawn[sc.name] = render_all(sc, tmp / PLOTS_DIR) if plots else []
        text = markdown.render(run, drawn, tmp, _results_seen_from(results_path, out, tmp))
        text = markdown.with_incomplete_banner(text, list(incomplete))
        (tmp / REPORT_FILE).write_text(text, encoding="utf-8")
    return out / REPORT_FILE


def _results_seen_from(results_path: Path, out: Path, tmp: Path) -> Path:
    """Where the results file is, as a path that is right once tmp becomes out."""
    import os

    rel = os.path.relpath(results_path.resolve(), out.resolve())
    return tmp / rel
