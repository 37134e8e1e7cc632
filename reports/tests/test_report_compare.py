"""perfgate report A.json B.json: comparison.md renders the rows `perfgate compare A B --json`
computed (its p-values, intervals and verdicts), never figures of its own. The rows here are
written by hand, as gate/run_diff.cpp writes them; tests/e2e/test_report_matches_compare.py
holds the report to what compare prints on real runs."""

from __future__ import annotations

import json

import pytest

from perfgate_report.compare import build_comparison
from perfgate_report.errors import BadInput


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


def row(scenario, variant, metric, old, new, change, ci, p, p_adjusted, verdict, unit="ms", better="lower",
        gated=True, n=8):
    return {"scenario": scenario, "profile": "quick", "variant": variant, "metric": metric, "unit": unit,
            "better": better, "gated": gated, "n_old": n, "n_new": n, "old_median": old, "new_median": new,
            "change": change, "ci": ci, "p_mann_whitney": p, "p_adjusted": p_adjusted, "verdict": verdict}


def gate_row(index, reference, change, ci, p, p_adjusted, verdict):
    return {"row": index, "reference_row": reference, "drift_corrected": reference is not None,
            "basis": "corrected by before", "n_old": 8, "n_new": 8, "change": change, "ci": ci,
            "p_mann_whitney": p, "p_adjusted": p_adjusted, "verdict": verdict}


def two_runs(factory, tmp_path):
    a = factory.results([
        factory.scenario("listing", medians={"before": 100.0, "after": 20.0}, seed=1),
        factory.scenario("cache", kind="service", primary="rps", unit="req/s", better="higher",
                         medians={"before": 60000.0, "after": 90000.0}, seed=1),
    ])
    b = factory.results([
        factory.scenario("listing", medians={"before": 100.3, "after": 30.0}, seed=2),
        factory.scenario("cache", kind="service", primary="rps", unit="req/s", better="higher",
                         medians={"before": 60000.0, "after": 108000.0}, seed=2),
    ], commit="fedcba9876543210fedcba9876543210fedcba98")
    pa = factory.write(a, tmp_path / "a" / "results.json")
    pb = factory.write(b, tmp_path / "b" / "results.json")
    diff = {
        "rows": [
            row("listing", "before", "wall_ms", 100.0, 100.3, 1.003, [0.99, 1.02], 0.6, 1.0, "~"),
            row("listing", "after", "wall_ms", 20.0, 30.0, 1.5, [1.45, 1.56], 0.000155, 0.000466, "worse"),
            row("cache", "before", "rps", 60000.0, 60000.0, 1.0, [0.99, 1.01], 1.0, 1.0, "~", "req/s", "higher"),
            row("cache", "after", "rps", 90000.0, 108000.0, 1.2, [1.18, 1.22], 0.0123, 0.0247, "better", "req/s",
                "higher"),
        ],
        "gate": {"rows": [gate_row(1, 0, 1.4955, [1.44, 1.55], 0.00031, 0.00062, "worse"),
                          gate_row(3, None, 1.2, [1.18, 1.22], 0.0123, 0.0123, "better")], "regressions": 1},
        "options": {"alpha": 0.05, "noise": 0.02},
    }
    pd = tmp_path / "compare.json"
    pd.write_text(json.dumps(diff))
    return pa, pb, pd, diff


def test_the_rows_are_compare_s_with_its_p_values(factory, tmp_path):
    pa, pb, pd, _ = two_runs(factory, tmp_path)
    path = build_comparison(pa, pb, tmp_path / "cmp", diff=pd)
    assert path == tmp_path / "cmp" / "comparison.md"
    text = path.read_text()
    listing = rows(text, "listing")
    after = listing[("after", "wall_ms")]
    assert after[2] == "20.0 ms (8)" and after[3] == "30.0 ms (8)"
    assert after[4] == "+50%" and after[5] == "1.500 [1.450, 1.560]"
    assert after[6] == "1.5e-04 (Holm 4.7e-04)"  # as `perfgate compare` prints p=1.5e-04 (Holm 4.7e-04)
    assert after[7] == "**worse**"
    before = listing[("before", "wall_ms")]
    assert before[4] == "~" and before[6] == "0.600 (Holm 1.000)" and before[7] == "~"
    cache = rows(text, "cache")
    assert cache[("after", "rps")][4] == "+20%" and cache[("after", "rps")][6] == "0.012 (Holm 0.025)"
    assert cache[("after", "rps")][7] == "better"
    assert cache[("before", "rps")][7] == "~"
    assert "corrected p < 0.05 **and** the interval lies wholly outside the ±2% noise band" in text


