"""End-to-end tests of the gbench scenario kind (a Google Benchmark binary whose X/before and
X/after benchmarks are paired by repetition) and of `run --against DIR` (this build's AFTER
against the AFTER of another built perfgate; for a gbench scenario, the two builds' binaries)."""
import json
import pathlib
import sys

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from conftest import BUILD  # noqa: E402
from spin_catalog import WORK, add_scenario  # noqa: E402

GBENCH = BUILD / "tests" / "tools" / "gbench_pair"


def test_gbench_kind_pairs_before_and_after_repetitions(perfgate, tmp_path, validate):
    if not GBENCH.exists():
        pytest.fail(f"{GBENCH} is missing: build first")
    d = tmp_path / "catalog" / "gsum"
    d.mkdir(parents=True)
    (d / "scenario.json").write_text(json.dumps({
        "name": "gsum", "title": "strided vs in-order sum (Google Benchmark)", "kind": "gbench",
        "program": str(GBENCH), "policy": "improve", "primary_metric": "cpu_time",
        "variants": [{"name": "before"}, {"name": "after"}],
        "profiles": {"quick": {"params": {"repetitions": 8, "min_time": 0.02}}}}))
    r = perfgate("run", "--catalog", tmp_path / "catalog", "--baseline", "none", "--seed", "1",
                 "--json", tmp_path / "r.json", "--export-gbench", tmp_path / "g.json")
    doc = validate(tmp_path / "r.json")
    s = doc["scenarios"][0]
    # What is measured, not a verdict on it (the gbench kind takes no scripted samples): the
    # pairing, and the in-order sum measured faster than the strided one.
    assert "error" not in s, r.stdout + r.stderr
    assert s["kind"] == "gbench"
    assert "--benchmark_repetitions=8" in s["commands"]["gbench"]
    assert len([x for x in s["samples"] if x["variant"] == "after"]) == 8
    c = [c for c in s["comparisons"] if c["gated"]][0]
    assert c["metric"] == "BM_Sum:cpu_time" and c["unit"] == "ns" and c["n"] == 8 and c["ratio"] < 0.9, c
    assert [g["outcome"] for g in s["gates"] if g["kind"] != "policy"] == ["passed"]
    assert s["extra"]["gbench_context"]["num_cpus"] >= 1


def test_gbench_binary_without_pairs_is_exit_4(perfgate, tmp_path):
    d = tmp_path / "catalog" / "nopairs"
    d.mkdir(parents=True)
    (d / "scenario.json").write_text(json.dumps({
        "name": "nopairs", "kind": "gbench", "program": str(GBENCH), "primary_metric": "cpu_time",
        "variants": [{"name": "before"}, {"name": "after"}],
        "profiles": {"quick": {"params": {"repetitions": 2, "min_time": 0.01, "filter": "BM_Sum/after"}}}}))
    r = perfgate("run", "--catalog", tmp_path / "catalog", "--baseline", "none", "--json", tmp_path / "r.json")
    assert r.returncode == 4, r.stdout + r.stderr
    assert "no pair of benchmarks" in r.stderr


# Gated on the program's own count of its work, with no wall guard: both builds' AFTERs run for
# real and the verdict follows from the counts (WORK / 2 against WORK, or against WORK / 4) alone.
EXACT = {"metric": "work", "guard": {"metric": "none"}}


def _other_build(tmp_path, burn, after):
    other = tmp_path / "other-worktree" / "build" / "share" / "perfgate" / "scenarios"
    add_scenario(other, burn, "spin", before=WORK, after=after, **EXACT)
    return tmp_path / "other-worktree"


