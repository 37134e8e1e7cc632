"""What a reader meets first: report.md opens with the run as one picture (plots/00-summary.png,
every gated ratio), `--brief` fits a PR comment, a row nothing gates never reads as a verdict,
and a section leaves out what it does not have."""

from __future__ import annotations

import re

from perfgate_report.plots import summary as summary_plot
from perfgate_report.model import RunView
from perfgate_report.report import build_report

BUNDLED = ["upload_spool", "keyset_listing", "folder_keyset", "photos_timeline", "auth_herd", "blob_stampede",
           "asset_cache", "carddav_report", "dto_mapping", "s3_put", "search_cache", "media_parity", "imap_select"]


def a_suite(factory):
    """Thirteen scenarios as the bundled suite has them, two with a write-up on the gated metric
    and one whose claim failed."""
    out = []
    for i, name in enumerate(BUNDLED):
        anchors = ([{"metric": "wall_ms", "before": 100.0, "after": 10.0 + i, "unit": "ms", "label": "write-up"}]
                   if i in (1, 3) else None)
        gates = None
        if name == "auth_herd":
            gates = [{"kind": "equivalence", "name": "same work", "passed": True, "detail": "equal"},
                     {"kind": "policy", "name": "improve on wall_ms", "passed": True, "detail": "better"},
                     {"kind": "claim", "name": "after at least 20x better on wall_ms", "passed": False,
                      "detail": "measured 6.7x lower; the whole interval must clear 20x", "metric": "wall_ms",
                      "factor": 20}]
        out.append(factory.scenario(name, medians={"before": 100.0, "after": 10.0 + 3 * i}, anchors=anchors,
                                    gates=gates, seed=i + 1))
    doc = factory.results(out)
    doc["outcome"] = {"exit_code": 1, "status": "failed", "message": "auth_herd: claim gate failed",
                      "failures": ["auth_herd: claim gate failed: measured 6.7x lower"]}
    return doc


def test_the_report_opens_with_the_summary_picture_of_every_gated_ratio(factory, tmp_path):
    path = factory.write(a_suite(factory), tmp_path / "run" / "results.json")
    text = build_report(path).read_text()
    lines = [line for line in text.splitlines() if line.strip()]
    assert lines[0].startswith("# perfgate report")
    assert re.fullmatch(r"!\[.*\]\(plots/00-summary\.png\)", lines[1]), lines[:3]
    assert (tmp_path / "run" / "plots" / "00-summary.png").stat().st_size > 10_000
    rows = summary_plot.rows_of(RunView(factory.results([]) | {"scenarios": a_suite(factory)["scenarios"]}))
    assert [r.label for r in rows] == BUNDLED  # one row per gated comparison, in the run's order
    by_name = {r.label: r for r in rows}
    assert by_name["keyset_listing"].anchor == 100.0 / 11.0  # the write-up's factor (100 -> 11 ms), beside ours
    assert by_name["upload_spool"].anchor is None
    assert by_name["auth_herd"].failed and not by_name["upload_spool"].failed
    # turned so that right is better: 100 ms -> 10 ms is 10x
    assert abs(by_name["upload_spool"].factor - 10.0) < 0.5


def test_brief_fits_a_pr_comment(factory, tmp_path):
    path = factory.write(a_suite(factory), tmp_path / "run" / "results.json")
    brief = build_report(path, brief=True)
    assert brief.name == "brief.md"
    text = brief.read_text()
    assert len(text.splitlines()) < 60, text
    assert "](plots/00-summary.png)" in text
    for name in BUNDLED:
        assert len([line for line in text.splitlines() if line.startswith(f"| {name} |")]) == 1, name
    failures = text[text.index("**Failures**"):]
    assert "**auth_herd** claim `after at least 20x better on wall_ms`: measured 6.7x lower" in failures
    assert "| auth_herd | `wall_ms` |" in text and "❌ claim failed" in text
    # only the summary picture: a brief never removes or draws the full report's plots
    assert sorted(p.name for p in (tmp_path / "run" / "plots").iterdir()) == ["00-summary.png"]


def test_an_ungated_comparison_says_higher_or_lower_never_worse(factory, tmp_path):
    doc = factory.results([factory.scenario("spool", medians={"before": 100.0, "after": 50.0})])
    comps = doc["scenarios"][0]["comparisons"]
    [rss] = [c for c in comps if c["metric"] == "peak_rss_kib"]
    rss.update(ratio=1.43, ci=[1.40, 1.46], verdict="worse")  # memory up 43%: nothing gates it
    text = build_report(factory.write(doc, tmp_path / "run" / "results.json"), plots=False).read_text()
    [row] = [line for line in text.splitlines() if line.startswith("| after vs before | peak_rss_kib |")]
    assert row.endswith("| higher |") and "+43%" in row and "worse" not in row, row


def test_a_section_leaves_out_what_it_does_not_have(factory, tmp_path):
    doc = factory.results([factory.scenario("mine", medians={"before": 30.0, "after": 20.0})])
    doc["scenarios"][0].pop("source", None)
    text = build_report(factory.write(doc, tmp_path / "run" / "results.json"), plots=False).read_text()
    assert "source: —" not in text and "Write-up: —" not in text
    assert "write-up (anchor)" not in text  # no scenario has one: no column
    assert "ms/sample" not in text  # no steal, no steal section
    assert text.count("warm-up") <= 3, [line for line in text.splitlines() if "warm-up" in line]