def test_the_gate_s_drift_corrected_rows_are_shown(factory, tmp_path):
    pa, pb, pd, _ = two_runs(factory, tmp_path)
    text = build_comparison(pa, pb, tmp_path / "cmp", diff=pd, plots=False).read_text()
    gate = text[text.index("## The regression gate"):text.index('<a id="c-listing">')]
    assert "| listing / after | wall_ms | +50% | before +0.3% | 1.496 [1.440, 1.550] | 3.1e-04 (Holm 6.2e-04) | **worse** |" \
        in gate
    assert "| cache / after | rps | +20% | — | (raw) 1.200 [1.180, 1.220] | 0.012 (Holm 0.012) | better |" in gate


def test_a_row_nothing_gates_says_higher_or_lower_never_worse(factory, tmp_path):
    pa, pb, pd, diff = two_runs(factory, tmp_path)
    diff["rows"][0].update(new_median=150.0, change=1.5, ci=[1.45, 1.55], p_adjusted=0.001, verdict="worse")
    pd.write_text(json.dumps(diff))
    listing = rows(build_comparison(pa, pb, tmp_path / "cmp", diff=pd, plots=False).read_text(), "listing")
    assert listing[("before", "wall_ms")][7] == "higher"


def test_summary_lists_the_key_metric_per_variant(factory, tmp_path):
    pa, pb, pd, _ = two_runs(factory, tmp_path)
    text = build_comparison(pa, pb, tmp_path / "cmp", diff=pd, plots=False).read_text()
    summary = text[text.index("## Summary"):text.index("## The regression gate")]
    assert "| [listing](#c-listing) | after | `wall_ms` | 20.0 ms | 30.0 ms | +50% | **worse** |" in summary
    assert "| [listing](#c-listing) | before | `wall_ms` | 100 ms | 100 ms | ~ | ~ |" in summary


def test_rows_that_are_not_compare_s_are_bad_input(factory, tmp_path):
    pa, pb, pd, diff = two_runs(factory, tmp_path)
    del diff["options"]
    pd.write_text(json.dumps(diff))
    with pytest.raises(BadInput, match="not the rows of perfgate compare --json"):
        build_comparison(pa, pb, tmp_path / "cmp", diff=pd, plots=False)


def test_cli_two_files(factory, tmp_path, run_cli):
    pa, pb, pd, _ = two_runs(factory, tmp_path)
    r = run_cli(pa, pb, "--diff", pd, "-o", tmp_path / "cmp")
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == str(tmp_path / "cmp" / "comparison.md")
    text = (tmp_path / "cmp" / "comparison.md").read_text()
    assert "![listing: wall_ms, run A against run B](plots/compare-listing.png)" in text
    assert (tmp_path / "cmp" / "plots" / "compare-listing.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_cli_two_files_without_compare_s_rows_computes_nothing(factory, tmp_path, run_cli):
    pa, pb, _, _ = two_runs(factory, tmp_path)
    r = run_cli(pa, pb, "-o", tmp_path / "cmp")
    assert r.returncode == 2 and "perfgate report A B" in r.stderr
    assert not (tmp_path / "cmp").exists()


def test_cli_two_files_names_the_bad_one(factory, tmp_path, run_cli):
    pa, pb, pd, _ = two_runs(factory, tmp_path)
    pb.write_text("{ nope")
    r = run_cli(pa, pb, "--diff", pd, "-o", tmp_path / "cmp")
    assert r.returncode == 2
    assert f"{pb}: not JSON" in r.stderr
    assert not (tmp_path / "cmp").exists()


def test_different_hosts_are_called_out(factory, tmp_path):
    pa, pb, pd, _ = two_runs(factory, tmp_path)
    doc = json.loads(pb.read_text())
    doc["host"]["fingerprint"] = "ffff"
    pb.write_text(json.dumps(doc))
    text = build_comparison(pa, pb, tmp_path / "cmp", diff=pd, plots=False).read_text()
    assert "**different hosts**" in text
