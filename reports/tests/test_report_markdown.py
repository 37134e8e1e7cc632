"""report.md built from documents the tests make: what a reader checks."""

from __future__ import annotations

import re

import pytest

from perfgate_report.report import build_report


def section(text: str, heading: str) -> str:
    """The text under a `## heading` up to the next `## `."""
    start = text.index(heading)
    nxt = text.find("\n## ", start + len(heading))
    return text[start: nxt if nxt >= 0 else len(text)]


def summary_rows(text: str) -> dict[str, list[str]]:
    block = section(text, "## Summary")
    rows = {}
    for line in block.splitlines():
        if re.match(r"^\| \d+ \|", line):
            cells = [c.strip() for c in line.strip("|").split(" | ")]
            name = re.search(r"\(#s\d+-([a-z0-9_]+)\)", cells[1]).group(1)
            rows[name] = cells
    return rows


@pytest.fixture
def four_scenarios(factory):
    return factory.results([
        factory.scenario("listing", primary="ms_per_page_p50", medians={"before": 26.6, "after": 1.30},
                         anchors=[{"metric": "ms_per_page_p50", "before": 26.6, "after": 1.30, "unit": "ms",
                                   "label": "20k files", "factor": 19.5}]),
        factory.scenario("spool", primary="syscalls", unit="count", medians={"before": 2580, "after": 340}),
        factory.scenario("cache", kind="service", primary="rps", unit="req/s", better="higher",
                         medians={"before": 62100, "after": 91100}),
        factory.scenario("slower", medians={"before": 50.0, "after": 60.0}),
    ])


def render(factory, doc, tmp_path, plots=False) -> str:
    path = factory.write(doc, tmp_path / "run" / "results.json")
    report = build_report(path, plots=plots)
    assert report == tmp_path / "run" / "report.md"
    return report.read_text()


def test_summary_table_holds_every_scenario_with_the_right_ratio(factory, four_scenarios, tmp_path):
    text = render(factory, four_scenarios, tmp_path)
    rows = summary_rows(text)
    assert list(rows) == ["listing", "spool", "cache", "slower"]
    assert rows["listing"][2] == "`ms_per_page_p50`"
    assert rows["listing"][3] == "26.6 → 1.30 ms (**20.5x**)"
    assert rows["spool"][3] == "2,580 → 340 (**7.6x**)"
    assert rows["cache"][3] == "62.1k → 91.1k req/s (**+47%**)"
    assert rows["slower"][3] == "50.0 → 60.0 ms (**+20%**)"
    assert rows["listing"][5].startswith("better")
    assert rows["slower"][5].startswith("**worse**")
    assert "**FAILED** policy `improve`" in rows["slower"][5]
    assert "2/2 gates passed" in rows["spool"][5]


def test_the_write_ups_anchor_is_beside_ours(factory, four_scenarios, tmp_path):
    text = render(factory, four_scenarios, tmp_path)
    rows = summary_rows(text)
    # the write-up's own factor (19.5x from its totals) wins over one worked out from its medians
    assert rows["listing"][4] == "20k files: 26.6 → 1.30 ms (19.5x)"
    assert rows["spool"][4] == "—"
    anchors = section(text, "## 1. ")
    assert "| 20k files | `ms_per_page_p50` | 26.6 → 1.30 ms (19.5x) | 26.6 → 1.30 ms (**20.5x**) |" in anchors


def test_anchor_on_another_metric_shows_ours_too(factory, tmp_path):
    doc = factory.results([factory.scenario(
        "spool", primary="syscalls", unit="count", medians={"before": 2580, "after": 340},
        metrics={"read_ms": {"unit": "ms", "medians": {"before": 250.8, "after": 108.8}}},
        anchors=[{"metric": "read_ms", "before": 250.8, "after": 108.8, "unit": "ms", "label": "read"}])])
    rows = summary_rows(render(factory, doc, tmp_path))
    assert rows["spool"][4] == "`read_ms` read: 251 → 109 ms (2.3x); ours 251 → 109 ms (2.3x)"


def test_header_says_when_what_where(factory, tmp_path):
    doc = factory.results([factory.scenario("a", rounds=6, warmup=2)], dirty=True,
                          load_before=(3.1, 2.0, 1.0), load_after=(3.9, 2.5, 1.2))
    head = render(factory, doc, tmp_path).split("## Summary")[0]
    assert "| when | 2026-11-29 19:00:00 UTC → 19:04:10 (4 min 10 s) |" in head
    assert "`0123456789ab`, **dirty**" in head
    assert "`5f3c9a0b1d2e4f60`" in head
    assert "before 3.10 / 2.00 / 1.00, after 3.90 / 2.50 / 1.20 — **busy**" in head
    assert "| profile | quick (seed 42) |" in head
    assert "| rounds | 6 measured rounds per scenario (`stop.rounds`); 1 warm-up" in head
    assert "[`results.json`](results.json)" in head


