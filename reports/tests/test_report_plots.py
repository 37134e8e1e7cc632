"""Every plot the report links exists and is a real, readable PNG."""

from __future__ import annotations

import re
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.image as mpimg  # noqa: E402
import pytest  # noqa: E402

from perfgate_report.report import build_report  # noqa: E402

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def built(tmp_path_factory, factory):
    out = tmp_path_factory.mktemp("report")
    path = factory.write(factory.standard_run(), out / "results.json")
    report = build_report(path)
    return report, report.read_text()


def links(text: str) -> list[str]:
    return re.findall(r"!\[[^\]]*\]\(([^)]+)\)", text)


def check_png(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == PNG_SIGNATURE, path
    assert len(data) > 5000, path
    img = mpimg.imread(str(path))
    height, width = img.shape[:2]
    assert 700 <= width <= 1000, (path, width)  # readable where a markdown viewer shows ~800 px
    assert 250 <= height <= 1400, (path, height)
    assert img.std() > 0.01, path  # not a blank canvas
    return width, height


def test_every_section_links_plots_that_exist(built):
    report, text = built
    sections = re.split(r"\n## \d+\. ", text)[1:]
    assert len(sections) == 3
    for sec in sections:
        linked = links(sec)
        assert linked, sec[:80]
        for rel in linked:
            check_png(report.parent / rel)


def test_plot_kinds_per_scenario(built):
    report, text = built
    names = {Path(p).name for p in links(text)}
    # samples side by side for every scenario
    assert {"01-keyset_listing-samples.png", "02-upload_spool-samples.png", "03-asset_cache-samples.png"} <= names
    # buffer size sweep, capacity sweep
    assert {"02-upload_spool-sweep.png", "03-asset_cache-sweep.png"} <= names
    # latency percentiles (metrics) and a series distribution (per-page times)
    assert "03-asset_cache-percentiles-latency.png" in names
    assert "01-keyset_listing-distribution-page_ms.png" in names
    assert "01-keyset_listing-sweep.png" not in names  # no sweep coordinates there
    # nothing written that the report does not link
    on_disk = {p.name for p in (report.parent / "plots").iterdir()}
    assert on_disk == names


def test_concurrency_sweep_and_xy_series(factory, tmp_path):
    meds = {"before": 1000.0, "after": 3000.0}
    sweeps = {"before": {"concurrency": 8}, "after": {"concurrency": 8}}
    for c in (1, 2, 4, 16, 32):
        meds[f"after-c{c}"] = 3000.0 * min(c, 4) / 4
        sweeps[f"after-c{c}"] = {"concurrency": c}
        meds[f"before-c{c}"] = 1000.0 * min(c, 4) / 4
        sweeps[f"before-c{c}"] = {"concurrency": c}
    sweeps["before"] = {"concurrency": 8}
    sc = factory.scenario(
        "media", kind="service", primary="rps", unit="req/s", better="higher", medians=meds, sweeps=sweeps,
        metrics={"latency_p50_ms": {"unit": "ms", "medians": {v: 4000 / m for v, m in meds.items()}},
                 "latency_p99_ms": {"unit": "ms", "medians": {v: 9000 / m for v, m in meds.items()}}},
        series={"after": {"rps_plateau": {"unit": "req/s", "values": [800, 1500, 2900, 3000], "x": [1, 2, 4, 8],
                                          "x_name": "concurrency", "x_unit": "requests"}},
                "before": {"rps_plateau": {"unit": "req/s", "values": [250, 500, 1000, 1000], "x": [1, 2, 4, 8],
                                           "x_name": "concurrency", "x_unit": "requests"}}})
    path = factory.write(factory.results([sc]), tmp_path / "results.json")
    text = build_report(path).read_text()
    names = [Path(p).name for p in links(text)]
    assert "01-media-sweep.png" in names
    assert "01-media-series-rps_plateau.png" in names
    for rel in links(text):
        check_png(tmp_path / rel)
    assert "rps, latency_p50_ms / latency_p99_ms over concurrency" in text


def test_no_plots_flag_writes_markdown_only(factory, tmp_path):
    path = factory.write(factory.results([factory.scenario("a")]), tmp_path / "results.json")
    text = build_report(path, plots=False).read_text()
    assert links(text) == []
    assert not (tmp_path / "plots").exists()


def test_sweep_never_joins_variants_doing_different_work(factory, tmp_path):
    """upload_spool's shape: before/after read and write, the extra sweep points only read."""
    meds = {"before": 5656, "after": 248, "read-256k": 152, "read-1m": 56}
    sc = factory.scenario(
        "spool", primary="syscalls", unit="count", medians=meds,
        sweeps={"before": {"read_buffer_kib": 64}, "after": {"read_buffer_kib": 512},
                "read-256k": {"read_buffer_kib": 256}, "read-1m": {"read_buffer_kib": 1024}},
        metrics={"read_ms": {"unit": "ms", "medians": {"before": 13.0, "after": 9.0, "read-256k": 10.0, "read-1m": 9.5}},
                 "write_ms": {"unit": "ms", "medians": {"before": 142.0, "after": 102.0}}})
    from perfgate_report.model import RunView
    from perfgate_report.plots import sweep

    view = RunView(factory.results([sc])).scenarios[0]
    classes = sweep.work_classes(view, view.sweep_variants())
    assert classes == {"before": "before + after", "after": "before + after",
                       "read-256k": "read-256k + read-1m", "read-1m": "read-256k + read-1m"}
    plots = sweep.make(view, tmp_path)
    assert len(plots) == 1 and "separate lines" in plots[0].caption
    check_png(plots[0].path)
    assert plots[0].title == "spool: syscalls, wall_ms, read_ms over read_buffer_kib"
