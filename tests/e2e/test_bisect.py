"""`perfgate bisect` over a scratch git repository of a small C program with 16 commits (issue
29): commit 11 adds 8% work, commit 5 adds 0.5% (inside the 2% band), the rest change a comment.
Builds are real (make in a worktree per tested commit); what each step decides rides on scripted
samples (--debug-samples: commit subject -> that build's samples), except one real-timing run."""
import json
import pathlib
import signal
import sys
import subprocess
import time

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
PERFGATE = ROOT / "build" / "bin" / "perfgate"

PROG = r"""#include <stdio.h>
#include "work.h"
int main(void) {
  unsigned long long x = 88172645463325252ULL, sum = 0;
  const long n = 12000000L + 12000000L * EXTRA_PERMILLE / 1000;
  for (long i = 0; i < n; ++i) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    sum += x & 1;
  }
  volatile unsigned long long sink = sum;
  (void)sink;
  puts(OUTPUT);
  return 0;
}
"""
MAKEFILE = "prog: prog.c work.h\n\tcc -O2 -o prog prog.c\n"


def git(repo, *args):
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True).stdout.strip()


def make_repo(path, *, output_from=None, broken=None):
    """Commits 1..16, subject "commit K". EXTRA_PERMILLE: 5 from commit 5, 85 from commit 11;
    OUTPUT changes from `output_from`; commit `broken` does not compile (fixed by the next)."""
    path.mkdir()
    git(path, "init", "-q", "-b", "main")
    git(path, "config", "user.email", "t@example.com")
    git(path, "config", "user.name", "t")
    (path / "prog.c").write_text(PROG)
    (path / "Makefile").write_text(MAKEFILE)
    shas = []
    for k in range(1, 17):
        extra = 85 if k >= 11 else 5 if k >= 5 else 0
        out = '"changed"' if output_from and k >= output_from else '"same"'
        body = f"/* commit {k} */\n#define EXTRA_PERMILLE {extra}\n#define OUTPUT {out}\n"
        if k == broken:
            body += "#error this commit does not build\n"
        (path / "work.h").write_text(body)
        git(path, "add", "-A")
        git(path, "commit", "-q", "-m", f"commit {k}")
        shas.append(git(path, "rev-parse", "HEAD"))
    return shas


def script(tmp_path, slower_from=11, output_from=None):
    """cpu_ms of every commit's build: 40 ms, +0.5% from commit 5, +8% more from `slower_from`."""
    s = {}
    for k in range(1, 17):
        median = 40.0 * (1.005 if k >= 5 else 1) * (1.08 if slower_from and k >= slower_from else 1)
        v = {"cpu_ms": {"median": median, "spread": 0.004}, "wall_ms": {"median": median + 1, "spread": 0.004}}
        if output_from and k >= output_from:
            v["digest"] = "changed"
        s[f"commit {k}"] = v
    f = tmp_path / "script.json"
    f.write_text(json.dumps(s))
    return f


def bisect(perfgate, repo, shas, tmp_path, *extra, script_file=None, name="bisect.json"):
    args = ["bisect", "--repo", repo, "--good", shas[0], "--bad", shas[-1], "--build", "make",
            "--cache", tmp_path / "cache", "--json", tmp_path / name, "--seed", "3", "--metric", "cpu_ms", *extra]
    if script_file:
        args += ["--debug-samples", script_file]
    return perfgate(*args, "--", "./prog", timeout=1200)


def result(tmp_path, name="bisect.json"):
    return json.loads((tmp_path / name).read_text())["bisect"]


def subject_of(b, sha):
    return next(c["subject"] for c in b["commits"] if c["sha"] == sha)


def test_names_commit_11_testing_at_most_six_commits_besides_good_and_bad(perfgate, tmp_path):
    repo = tmp_path / "repo"
    shas = make_repo(repo)
    r = bisect(perfgate, repo, shas, tmp_path, script_file=script(tmp_path))
    assert r.returncode == 0, r.stdout + r.stderr
    assert f"first slower commit: {shas[10]} commit 11 (ratio" in r.stdout, r.stdout
    b = result(tmp_path)
    assert b["first_slower"] == shas[10] and b["answer"] == "first slower"
    tested = {s["sha"] for s in b["steps"]} - {shas[0], shas[-1]}
    assert len(tested) <= 6, b["steps"]
    # commit 5's 0.5% is inside the band: never blamed, and every step says what it decided at which level.
    assert all(s["verdict"] in ("slower", "not slower") for s in b["steps"]), b["steps"]
    assert sum(s["alpha"] for s in b["steps"]) < 0.05