def test_scenario_section_has_everything(factory, standard_doc, tmp_path):
    text = render(factory, standard_doc, tmp_path)
    s1 = section(text, "## 1. ")
    assert "> What keyset_listing changes" in s1
    # the reproduce command, narrowed to this scenario
    cmd = re.search(r"```sh\n(.*)\n```", s1).group(1)
    assert cmd == "perfgate run --profile quick --seed 42 keyset_listing"
    # every variant x metric, with the interval, CPU, RSS and syscalls
    table = s1[s1.index("### Measurements"):s1.index("### Distributions")]
    assert "| metric | before (n=8) | after (n=8) | before-idx (n=8) | source |" in table
    for m in ("ms_per_page_p50", "cpu_ms", "peak_rss_kib", "syscalls", "wall_ms"):
        assert re.search(rf"^\| (\*\*)?{m}(\*\*)? [↓↑] \|", table, re.M), m
    assert "| **ms_per_page_p50** ↓ | 26.6 ms [26.1, 27.1] | **1.30 ms [1.27, 1.33]** | 27.8 ms" in table
    # p50 / p99 of a series
    assert "| page_ms | after | 40 |" in s1
    # gates with their outcome
    assert "| equivalence | digest | passed |" in s1
    # the EXPLAIN excerpt
    assert "Rows Removed by Filter: 17999" in s1
    assert "Index Scan using idx_files_folder_lname" in s1
    # comparisons
    assert "| after vs before (gated) | ms_per_page_p50 |" in s1


def test_series_quantiles_are_the_harnesss_and_an_older_file_says_it_has_none(factory, standard_doc, tmp_path):
    sc = standard_doc["scenarios"][0]
    summary = sc["series_summaries"]["after"]["page_ms"]
    summary.update(p50=1.0, p90=2.0, p99=3.0, max=4.0)  # whatever the harness wrote is what is shown
    text = render(factory, standard_doc, tmp_path)
    assert "| page_ms | after | 40 | 1.00 ms | 2.00 ms | 3.00 ms | 4.00 ms |" in section(text, "## 1. ")
    for s in standard_doc["scenarios"]:
        s.pop("series_summaries")
    old = section(render(factory, standard_doc, tmp_path / "old"), "## 1. ")
    assert "| page_ms | after | — | not in this results file | | | |" in old


def test_excluded_requests_appear_in_their_section(factory, standard_doc, tmp_path):
    text = render(factory, standard_doc, tmp_path)
    s3 = section(text, "## 3. ")
    assert "### Excluded" in s3
    assert "- GET /assets/pkg-17/1.0.0/index.js — bodies differ between variants (content-length)" in s3


def test_does_not_say_lists_fallback_exclusion_windows_and_noise(factory, standard_doc, tmp_path):
    text = render(factory, standard_doc, tmp_path)
    dns = section(text, "## What this does not say")
    # an exclusion the harness listed, and the warm-up rounds worked out from the samples
    assert "**upload_spool**: read-1m round 3 — exit code 1 (ENOSPC)" in dns
    # warm-up rounds said once for the run (each section says how many), not once per scenario
    assert "- Warm-up rounds (every scenario): run and left out of every figure" in dns
    assert "warm-up sample(s)" not in dns
    # the fallback: upload_spool's CPU came from rusage
    fb = dns[dns.index("### Figures from a weaker source"):]
    assert re.search(r"\*\*upload_spool\*\*: cpu_ms, sys_ms, user_ms from `rusage` for before, after, read-256k, read-1m", fb)
    assert "keyset_listing" not in fb.split("###")[1]
    # the CPU windows: batch sample process, seeding separate, warm-up excluded; service measured phase only
    assert "**keyset_listing** (batch): each CPU and RSS figure is the window of the one sample process" in dns
    assert "**asset_cache** (service): CPU, RSS and throughput are deltas over the measured phase only" in dns
    # noise: spread per variant and the load
    assert "| keyset_listing | `ms_per_page_p50` | before 1.1%, after 1.1%, before-idx 1.1% |" in dns
    assert "Whole run: load average 0.52 / 0.41 / 0.30 before, 0.95 / 0.60 / 0.38 after, on 4 cores." in dns


def test_host_without_cgroup_is_a_fallback(factory, tmp_path):
    doc = factory.results([factory.scenario("a", cpu_source="rusage", memory_source="rusage")],
                          cpu_source="rusage", memory_source="rusage", note="no cgroup v2 or v1 mounted")
    dns = section(render(factory, doc, tmp_path), "## What this does not say")
    assert "**host**: cpu_ms, user_ms, sys_ms from `rusage` for every sample: no usable cgroup (no cgroup v2 or v1 mounted)." in dns
    assert "**host**: peak_rss_kib from `rusage`" in dns
    assert "peak_rss_kib from `rusage` for before, after — ru_maxrss is the largest single process" in dns


