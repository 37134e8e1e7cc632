"""One run: results.json -> report.md and plots/."""

from __future__ import annotations

from pathlib import Path

from . import markdown
from .load import load_results
from .model import RunView
from .output import staged
from .plots import parameter_family, render_all
from .plots import summary as summary_plot

REPORT_FILE = "report.md"
BRIEF_FILE = "brief.md"
PLOTS_DIR = "plots"


def build_report(results_path: str | Path, out_dir: str | Path | None = None, *, plots: bool = True,
                 incomplete: list[str] = (), brief: bool = False) -> Path:
    """Validates the results file (BadInput on any problem, before anything is written), then
    writes report.md and its plots into out_dir (default: the results file's folder); `brief`:
    brief.md (brief.py) and the summary plot alone. Returns the path of the markdown file."""
    results_path = Path(results_path)
    doc = load_results(results_path)
    out = Path(out_dir) if out_dir is not None else (results_path.parent if str(results_path.parent) else Path("."))
    run = RunView(doc, str(results_path))
    main_file = BRIEF_FILE if brief else REPORT_FILE
    # A brief report leaves the full report's plots where they are (it draws only the summary).
    with staged(out, main_file, owned=None if brief else f"{PLOTS_DIR}/[0-9][0-9]-*.png") as tmp:
        picture = (summary_plot.make(run, tmp / PLOTS_DIR) or [None])[0] if plots else None
        results_seen = _results_seen_from(results_path, out, tmp)
        if brief:
            from .brief import render_brief

            text = render_brief(run, picture, tmp, results_seen)
        else:
            drawn = {sc.name: render_all(sc, tmp / PLOTS_DIR) if plots else [] for sc in run.scenarios}
            for name, plot in parameter_family.make(run, tmp / PLOTS_DIR) if plots else []:
                drawn[name].append(plot)
            text = markdown.render(run, drawn, tmp, results_seen, picture)
        text = markdown.with_incomplete_banner(text, list(incomplete))
        (tmp / main_file).write_text(text, encoding="utf-8")
    return out / main_file


def _results_seen_from(results_path: Path, out: Path, tmp: Path) -> Path:
    """Where the results file is, as a path that is right once tmp becomes out."""
    import os

    rel = os.path.relpath(results_path.resolve(), out.resolve())
    return tmp / rel