@pytest.mark.parametrize("other_after, verdict, code", [(WORK, "better", 0), (WORK // 4, "worse", 1)])
def test_against_runs_this_after_against_the_other_builds_after(perfgate, burn, tmp_path, validate,
                                                                 other_after, verdict, code):
    catalog = tmp_path / "catalog"
    add_scenario(catalog, burn, "spin", before=WORK, after=WORK // 2, **EXACT)
    other = _other_build(tmp_path, burn, other_after)
    r = perfgate("run", "--catalog", catalog, "--against", other, "--seed", "2", "--json", tmp_path / "r.json")
    assert r.returncode == code, r.stdout + r.stderr
    doc = validate(tmp_path / "r.json")
    assert doc["run"]["against"]["dir"] == str(other)
    assert doc["run"]["baseline"]["file"] is None
    s = doc["scenarios"][0]
    assert s["policy"] == "no-regress"
    labels = {v["name"]: v["label"] for v in s["variants"]}
    assert labels == {"before": "other build's after", "after": "this build's after"}
    assert "other-worktree" in s["commands"]["before"][0] and s["commands"]["before"][3] == "after"
    assert str(catalog) in s["commands"]["after"][0]
    c = [c for c in s["comparisons"] if c["gated"]][0]
    assert c["metric"] == "work" and c["verdict"] == verdict


def test_against_a_folder_without_a_build_is_exit_2(perfgate, burn, tmp_path):
    catalog = tmp_path / "catalog"
    add_scenario(catalog, burn)
    (tmp_path / "empty").mkdir()
    r = perfgate("run", "--catalog", catalog, "--against", tmp_path / "empty")
    assert r.returncode == 2 and "no built catalog" in r.stderr


def test_against_compares_a_gbench_scenario_benchmark_by_benchmark(perfgate, tmp_path, validate):
    """The other build's binary against this build's, each run once per round, compared by the
    X/after benchmarks both list: one gated metric each, never the kind's X/before."""
    if not GBENCH.exists():
        pytest.fail(f"{GBENCH} is missing: build first")
    manifest = {"name": "gsum", "kind": "gbench", "program": str(GBENCH), "primary_metric": "cpu_time",
                "variants": [{"name": "before"}, {"name": "after"}],
                "profiles": {"quick": {"params": {"min_time": 0.01}}}}
    for catalog in (tmp_path / "catalog", tmp_path / "other" / "build" / "share" / "perfgate" / "scenarios"):
        (catalog / "gsum").mkdir(parents=True)
        (catalog / "gsum" / "scenario.json").write_text(json.dumps(manifest))
    # Both binaries list their benchmarks for real; the rounds' figures are scripted A/A samples, so
    # the verdict on the same binary twice is the rules' (no change), not chance's.
    script = tmp_path / "aa.json"
    variant = {"BM_Sum/after:cpu_time": {"median": 1000, "spread": 0.01},
               "BM_Sum/after:real_time": {"median": 1010, "spread": 0.01}}
    script.write_text(json.dumps({"before": variant, "after": variant}))
    r = perfgate("run", "--catalog", tmp_path / "catalog", "--against", tmp_path / "other", "--seed", "2",
                 "--max-rounds", "12", "--debug-samples", script, "--json", tmp_path / "r.json")
    assert r.returncode == 0, r.stdout + r.stderr
    s = validate(tmp_path / "r.json")["scenarios"][0]
    assert s["policy"] == "no-regress"
    assert {v["name"]: v["label"] for v in s["variants"]} == {"before": "other build's after",
                                                               "after": "this build's after"}
    assert [c["metric"] for c in s["comparisons"] if c["gated"]] == ["BM_Sum/after:cpu_time"]
    for side in ("before", "after"):  # only what both compare runs: the X/after benchmarks
        assert "--benchmark_filter=^(BM_Sum/after)$" in s["commands"][side]
    assert [c["verdict"] for c in s["comparisons"] if c["gated"]] == ["the same"]
    # The run stops at a look once decided, or at --max-rounds: every round it took is recorded.
    rounds = s["stop"]["rounds"]
    assert 1 <= rounds <= 12, s["stop"]
    assert len([x for x in s["samples"] if x["variant"] == "after" and not x.get("warmup")]) == rounds
