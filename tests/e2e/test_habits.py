"""The habits of compare.py and git bisect users (issue 41): `perfgate gbench OLD NEW` in
compare.py's order, `perfgate bisect` with bad defaulting to HEAD and a hint when good and bad
are swapped, and messages that start with `perfgate:` once. Builds and binaries are real; the
samples are scripted (--debug-samples), so nothing here rides on timing."""
import json
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from test_bisect import make_repo, script as bisect_script  # noqa: E402
from test_gbench import tool  # noqa: E402
from test_gbench_decides import SAME, script as gbench_script  # noqa: E402


def one_prefix(stderr):
    first = stderr.splitlines()[0]
    assert first.startswith("perfgate: ") and first.count("perfgate:") == 1, stderr
    words = first.split(": ")
    assert all(a != b for a, b in zip(words, words[1:])), f"a doubled prefix: {first}"
    return first


def test_gbench_takes_old_and_new_in_compare_py_order(perfgate, tmp_path):
    s = gbench_script(tmp_path / "s.json", SAME, SAME)
    r = perfgate("gbench", tool("gbench_a"), tool("gbench_b"), "--debug-samples", s, "--seed", "3",
                 "--json", tmp_path / "r.json", cwd=tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    commands = json.loads((tmp_path / "r.json").read_text())["scenarios"][0]["commands"]
    assert commands["before"][0].endswith("gbench_a") and commands["after"][0].endswith("gbench_b")


def test_gbench_with_one_binary_says_both_orders(perfgate, tmp_path):
    r = perfgate("gbench", tool("gbench_a"), cwd=tmp_path)
    assert r.returncode == 2
    assert "perfgate gbench OLD NEW" in one_prefix(r.stderr)


def test_gbench_says_gbench_once(perfgate, tmp_path):
    r = perfgate("gbench", tool("gbench_a"), tool("wordfreq_v1"), cwd=tmp_path)
    assert r.returncode == 2
    assert "share no benchmark" in one_prefix(r.stderr)


def bisect(perfgate, repo, tmp_path, *revs):
    return perfgate("bisect", "--repo", repo, *revs, "--build", "make", "--cache", tmp_path / "cache",
                    "--json", tmp_path / "b.json", "--seed", "3", "--metric", "cpu_ms",
                    "--debug-samples", bisect_script(tmp_path), "--", "./prog", timeout=1200)


def test_bisect_bad_defaults_to_head_and_one_commit_is_one(perfgate, tmp_path):
    repo = tmp_path / "repo"
    shas = make_repo(repo)
    r = bisect(perfgate, repo, tmp_path, "--good", shas[-2])
    assert r.returncode == 0, r.stdout + r.stderr
    assert json.loads((tmp_path / "b.json").read_text())["bisect"]["bad"] == shas[-1]
    assert "bisect: 1 commit after" in r.stdout, r.stdout


def test_bisect_hints_that_good_and_bad_are_swapped(perfgate, tmp_path):
    repo = tmp_path / "repo"
    shas = make_repo(repo)
    r = bisect(perfgate, repo, tmp_path, "--good", shas[5], "--bad", shas[2])
    assert r.returncode == 2
    assert "good and bad look swapped" in one_prefix(r.stderr)


def test_bisect_without_good_and_an_unknown_commit(perfgate, tmp_path):
    repo = tmp_path / "repo"
    make_repo(repo)
    r = bisect(perfgate, repo, tmp_path)
    assert r.returncode == 2
    assert "needs --good REV" in one_prefix(r.stderr)
    r = bisect(perfgate, repo, tmp_path, "--good", "nope")
    assert r.returncode == 2
    assert f"not a commit of {repo}" in one_prefix(r.stderr)


def test_gbench_old_new_then_arguments_after_the_separator(perfgate, tmp_path):
    """docs/gbench.md's form (issue 47): OLD NEW -- ARGS, the arguments going to both binaries."""
    s = gbench_script(tmp_path / "s.json", SAME, SAME)
    r = perfgate("gbench", tool("gbench_a"), tool("gbench_b"), "--debug-samples", s, "--seed", "3",
                 "--json", tmp_path / "r.json", "--", "--benchmark_filter=BM_Hash", cwd=tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    scenario = json.loads((tmp_path / "r.json").read_text())["scenarios"][0]
    assert scenario["params"]["args"] == ["--benchmark_filter=BM_Hash"], scenario["params"]
    assert scenario["commands"]["before"][0].endswith("gbench_a")
    assert "--benchmark_filter=BM_Hash" in scenario["commands"]["after"], scenario["commands"]


def test_bisect_says_where_it_keeps_things_and_leaves_git_status_clean(perfgate, tmp_path):
    """Issue 47: the worktrees stay for a rerun, and the output names their folder and the command
    that removes them; bisect.json's folder in the working tree is kept out of `git status`."""
    import subprocess
    repo = tmp_path / "repo"
    shas = make_repo(repo)
    r = perfgate("bisect", "--good", shas[-3], "--build", "make", "--cache", tmp_path / "cache", "--seed", "3",
                 "--metric", "cpu_ms", "--debug-samples", bisect_script(tmp_path), "--", "./prog", cwd=repo,
                 timeout=1200)
    assert r.returncode == 0, r.stdout + r.stderr
    assert (repo / "perfgate-out" / "bisect.json").exists()
    status = subprocess.run(["git", "status", "--porcelain"], cwd=repo, capture_output=True, text=True).stdout
    assert status == "", status
    kept = f"perfgate: worktrees and builds of 2 commit(s) are kept in {tmp_path / 'cache'} for the next run; " \
           f"`perfgate bisect --clean --cache {tmp_path / 'cache'}` removes them"
    assert kept in r.stdout, r.stdout
    clean = perfgate("bisect", "--clean", "--cache", tmp_path / "cache", cwd=repo)
    assert clean.returncode == 0, clean.stdout + clean.stderr
    worktrees = subprocess.run(["git", "worktree", "list"], cwd=repo, capture_output=True, text=True).stdout
    assert len(worktrees.splitlines()) == 1, worktrees