def test_hyperfines_default_shell_is_bin_sh(perfgate, tmp_path):
    # -S default runs each step's command with /bin/sh -c, as hyperfine's default shell does
    # (it once ran a program named "default"); the pipe needs a shell.
    repo = tmp_path / "repo"
    shas = make_repo(repo)
    r = perfgate("bisect", "--repo", repo, "--good", shas[0], "--bad", shas[-1], "--build", "make",
                 "--cache", tmp_path / "cache", "--json", tmp_path / "bisect.json", "--seed", "3",
                 "--metric", "cpu_ms", "--debug-samples", script(tmp_path), "-S", "default", "--",
                 "./prog", "|", "cat", timeout=1200)
    assert r.returncode == 0, r.stdout + r.stderr
    assert result(tmp_path)["first_slower"] == shas[10], r.stdout


def test_every_commit_equal_says_there_is_no_slower_commit(perfgate, tmp_path):
    repo = tmp_path / "repo"
    shas = make_repo(repo)
    r = bisect(perfgate, repo, shas, tmp_path, script_file=script(tmp_path, slower_from=None))
    assert r.returncode == 0, r.stdout + r.stderr
    assert "no slower commit in the range" in r.stdout, r.stdout
    b = result(tmp_path)
    assert b["first_slower"] is None and [s["sha"] for s in b["steps"]] == [shas[-1]]


def test_an_output_change_at_commit_9_is_named_and_nothing_after_it_is_blamed(perfgate, tmp_path):
    repo = tmp_path / "repo"
    shas = make_repo(repo, output_from=9)
    r = bisect(perfgate, repo, shas, tmp_path, script_file=script(tmp_path, output_from=9))
    assert r.returncode == 0, r.stdout + r.stderr
    assert f"changed behaviour at {shas[8][:12]} commit 9" in r.stdout, r.stdout
    b = result(tmp_path)
    assert b["changed_behaviour_at"] == shas[8]
    assert b["first_slower"] is None, b
    assert "no slower commit before the behaviour change" in r.stdout


def test_a_midpoint_that_does_not_build_is_skipped_and_commit_11_still_found(perfgate, tmp_path):
    repo = tmp_path / "repo"
    shas = make_repo(repo, broken=8)  # index 7: the first midpoint of 0..15
    r = bisect(perfgate, repo, shas, tmp_path, script_file=script(tmp_path))
    assert r.returncode == 0, r.stdout + r.stderr
    assert f"skipped {shas[7][:12]} commit 8: the build failed" in r.stdout, r.stdout
    assert f"first slower commit: {shas[10]} commit 11" in r.stdout, r.stdout
    b = result(tmp_path)
    assert shas[7] in b["build_failures"]
    log = pathlib.Path(b["cache"]) / shas[7] / "build.log"
    assert "this commit does not build" in log.read_text()


def test_bad_usage_is_exit_2_naming_what(perfgate, tmp_path):
    repo = tmp_path / "repo"
    shas = make_repo(repo)
    r = perfgate("bisect", "--repo", repo, "--good", shas[5], "--bad", shas[2], "--build", "make", "--", "./prog")
    assert r.returncode == 2 and "--good" in r.stderr, r.stderr
    r = perfgate("bisect", "--repo", repo, "--good", "nope", "--bad", shas[2], "--build", "make", "--", "./prog")
    assert r.returncode == 2 and "--good nope: not a commit" in r.stderr, r.stderr
    r = perfgate("bisect", "--repo", repo, "--good", shas[0], "--bad", shas[2], "--", "./prog")
    assert r.returncode == 2 and "--build" in r.stderr, r.stderr


