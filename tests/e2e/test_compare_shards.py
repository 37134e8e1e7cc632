"""End-to-end tests of `perfgate compare` (two real runs, benchstat-style) and of shards:
`run --shard i/n` picks a deterministic subset, `merge` joins the shards into one results file."""
import json
import pathlib
import shlex
import subprocess
import sys

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from spin_catalog import WORK, add_scenario  # noqa: E402


def scripted(path, after_factor):
    """Scripted samples (run/sample_script.hpp) of alpha and beta, so compare's rows are exact:
    the same seeds in both runs give BEFORE the same figures in each (no drift between runs, which
    real runs minutes apart do show: one CI run read alpha/before +3.1%, beyond the 2% band) and
    AFTER exactly `after_factor` times its figures of the first run in every round."""
    def variant(ms):
        return {"cpu_ms": {"median": ms, "spread": 0.02}, "wall_ms": {"median": ms * 1.05, "spread": 0.02}}
    path.write_text(json.dumps({"scenarios": {n: {"before": variant(20), "after": variant(20 * after_factor)}
                                              for n in ("alpha", "beta")}}))
    return path


@pytest.fixture(scope="module")
def two_runs(perfgate, burn, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("compare")
    catalog = tmp / "catalog"
    for name in ("alpha", "beta"):
        # 6 rounds: enough for compare's unpaired test (its smallest p is 2/924), fewer than the
        # paired policy gate needs (2/2^6 is above 0.05 / 4 looks / 2): the new run exits 1 on
        # its wall guard alone (1.6x, beyond the band at its unadjusted level).
        add_scenario(catalog, burn, name, policy="no-regress", rounds=6)
    for name, factor, code in (("old", 1.0, 0), ("new", 1.6, 1)):
        r = perfgate("run", "--catalog", catalog, "--baseline", "none", "--seed", "1", "--json", tmp / f"{name}.json",
                     "-q", "--debug-samples", scripted(tmp / f"{name}-samples.json", factor))
        assert r.returncode == code, r.stdout + r.stderr
        assert "policy gate failed" not in r.stderr, r.stderr
    return tmp


def test_compare_prints_the_table_with_geomean_and_tilde(perfgate, two_runs):
    r = perfgate("compare", two_runs / "old.json", two_runs / "new.json", "--json", two_runs / "diff.json")
    assert r.returncode == 0, r.stdout + r.stderr
    out = r.stdout
    for header in ("cpu_ms (ms, lower is better)", "scenario/variant", "old", "new", "change", "interval", "p"):
        assert header in out
    cpu_table = [b for b in out.split("\n\n") if b.startswith("cpu_ms")][0]
    lines = {l.split()[0]: l for l in cpu_table.splitlines() if l.startswith(("alpha/", "beta/", "geomean/"))}
    assert "worse" in lines["alpha/after"] and "+60" in lines["alpha/after"]
    # The same figures in both runs: "same" where the interval lies inside the 2% band, else "~".
    assert " ~ " in lines["alpha/before"] + " " or " same " in lines["alpha/before"] + " "
    assert "geomean/after" in lines
    diff = json.loads((two_runs / "diff.json").read_text())
    after = [row for row in diff["rows"] if row["variant"] == "after" and row["metric"] == "cpu_ms"]
    # Every new figure above every old one: Mann-Whitney's smallest p of 6 against 6, 2/924.
    assert len(after) == 2 and all(row["change"] == pytest.approx(1.6) and row["verdict"] == "worse"
                                   and row["p_mann_whitney"] == pytest.approx(2 / 924) for row in after), after
    before = [row for row in diff["rows"] if row["variant"] == "before"]
    inside = lambda row: 0.98 <= row["ci"][0] and row["ci"][1] <= 1.02  # compare's default band, 2%
    assert before and all(row["change"] == 1 and row["verdict"] == ("same" if inside(row) else "~")
                          for row in before), before
    assert all(row["p_adjusted"] >= row["p_mann_whitney"] for row in diff["rows"])  # Holm never lowers a p
    geo = [g for g in diff["geomeans"] if g["metric"] == "cpu_ms" and g["variant"] == "after"][0]
    assert geo["scenarios"] == 2 and geo["change"] == pytest.approx(1.6)


def test_compare_fail_on_regression_exits_1(perfgate, two_runs):
    r = perfgate("compare", two_runs / "old.json", two_runs / "new.json", "--fail-on-regression", "--metrics", "cpu_ms")
    assert r.returncode == 1, r.stdout + r.stderr
    assert "significant regression" in r.stderr
    same = perfgate("compare", two_runs / "old.json", two_runs / "old.json", "--fail-on-regression")
    assert same.returncode == 0, same.stdout + same.stderr
    assert "worse" not in same.stdout


def test_compare_malformed_input_is_exit_2(perfgate, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"schema_version": 1}')
    r = perfgate("compare", bad, bad)
    assert r.returncode == 2 and "run: missing" in r.stderr


@pytest.fixture(scope="module")
def shards(perfgate, burn, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("shards")
    catalog = tmp / "catalog"
    for name in ("s_c", "s_a", "s_b"):
        # No wall guard: these are about partition and merge, and a guard on millisecond
        # scenarios of 3 rounds failed a fresh-clone run on a noisy stretch.
        add_scenario(catalog, burn, name, policy="no-regress", before=WORK // 4, after=WORK // 4, rounds=3,
                     guard={"metric": "none"})
    runs = {}
    for i in (1, 2):
        runs[i] = perfgate("run", "--catalog", catalog, "--shard", f"{i}/2", "--baseline", "none", "--seed", "9",
                           "--json", tmp / f"shard{i}.json", "-q")
    return tmp, catalog, runs


def test_shards_are_a_deterministic_partition(shards, validate):
    tmp, _, runs = shards
    for i in (1, 2):
        assert runs[i].returncode == 0, runs[i].stdout + runs[i].stderr
    one, two = validate(tmp / "shard1.json"), validate(tmp / "shard2.json")
    assert [s["name"] for s in one["scenarios"]] == ["s_a", "s_c"]  # sorted names dealt round-robin
    assert [s["name"] for s in two["scenarios"]] == ["s_b"]
    assert one["run"]["shard"] == {"index": 1, "count": 2, "scenarios": ["s_a", "s_c"], "of": 3}
    # Each shard plans its statistics for the whole run's family of 3 gated comparisons.
    assert one["run"]["options"]["gated_comparisons"] == 3 and two["run"]["options"]["gated_comparisons"] == 3


def test_merge_joins_shards_into_one_results_file(perfgate, shards, validate):
    tmp, _, _ = shards
    r = perfgate("merge", tmp / "shard2.json", tmp / "shard1.json", "-o", tmp / "merged.json")
    assert r.returncode == 0, r.stdout + r.stderr
    doc = validate(tmp / "merged.json")
    assert sorted(s["name"] for s in doc["scenarios"]) == ["s_a", "s_b", "s_c"]
    assert len(doc["run"]["merged_from"]) == 2
    assert all(s["merged_from"]["shard"]["count"] == 2 for s in doc["scenarios"])
    assert doc["outcome"]["status"] == "passed"
    report = perfgate("compare", tmp / "merged.json", tmp / "merged.json")
    assert report.returncode == 0 and "s_b/after" in report.stdout
    assert doc["run"]["seed"] == 9 and doc["run"]["reproduce"].split()[1] == "merge"


def test_a_sharded_scenarios_reproduce_line_runs_that_scenario(perfgate, shards, validate):
    tmp, _, _ = shards
    s_b = validate(tmp / "shard2.json")["scenarios"][0]
    assert s_b["name"] == "s_b" and "--shard" not in s_b["reproduce"], s_b["reproduce"]
    words = shlex.split(s_b["reproduce"])
    words[words.index("--json") + 1] = str(tmp / "again.json")
    r = subprocess.run(words, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    assert [s["name"] for s in validate(tmp / "again.json")["scenarios"]] == ["s_b"]


def test_a_merge_of_shards_with_different_seeds_has_no_seed_of_its_own(perfgate, shards, validate):
    tmp, _, _ = shards
    other = json.loads((tmp / "shard2.json").read_text())
    other["run"]["seed"] = 10
    (tmp / "shard2-seed10.json").write_text(json.dumps(other))
    r = perfgate("merge", tmp / "shard1.json", tmp / "shard2-seed10.json", "-o", tmp / "merged-seeds.json")
    assert r.returncode == 0, r.stdout + r.stderr
    doc = validate(tmp / "merged-seeds.json")
    assert doc["run"]["seed"] is None
    r = perfgate("report", tmp / "merged-seeds.json", "-o", tmp / "merged-report")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "seeds per shard" in (tmp / "merged-report" / "report.md").read_text()


def test_merge_refuses_missing_duplicate_and_malformed_shards(perfgate, shards):
    tmp, _, _ = shards
    out = tmp / "refused.json"
    r = perfgate("merge", tmp / "shard1.json", "-o", out)
    assert r.returncode == 2 and "shards 2/2 are missing" in r.stderr
    r = perfgate("merge", tmp / "shard1.json", tmp / "shard1.json", "-o", out)
    assert r.returncode == 2 and "given twice" in r.stderr
    bad = tmp / "bad.json"
    bad.write_text("[]")
    r = perfgate("merge", tmp / "shard1.json", bad, "-o", out)
    assert r.returncode == 2 and "must be an object" in r.stderr
    assert not out.exists()
    r = perfgate("merge", tmp / "shard1.json", "--allow-partial", "-o", out)
    assert r.returncode == 0 and out.exists()


@pytest.mark.parametrize("field, change, message", [
    ("run.profile", lambda d: d["run"].update(profile="full"), 'run.profile: "full" differs from the first file\'s "quick"'),
    ("run.shard.of", lambda d: d["run"]["shard"].update(of=4), "run.shard.of: 4 planned scenarios, the first file's 3"),
    ("run.shard", lambda d: d["run"].pop("shard"), "run.shard: not a shard (run --shard i/n)"),
    ("run.against", lambda d: d["run"].update(against={"dir": "../main-tree", "catalog": "../main-tree/build/share/perfgate/scenarios"}), "run.against: an --against run"),
])
def test_merge_refuses_shards_of_another_plan(perfgate, shards, field, change, message):
    """Shards of one plan only (issue 23): a `full` shard with a `quick` one, a shard planned with
    another family size (it breaks the Holm guarantee), a non-shard or an --against run."""
    tmp, _, _ = shards
    doc = json.loads((tmp / "shard2.json").read_text())
    change(doc)
    other = tmp / "other.json"
    other.write_text(json.dumps(doc))
    out = tmp / "mixed.json"
    r = perfgate("merge", tmp / "shard1.json", other, "-o", out, "--allow-partial")
    assert r.returncode == 2, (field, r.stdout, r.stderr)
    assert "other.json: " + message in r.stderr, r.stderr
    assert not out.exists()


def test_bad_shard_is_exit_2(perfgate, shards):
    _, catalog, _ = shards
    for bad in ("3/2", "0/2", "x"):
        r = perfgate("run", "--catalog", catalog, "--shard", bad)
        assert r.returncode == 2 and "--shard" in r.stderr


def test_merge_refuses_against_shards_of_different_base_commits(perfgate, shards):
    """Shards of one PR gate compare against one base build: two --against shards whose base
    commits differ are two comparisons, not one."""
    tmp, _, _ = shards
    for i, commit in ((1, "a" * 40), (2, "b" * 40)):
        doc = json.loads((tmp / f"shard{i}.json").read_text())
        doc["run"]["against"] = {"dir": "../base", "catalog": "../base/build/share/perfgate/scenarios",
                                 "git": {"commit": commit}}
        (tmp / f"against{i}.json").write_text(json.dumps(doc))
    r = perfgate("merge", tmp / "against1.json", tmp / "against2.json", "-o", tmp / "m.json")
    assert r.returncode == 2, r.stdout + r.stderr
    assert "against2.json: run.against.git.commit: \"" + "b" * 40 in r.stderr, r.stderr
    same = json.loads((tmp / "against2.json").read_text())
    same["run"]["against"]["git"]["commit"] = "a" * 40
    (tmp / "against2.json").write_text(json.dumps(same))
    r = perfgate("merge", tmp / "against1.json", tmp / "against2.json", "-o", tmp / "m.json")
    assert r.returncode == 0, r.stdout + r.stderr