def test_clean_run_says_nothing_fell_back_or_was_excluded(factory, tmp_path):
    doc = factory.results([factory.scenario("a", warmup=0)])
    dns = section(render(factory, doc, tmp_path), "## What this does not say")
    assert "- Nothing was excluded." in dns
    assert "- None: CPU from cgroup-v2, memory from cgroup-v2, for every sample." in dns
    assert "no warm-up round was run" in dns


def test_noisy_variant_is_flagged(factory, tmp_path):
    doc = factory.results([factory.scenario("a", spreads={"after": 0.2})])
    dns = section(render(factory, doc, tmp_path), "## What this does not say")
    row = next(line for line in dns.splitlines() if line.startswith("| a |"))
    assert "after 11.4% ⚠" in row
    assert "before 1.1%" in row and "before 1.1% ⚠" not in row


def test_a_scenario_that_could_not_run(factory, tmp_path):
    broken = factory.scenario("broken", medians={"before": 10.0, "after": 5.0}, rounds=1, warmup=0,
                              error={"exit_code": 4, "message": "PostgreSQL would not start", "stderr_tail": "initdb: error"})
    broken["samples"], broken["summaries"], broken["comparisons"] = [], {}, []
    doc = factory.results([factory.scenario("fine"), broken])
    text = render(factory, doc, tmp_path, plots=True)
    assert summary_rows(text)["broken"][4] == "**error**: PostgreSQL would not start"
    assert "**This scenario could not be run** (exit 4): PostgreSQL would not start" in text
    assert "initdb: error" in text


def test_reproduce_prefers_the_scenarios_own_command(factory, tmp_path):
    a = factory.scenario("a")
    a["reproduce"] = "perfgate run --only a --seed 42"
    doc = factory.results([a, factory.scenario("b")])
    text = render(factory, doc, tmp_path)
    assert "perfgate run --only a --seed 42\n```" in section(text, "## 1. ")
    assert "perfgate run --profile quick --seed 42 b\n```" in section(text, "## 2. ")


def test_an_interrupted_run_with_an_empty_scenario(factory, tmp_path):
    empty = factory.scenario("empty", rounds=1, warmup=0)
    empty["samples"], empty["summaries"], empty["comparisons"], empty["anchors"] = [], {}, [], []
    empty["stop"] = {"reason": "interrupted", "rounds": 0, "looks": []}
    doc = factory.results([factory.scenario("done"), empty])
    doc["outcome"] = {"exit_code": 4, "status": "interrupted", "message": "Ctrl-C", "failures": []}
    doc["run"]["stop_reason"] = "interrupted"
    doc["run"]["finished_at"] = None
    factory.validate(doc)
    text = render(factory, doc, tmp_path, plots=True)
    assert "**This run did not complete** (status interrupted, stopped: interrupted)" in text
    assert "(did not finish)" in text
    row = summary_rows(text)["empty"]
    assert row[3] == "—" and row[4].startswith("no comparison")
    assert "No measured samples." in section(text, "## 2. ")


def test_microbenchmarks_beside_the_samples(factory, tmp_path):
    doc = factory.results([factory.scenario("auth", extra={"gbench": {
        "program": "auth_herd_bench", "context": {},
        "benchmarks": [{"name": "BM_verify/warm_hit", "real_time": 612.4, "cpu_time": 610.0, "time_unit": "ns",
                        "iterations": 1120000}]}})])
    text = section(render(factory, doc, tmp_path), "## 1. ")
    assert "### Microbenchmarks (Google Benchmark)" in text
    assert "| BM_verify/warm_hit | 612 ns | 610 ns | 1,120,000 |" in text


def test_spreads_are_the_harnesss_and_an_older_file_says_it_has_none(factory, standard_doc, tmp_path):
    sc = standard_doc["scenarios"][0]
    sc["summaries"]["after"][sc["primary_metric"]]["spread"] = 0.5  # what the harness wrote is what is shown
    row = next(l for l in render(factory, standard_doc, tmp_path).splitlines() if l.startswith(f"| {sc['name']} | `"))
    assert "after 50.0% ⚠" in row
    for s in standard_doc["scenarios"]:
        for metrics in s["summaries"].values():
            for m in metrics.values():
                m.pop("spread", None)
    old = render(factory, standard_doc, tmp_path / "old")
    assert f"| {sc['name']} | `{sc['primary_metric']}` | not in this results file |" in old
