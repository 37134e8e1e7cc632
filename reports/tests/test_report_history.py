"""The history view: a series with an injected step renders a plot marking the step's commit."""
import json

from matplotlib import image


def _history(tmp_path, step_at=6):
    points = [{"run_id": f"r{i}", "started_at": f"2026-11-{i + 1:02d}", "commit": f"{i:040x}", "dirty": False,
               "value": 1.0 if i < step_at else 1.3, "ci": [0.95, 1.05] if i < step_at else [1.25, 1.35]}
              for i in range(10)]
    doc = {"scenario": "demo", "metric": "cpu_ms", "kind": "ratio", "variant": "after", "profile": "quick",
           "points": points, "change_points": [{"index": step_at, "commit": points[step_at]["commit"],
                                                "mean_before": 1.0, "mean_after": 1.3, "change": 1.3}],
           "method": {"name": "penalised step fit (optimal partitioning)"}}
    f = tmp_path / "history.json"
    f.write_text(json.dumps(doc))
    return f


def test_history_renders_plot_and_marks_the_step(tmp_path, run_cli):
    f = _history(tmp_path)
    r = run_cli("--history", f, "-o", tmp_path / "out")
    assert r.returncode == 0, r.stderr
    md = (tmp_path / "out" / "history.md").read_text()
    assert "◀ step +30.0%" in md
    assert f"`{6:040x}"[:13] in md
    png = next((tmp_path / "out" / "plots").glob("history-*.png"))
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert image.imread(png).shape[1] >= 700


def test_history_missing_field_exits_2(tmp_path, run_cli):
    f = tmp_path / "h.json"
    f.write_text(json.dumps({"scenario": "demo", "metric": "m", "points": []}))
    r = run_cli("--history", f, "-o", tmp_path / "out")
    assert r.returncode == 2
    assert "change_points: missing" in r.stderr
    assert not (tmp_path / "out").exists()


def test_history_reads_the_step_percent_the_harness_wrote(tmp_path, run_cli):
    f = _history(tmp_path)
    doc = json.loads(f.read_text())
    doc["change_points"][0]["change_pct"] = 29.96  # the harness's figure wins over the ratio
    f.write_text(json.dumps(doc))
    r = run_cli("--history", f, "-o", tmp_path / "out", "--no-plots")
    assert r.returncode == 0, r.stderr
    assert "◀ step +30.0%" in (tmp_path / "out" / "history.md").read_text()
    doc["change_points"][0]["change_pct"] = 12.0
    f.write_text(json.dumps(doc))
    assert run_cli("--history", f, "-o", tmp_path / "out", "--no-plots").returncode == 0
    assert "◀ step +12.0%" in (tmp_path / "out" / "history.md").read_text()
