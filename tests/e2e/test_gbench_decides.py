"""What `perfgate gbench` decides, on scripted samples (--debug-samples, docs/architecture.md
"Testing"): both binaries list their benchmarks for real, so which benchmarks are compared is
theirs; every round's figures come from the script, so each verdict and exit code below is the
rules' and none rides on this machine's timing. test_gbench.py measures the same binaries for
real and asserts what it measures."""
import json
import pathlib
import sys

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from test_gbench import gated, tool  # noqa: E402

EQUAL = {"median": 1000, "spread": 0.01}


def script(path, before, after):
    """BEFORE's and AFTER's cpu_time per benchmark (ns), each with a 1% spread; real_time beside it."""
    def variant(figures):
        out = {}
        for name, ns in figures.items():
            out[f"{name}:cpu_time"] = {"median": ns, "spread": 0.01}
            out[f"{name}:real_time"] = {"median": ns * 1.01, "spread": 0.01}
        return out
    path.write_text(json.dumps({"before": variant(before), "after": variant(after)}))
    return path


def gbench(perfgate, tmp_path, before, after, figures_before, figures_after, *extra):
    s = script(tmp_path / "script.json", figures_before, figures_after)
    out = tmp_path / "r.json"
    r = perfgate("gbench", "--before", before, "--after", after, "--debug-samples", s, "--seed", "3",
                 "--json", out, *extra, cwd=tmp_path)
    return r, json.loads(out.read_text())


SAME = {f"BM_{n}": 1000 for n in ("Hash", "Sort", "Walk", "Slower", "Faster")}


@pytest.fixture(scope="module")
def a_against_b(perfgate, tmp_path_factory):
    """b's BM_Slower 10% slower than a's, its BM_Faster twice as fast, the rest the same."""
    tmp = tmp_path_factory.mktemp("gbench-decides")
    r, doc = gbench(perfgate, tmp, tool("gbench_a"), tool("gbench_b"), SAME,
                    dict(SAME, BM_Slower=1100, BM_Faster=500))
    return tmp, r, doc


def test_one_slower_benchmark_fails_the_run_and_is_named(a_against_b):
    _, r, doc = a_against_b
    assert r.returncode == 1, r.stdout + r.stderr
    assert "BM_Slower:cpu_time" in r.stderr  # the failure names the benchmark
    c = gated(doc)
    assert set(c) == {f"BM_{n}:cpu_time" for n in ("Hash", "Sort", "Walk", "Slower", "Faster")}
    assert {m: x["verdict"] for m, x in c.items()} == {
        "BM_Hash:cpu_time": "the same", "BM_Sort:cpu_time": "the same",
        "BM_Walk:cpu_time": "the same", "BM_Slower:cpu_time": "worse", "BM_Faster:cpu_time": "better"}
    policy = [g for g in doc["scenarios"][0]["gates"] if g["kind"] == "policy"]
    assert len(policy) == 5 and [g["metric"] for g in policy if g["outcome"] != "passed"] == ["BM_Slower:cpu_time"]
    assert doc["run"]["options"]["gated_comparisons"] == 5  # one Holm family: every benchmark counted


def test_the_table_and_the_report_say_which_benchmark_failed(a_against_b, perfgate):
    tmp, r, _ = a_against_b
    rows = [line for line in r.stdout.splitlines() if "BM_" in line]
    assert [line.split()[-1] for line in rows if "BM_Slower" in line] == ["FAIL"], r.stdout
    assert all(line.split()[-1] == "PASS" for line in rows if "BM_Slower" not in line), r.stdout
    rep = perfgate("report", tmp / "r.json", "-o", tmp / "report")
    assert rep.returncode == 0, rep.stderr
    summary = (tmp / "report" / "report.md").read_text().split("## Summary", 1)[1].split("\n## ", 1)[0]
    assert "1 of 5 benchmarks worse" in summary and "`BM_Slower:cpu_time`" in summary


def test_a_regression_is_not_hidden_by_a_bigger_gain(perfgate, tmp_path):
    r, doc = gbench(perfgate, tmp_path, tool("gbench_a"), tool("gbench_c"), {"BM_Slower": 1000, "BM_Faster": 900},
                    {"BM_Slower": 1500, "BM_Faster": 300}, "--filter", "Slower|Faster")
    assert r.returncode == 1, r.stdout + r.stderr
    c = gated(doc)
    assert set(c) == {"BM_Slower:cpu_time", "BM_Faster:cpu_time"}
    assert c["BM_Slower:cpu_time"]["verdict"] == "worse" and c["BM_Faster:cpu_time"]["verdict"] == "better"


