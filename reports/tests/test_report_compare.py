"""perfgate report A.json B.json: a significant change is flagged, no change is `~`."""

from __future__ import annotations

import re

from perfgate_report.compare import build_comparison


def rows(text: str, scenario: str) -> dict[tuple[str, str], list[str]]:
    block = text[text.index(f"## {scenario}\n"):]
    nxt = block.find("\n## ", 5)
    block = block[: nxt if nxt > 0 else len(block)]
    out = {}
    for line in block.splitlines():
        if line.startswith("| ") and not line.startswith("| variant") and not line.startswith("|---"):
            cells = [c.strip() for c in line.strip("|").split(" | ")]
            out[(cells[0], cells[1].strip("*"))] = cells
    return out


def two_runs(factory, tmp_path):
    a = factory.results([
        factory.scenario("listing", medians={"before": 100.0, "after": 20.0}, seed=1),
        factory.scenario("cache", kind="service", primary="rps", unit="req/s", better="higher",
                         medians={"before": 60000.0, "after": 90000.0}, seed=1),
    ])
    b = factory.results([
        # after got 50% slower; before moved by 0.3%: noise
        factory.scenario("listing", medians={"before": 100.3, "after": 30.0}, seed=2),
        # throughput up 20% for after
        factory.scenario("cache", kind="service", primary="rps", unit="req/s", better="higher",
                         medians={"before": 60000.0, "after": 108000.0}, seed=2),
    ], commit="fedcba9876543210fedcba9876543210fedcba98")
    pa = factory.write(a, tmp_path / "a" / "results.json")
    pb = factory.write(b, tmp_path / "b" / "results.json")
    return pa, pb


def test_significant_change_is_flagged_and_no_change_is_tilde(factory, tmp_path):
    pa, pb = two_runs(factory, tmp_path)
    path = build_comparison(pa, pb, tmp_path / "cmp")
    assert path == tmp_path / "cmp" / "comparison.md"
    text = path.read_text()
    listing = rows(text, "listing")
    after = listing[("after", "wall_ms")]
    assert after[2] == "20.0 ms (8)" and after[3] == "30.0 ms (8)"
    assert after[4] == "+50%"
    assert after[7] == "**worse**"
    assert float(after[6]) < 0.001
    before = listing[("before", "wall_ms")]
    assert before[4] == "~" and before[7] == "~"
    assert float(before[6]) > 0.05
    cache = rows(text, "cache")
    assert cache[("after", "rps")][4] == "+20%"
    assert cache[("after", "rps")][7] == "better"
    assert cache[("before", "rps")][7] == "~"


def test_a_row_nothing_gates_says_higher_or_lower_never_worse(factory, tmp_path):
    a = factory.results([factory.scenario("listing", medians={"before": 100.0, "after": 20.0}, seed=1)])
    # BEFORE 50% slower in B: a reference variant, judged by no gate.
    b = factory.results([factory.scenario("listing", medians={"before": 150.0, "after": 20.0}, seed=2)])
    pa, pb = factory.write(a, tmp_path / "a" / "results.json"), factory.write(b, tmp_path / "b" / "results.json")
    listing = rows(build_comparison(pa, pb, tmp_path / "cmp", plots=False).read_text(), "listing")
    assert listing[("before", "wall_ms")][7] == "higher"
    assert listing[("after", "wall_ms")][7] == "~"


def test_summary_lists_the_key_metric_per_variant(factory, tmp_path):
    pa, pb = two_runs(factory, tmp_path)
    text = build_comparison(pa, pb, tmp_path / "cmp", plots=False).read_text()
    summary = text[text.index("## Summary"):text.index('<a id="c-listing">')]
    assert "| [listing](#c-listing) | after | `wall_ms` | 20.0 ms | 30.0 ms | +50% | **worse** |" in summary
    assert "| [listing](#c-listing) | before | `wall_ms` | 100 ms | 100 ms | ~ | ~ |" in summary


def test_bootstrap_interval_is_seeded(factory, tmp_path):
    pa, pb = two_runs(factory, tmp_path)
    one = build_comparison(pa, pb, tmp_path / "one", plots=False).read_text()
    two = build_comparison(pa, pb, tmp_path / "two", plots=False).read_text()
    strip = lambda t: re.sub(r"`[^`]*results\.json`", "", t)  # noqa: E731
    assert strip(one) == strip(two)


def test_cli_two_files(factory, tmp_path, run_cli):
    pa, pb = two_runs(factory, tmp_path)
    r = run_cli(pa, pb, "-o", tmp_path / "cmp")
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == str(tmp_path / "cmp" / "comparison.md")
    text = (tmp_path / "cmp" / "comparison.md").read_text()
    assert "![listing: wall_ms, run A against run B](plots/compare-listing.png)" in text
    assert (tmp_path / "cmp" / "plots" / "compare-listing.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_cli_two_files_names_the_bad_one(factory, tmp_path, run_cli):
    pa, pb = two_runs(factory, tmp_path)
    pb.write_text("{ nope")
    r = run_cli(pa, pb, "-o", tmp_path / "cmp")
    assert r.returncode == 2
    assert f"{pb}: not JSON" in r.stderr
    assert not (tmp_path / "cmp").exists()


def test_different_hosts_are_called_out(factory, tmp_path):
    pa, pb = two_runs(factory, tmp_path)
    import json

    doc = json.loads(pb.read_text())
    doc["host"]["fingerprint"] = "ffff"
    pb.write_text(json.dumps(doc))
    text = build_comparison(pa, pb, tmp_path / "cmp", plots=False).read_text()
    assert "**different hosts**" in text
