"""`perfgate bisect --layouts K` (issue 50 step 3): every commit of a scratch history built in K
layouts (its own worktree per commit and seed, CC through perfgate-layout-cc), each step decided
over the layout pairs (stats/layouts.hpp). The history: commit 3 only adds an unused function in
front of the hot loop (the code moves, nothing computed changes), commit 5 adds 8% work. Builds
are real (make with the launcher); what the scripted tests decide rides on per-layout offsets."""
import json
import pathlib
import subprocess

ROOT = pathlib.Path(__file__).resolve().parents[2]

PROG = r"""#include <stdio.h>
#include "work.h"
#if UNUSED
__attribute__((noinline, used)) unsigned long long unused_pad(unsigned long long v) { return v * 2654435761u + 7; }
#endif
__attribute__((noinline)) static unsigned long long hot(long n) {
  unsigned long long x = 88172645463325252ULL, sum = 0;
  for (long i = 0; i < n; ++i) { x ^= x << 13; x ^= x >> 7; x ^= x << 17; sum += x & 1; }
  return sum;
}
int main(void) {
  const long n = 40000000L + 40000000L * EXTRA_PERMILLE / 1000;
  volatile unsigned long long sink = hot(n);
  (void)sink;
  puts("same");
  return 0;
}
"""
MAKEFILE = "prog: prog.c work.h\n\t$(CC) -O2 -o prog prog.c\n"


def git(repo, *args):
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True).stdout.strip()


def make_repo(path):
    """Commits 1..6, subject "commit K": UNUSED from commit 3, EXTRA_PERMILLE 80 from commit 5."""
    path.mkdir()
    git(path, "init", "-q", "-b", "main")
    git(path, "config", "user.email", "t@example.com")
    git(path, "config", "user.name", "t")
    (path / "prog.c").write_text(PROG)
    (path / "Makefile").write_text(MAKEFILE)
    shas = []
    for k in range(1, 7):
        extra, unused = (80 if k >= 5 else 0), (1 if k >= 3 else 0)
        (path / "work.h").write_text(f"/* commit {k} */\n#define EXTRA_PERMILLE {extra}\n#define UNUSED {unused}\n")
        git(path, "add", "-A")
        git(path, "commit", "-q", "-m", f"commit {k}")
        shas.append(git(path, "rev-parse", "HEAD"))
    return shas


def script(tmp_path, moved):
    """cpu_ms per commit: 100 ms, +8% from commit 5; layout offsets `moved` from commit 3 (the
    unused function), quiet ones before it."""
    before = [0.001, -0.001, 0.002, -0.002]
    s = {}
    for k in range(1, 7):
        s[f"commit {k}"] = {"cpu_ms": {"median": 100 * (1.08 if k >= 5 else 1), "spread": 0.004,
                                       "layouts": moved if k >= 3 else before}}
    f = tmp_path / "script.json"
    f.write_text(json.dumps(s))
    return f


def bisect(perfgate, repo, shas, tmp_path, *extra):
    return perfgate("bisect", "--repo", repo, "--good", shas[0], "--bad", shas[-1], "--build", "make",
                    "--cache", tmp_path / "cache", "--json", tmp_path / "bisect.json", "--seed", "3",
                    "--metric", "cpu_ms", "--layouts", "4", *extra, "--", "./prog", timeout=1200)


def result(tmp_path):
    return json.loads((tmp_path / "bisect.json").read_text())["bisect"]


def verdicts(b, shas):
    return {shas.index(s["sha"]) + 1: s["verdict"] for s in b["steps"]}


def test_quiet_layouts_name_the_later_commit_and_every_layout_is_its_own_build(perfgate, tmp_path):
    repo = tmp_path / "repo"
    shas = make_repo(repo)
    r = bisect(perfgate, repo, shas, tmp_path, "--debug-samples",
               script(tmp_path, [-0.002, 0.001, 0.0, 0.002]))
    assert r.returncode == 0, r.stdout + r.stderr
    b = result(tmp_path)
    assert b["first_slower"] == shas[4], r.stdout
    assert verdicts(b, shas).get(3) in (None, "not slower"), r.stdout
    assert b["layouts"] == 4 and "over 4 layouts of each commit" in r.stdout
    # A worktree and a build per (commit, seed), each compiled through the launcher with its seed.
    for k in range(1, 5):
        tree = tmp_path / "cache" / f"{shas[0]}-layout-{k}"
        assert (tree / "tree" / "prog").exists()
        assert "perfgate-layout-cc" in (tree / "build.log").read_text()


def test_an_unused_function_that_moves_one_layout_five_percent_is_never_called_slower(perfgate, tmp_path):
    # On layout 1 alone commit 3 reads 5% slower than commit 1: a single-layout bisect would name
    # it. Over four layouts its moves average out; it is not called slower.
    repo = tmp_path / "repo"
    shas = make_repo(repo)
    r = bisect(perfgate, repo, shas, tmp_path, "--debug-samples",
               script(tmp_path, [0.051, -0.019, -0.02, -0.012]))
    assert r.returncode == 0, r.stdout + r.stderr
    b = result(tmp_path)
    v = verdicts(b, shas)
    assert all(v.get(k) != "slower" for k in (2, 3, 4)), r.stdout
    assert b["first_slower"] != shas[2] and b["first_slower"] in (shas[4], None), r.stdout
    if b["first_slower"] is None:
        assert shas[4] in b["candidates"], r.stdout


def test_layouts_with_a_scenario_is_exit_2(perfgate, tmp_path):
    r = perfgate("bisect", "--good", "HEAD~1", "--build", "true", "--layouts", "4", "--scenario", "x", cwd=tmp_path)
    assert r.returncode == 2 and "--layouts" in r.stderr, r.stderr


def test_real_timing_never_blames_the_unused_function(perfgate, tmp_path):
    """Once on this machine's clock (real builds, real rounds): commit 5's +8% is found over four
    layouts, and commits 2 to 4 (the unused function among them) are never called slower."""
    repo = tmp_path / "repo"
    shas = make_repo(repo)
    r = bisect(perfgate, repo, shas, tmp_path, "--layout-rounds", "5")
    assert r.returncode == 0, r.stdout + r.stderr
    b = result(tmp_path)
    v = verdicts(b, shas)
    assert all(v.get(k) != "slower" for k in (2, 3, 4)), r.stdout
    assert b["first_slower"] == shas[4] or shas[4] in b["candidates"], r.stdout
