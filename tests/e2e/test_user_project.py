"""A user's own project is the subject of a `--catalog` run: the results carry the commit of the
git repository holding the catalog (perfgate's own version and commit apart, as `perfgate`), the
run compares with baseline.json in the catalog folder, and `baseline update|check|show` of those
results default to that file. perfgate's bundled baseline is neither read nor written for it."""
import hashlib
import json
import os
import pathlib
import subprocess
import sys

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from conftest import BUILD  # noqa: E402
from spin_catalog import WORK, add_scenario  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[2]
BUNDLED = BUILD / "share" / "perfgate" / "baseline.json"


def git(repo, *args):
    return subprocess.run(["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@example.invalid", *args],
                          capture_output=True, text=True, check=True).stdout.strip()


def head(repo):
    r = subprocess.run(["git", "-C", str(repo), "rev-parse", "HEAD"], capture_output=True, text=True)
    return r.stdout.strip() if r.returncode == 0 else "unknown"


def digest(path):
    return hashlib.sha256(pathlib.Path(path).read_bytes()).hexdigest()


def tiny(catalog, burn):
    # Three rounds of a few ms each: no-regress, so no rank-test floor applies. Gated on the
    # program's own count of its work (exactly 0.5x in every round and run) with no wall guard,
    # so every run, baseline comparison and check below has one outcome, whatever the timing.
    add_scenario(catalog, burn, "wordfreq", before=WORK // 8, after=WORK // 16, rounds=3, policy="no-regress",
                 metric="work", guard={"metric": "none"})


@pytest.fixture(scope="module")
def project(perfgate, burn, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("project")
    repo = tmp / "wordfreq"
    catalog = repo / "perf"
    tiny(catalog, burn)
    git(repo, "init", "-q")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "wordfreq and its scenario")
    bundled = digest(BUNDLED)
    runs = {}
    for seed in (1, 2, 3):
        r = perfgate("run", "--catalog", catalog, "--seed", seed, "--json", tmp / f"r{seed}.json", "-q")
        assert r.returncode == 0, r.stdout + r.stderr
        runs[seed] = tmp / f"r{seed}.json"
    return dict(tmp=tmp, repo=repo, catalog=catalog, runs=runs, bundled=bundled, own=catalog / "baseline.json")


def test_the_results_record_the_projects_commit_and_perfgates_apart(project, validate):
    doc = validate(project["runs"][1])
    run = doc["run"]
    assert run["git"]["commit"] == head(project["repo"]) != "unknown"
    assert run["git"]["dirty"] is False
    assert run["perfgate"]["commit"] == head(ROOT)
    assert run["perfgate"]["version"]
    assert run["catalog"] == os.path.abspath(project["catalog"])
    assert run["baseline"]["file"] == str(project["own"]) and run["baseline"]["exists"] is False


def test_update_writes_the_projects_baseline_and_runs_then_compare_with_it(project, perfgate, validate):
    runs, own = project["runs"], project["own"]
    dry = perfgate("baseline", "update", "--dry-run", runs[1])
    assert dry.returncode == 0, dry.stdout + dry.stderr
    assert f"(dry run: {own} not written)" in dry.stdout and not own.exists()
    r = perfgate("baseline", "update", runs[1], runs[2], runs[3])
    assert r.returncode == 0, r.stdout + r.stderr
    assert f"wrote {own}" in r.stdout
    entry = json.loads(own.read_text())["entries"][0]
    assert entry["scenario"] == "wordfreq" and entry["commit"] == head(project["repo"])

    again = project["tmp"] / "again.json"
    r = perfgate("run", "--catalog", project["catalog"], "--seed", "4", "--json", again, "-q")
    assert r.returncode == 0, r.stdout + r.stderr
    doc = validate(again)
    assert doc["run"]["baseline"] == {"file": str(own), "exists": True, "tolerance": 0.05}
    view = doc["scenarios"][0]["baseline"][0]
    assert view["baseline"]["commit"] == head(project["repo"]), view  # the project's entry was found

    check = perfgate("baseline", "check", again)
    assert check.returncode == 0, check.stdout + check.stderr
    assert f"compared with {own}" in check.stderr and "wordfreq/quick/work" in check.stdout
    assert check.stdout.startswith("PASS"), check.stdout  # the same 0.5x as the three accepted runs
    show = perfgate("baseline", "show", again)
    assert show.returncode == 0 and f"1 entries in {own}" in show.stdout, show.stdout + show.stderr


def test_perfgates_bundled_baseline_is_untouched(project, perfgate):
    assert project["own"].exists(), "runs after the update test (file order)"
    assert digest(BUNDLED) == project["bundled"]  # the link to the committed baseline.json, byte for byte
    show = perfgate("baseline", "show")  # without a results file: still the bundled one
    assert show.returncode == 0 and f"entries in {BUNDLED}" in show.stdout, show.stdout + show.stderr


def test_results_of_a_catalog_that_is_not_here_name_no_default(project, perfgate, tmp_path):
    moved = json.loads(project["runs"][1].read_text())
    moved["run"]["catalog"] = str(tmp_path / "elsewhere")
    f = tmp_path / "moved.json"
    f.write_text(json.dumps(moved))
    r = perfgate("baseline", "update", "--dry-run", f)
    assert r.returncode == 2 and "is not here" in r.stderr and "--baseline FILE" in r.stderr, r.stderr


def test_a_catalog_outside_any_repository_records_an_unknown_commit(perfgate, burn, tmp_path):
    tiny(tmp_path / "loose", burn)
    r = perfgate("run", "--catalog", tmp_path / "loose", "--seed", "1", "--json", tmp_path / "r.json", "-q")
    assert r.returncode == 0, r.stdout + r.stderr
    run = json.loads((tmp_path / "r.json").read_text())["run"]
    assert run["git"]["commit"] == "unknown"
    assert run["perfgate"]["commit"] == head(ROOT)


def test_ab_records_the_working_folders_commit(project, perfgate, burn):
    cmd = f"{burn} {WORK // 16} same"
    out = project["tmp"] / "ab.json"
    # Wall time gated over 3 rounds: the signed-rank test cannot reject on 3 pairs, and the gated
    # metric is the wall guard's, so this run passes whatever the timing.
    r = perfgate("ab", "--before", cmd, "--after", cmd, "--metric", "wall_ms", "--min-rounds", "3", "--max-rounds", "3",
                 "--json", out, "-q", cwd=project["repo"])
    assert r.returncode == 0, r.stdout + r.stderr
    run = json.loads(out.read_text())["run"]
    assert run["git"]["commit"] == head(project["repo"])
    assert run["baseline"]["file"] is None  # ab still compares only when --baseline is given
    r = perfgate("baseline", "update", "--dry-run", out)
    assert r.returncode == 2 and "ab run has no default baseline" in r.stderr, r.stderr