def test_the_same_binary_against_itself_passes(perfgate, tmp_path):
    r, doc = gbench(perfgate, tmp_path, tool("gbench_a"), tool("gbench_a"), SAME, SAME)
    assert r.returncode == 0, r.stdout + r.stderr
    assert {c["verdict"] for c in gated(doc).values()} == {"the same"}


def test_a_benchmark_only_one_binary_has_is_listed_and_not_compared(perfgate, tmp_path):
    r, doc = gbench(perfgate, tmp_path, tool("gbench_a"), tool("gbench_d"), {"BM_Hash": 1000}, {"BM_Hash": 1000},
                    "--filter", "Hash|New", "--max-rounds", "10")
    assert r.returncode == 0, r.stdout + r.stderr  # BM_Hash is the same code, and scripted so
    assert "BM_New is only in after" in r.stderr and "BM_New is only in after" in r.stdout  # and in the table
    s = doc["scenarios"][0]
    assert set(gated(doc)) == {"BM_Hash:cpu_time"}
    assert any("BM_New" in n for n in s["notes"])
    assert "--benchmark_filter=^(BM_Hash)$" in s["commands"]["after"]  # BM_New is not run


def test_a_small_text_regression_fails_whatever_the_large_one_gained(perfgate, tmp_path):
    """wordfreq's v2 against v1: about 2x slower on small texts, faster on large ones."""
    r, doc = gbench(perfgate, tmp_path, tool("wordfreq_v1"), tool("wordfreq_v2"),
                    {"BM_TopWordsSmall": 1000, "BM_TopWordsLarge": 1000},
                    {"BM_TopWordsSmall": 2000, "BM_TopWordsLarge": 700})
    assert r.returncode == 1, r.stdout + r.stderr
    c = gated(doc)
    assert c["BM_TopWordsSmall:cpu_time"]["verdict"] == "worse" and c["BM_TopWordsLarge:cpu_time"]["verdict"] == "better"
    assert "BM_TopWordsSmall:cpu_time" in r.stderr and "BM_TopWordsLarge:cpu_time" not in r.stderr


def test_a_benchmark_decided_at_a_look_runs_no_more_and_keeps_its_verdict(perfgate, tmp_path):
    """BM_Hash steady (1% a round) is "the same" at an early look; BM_Sort spreads 40% a round
    and cannot be told within 640 rounds. BM_Hash leaves the rounds where it settled and is
    decided there, over its own rounds, at that look's level."""
    s = tmp_path / "script.json"
    figures = {"BM_Hash:cpu_time": {"median": 1000, "spread": 0.01},
               "BM_Sort:cpu_time": {"median": 1000, "spread": 0.4}}
    s.write_text(json.dumps({"before": figures, "after": figures}))
    out = tmp_path / "r.json"
    r = perfgate("gbench", "--before", tool("gbench_a"), "--after", tool("gbench_a"), "--filter", "Hash|Sort",
                 "--debug-samples", s, "--seed", "3", "--cannot-tell", "fail", "--json", out, cwd=tmp_path)
    assert r.returncode == 5, r.stdout + r.stderr
    doc = json.loads(out.read_text())
    c = gated(doc)
    assert c["BM_Hash:cpu_time"]["verdict"] == "the same" and c["BM_Sort:cpu_time"]["verdict"] == "cannot tell"
    settled_at, rounds = c["BM_Hash:cpu_time"]["n"], c["BM_Sort:cpu_time"]["n"]
    assert settled_at < 30 and rounds == 640, (settled_at, rounds)
    # Decided at the level of its own look; BM_Sort's last test spent what the looks left.
    assert c["BM_Hash:cpu_time"]["decision_alpha"] < c["BM_Sort:cpu_time"]["decision_alpha"]
    samples = [x for x in doc["scenarios"][0]["samples"] if not x["warmup"]]
    every_round = sorted({x["round"] for x in samples})
    hash_rounds = sorted({x["round"] for x in samples if "BM_Hash:cpu_time" in x["metrics"]})
    assert hash_rounds == every_round[:settled_at]  # the first rounds only, both sides
    assert any("1 of 2 benchmarks were decided before the last round" in n for n in doc["scenarios"][0]["notes"])