def test_the_report_plots_the_ratio_over_the_tested_commits(perfgate, tmp_path):
    repo = tmp_path / "repo"
    shas = make_repo(repo)
    assert bisect(perfgate, repo, shas, tmp_path, script_file=script(tmp_path)).returncode == 0
    r = perfgate("report", tmp_path / "bisect.json", "-o", tmp_path / "rep")
    assert r.returncode == 0, r.stdout + r.stderr
    md = (tmp_path / "rep" / "bisect.md").read_text()
    assert f"first slower commit: `{shas[10][:12]}` commit 11" in md
    assert (tmp_path / "rep" / "plots" / "bisect-ratio.png").stat().st_size > 1000


def test_real_timing_names_commit_11(perfgate, tmp_path):
    """Once on this machine's clock: 12M xorshift steps (~15-30 ms), +8% at commit 11."""
    repo = tmp_path / "repo"
    shas = make_repo(repo)
    r = bisect(perfgate, repo, shas, tmp_path, "--step-budget", "90")
    assert r.returncode == 0, r.stdout + r.stderr
    b = result(tmp_path)
    assert b["first_slower"] == shas[10] or shas[10] in b["candidates"], r.stdout


def test_ctrl_c_exits_130_and_a_second_run_reuses_the_worktrees(tmp_path):
    repo = tmp_path / "repo"
    shas = make_repo(repo)
    cache = tmp_path / "cache"
    args = [str(PERFGATE), "bisect", "--repo", str(repo), "--good", shas[0], "--bad", shas[-1], "--build", "make",
            "--cache", str(cache), "--json", str(tmp_path / "b.json"), "--metric", "cpu_ms", "--seed", "3", "--",
            "./prog"]
    p = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 300

    def timing():  # a step's first batch has begun writing its results file
        return (cache / "steps").exists() and any((cache / "steps").glob("*-b0.json"))

    while time.time() < deadline and p.poll() is None and not timing():
        time.sleep(0.1)
    if not timing() or p.poll() is not None:
        p.kill()
        pytest.fail("no step was timing while bisect ran: " + "".join(p.communicate()))
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=120)
    assert p.returncode == 130, out + err
    built = {d.name for d in cache.iterdir() if (d / "build.json").exists()}
    assert {shas[0], shas[-1]} <= built, built
    again = subprocess.run(args, capture_output=True, text=True, timeout=1200)
    assert again.returncode == 0, again.stdout + again.stderr
    assert "build(s) reused" in again.stdout, again.stdout


def test_a_scenario_of_the_catalog_each_commit_holds(perfgate, burn, tmp_path):
    """--scenario: each tested commit's catalog (perf/ in its worktree) is planned as `run
    --against` plans it, the good commit's AFTER as BEFORE; commit 6 of 8 makes AFTER burn 12%
    more, and the scripted samples say so (commit subject -> that build's figures)."""
    sys.path.insert(0, str(pathlib.Path(__file__).parent))
    from spin_catalog import WORK, add_scenario

    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    git(repo, "config", "user.email", "t@example.com")
    git(repo, "config", "user.name", "t")
    shas = []
    for k in range(1, 9):
        after = int(WORK * (1.12 if k >= 6 else 1))
        add_scenario(repo / "perf", burn, before=after, after=after, policy="no-regress")
        git(repo, "add", "-A")
        git(repo, "commit", "-q", "--allow-empty", "-m", f"commit {k}")
        shas.append(git(repo, "rev-parse", "HEAD"))
    samples = tmp_path / "script.json"
    samples.write_text(json.dumps({f"commit {k}": {"cpu_ms": {"median": 40 * (1.12 if k >= 6 else 1), "spread": 0.004},
                                                   "wall_ms": {"median": 41 * (1.12 if k >= 6 else 1), "spread": 0.004}}
                                   for k in range(1, 9)}))
    r = perfgate("bisect", "--repo", repo, "--good", shas[0], "--bad", shas[-1], "--build", "true",
                 "--scenario", "spin", "--catalog", "perf", "--metric", "cpu_ms", "--seed", "5",
                 "--cache", tmp_path / "cache", "--json", tmp_path / "b.json", "--debug-samples", samples, timeout=1200)
    assert r.returncode == 0, r.stdout + r.stderr
    b = result(tmp_path, "b.json")
    assert b["first_slower"] == shas[5] and b["answer"] == "first slower", b
    assert all(s["verdict"] in ("slower", "not slower") for s in b["steps"]), b["steps"]
