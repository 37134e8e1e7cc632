"""`perfgate ab --rev-before A --rev-after B --build CMD [--layouts K] COMMAND` (issue 50 step 4):
two revisions of the user's repository, each built in bisect's worktrees (per layout seed with
--layouts, CC and CXX through perfgate-layout-cc), and one verdict. Real builds with make and with
CMake, real timing of a change large enough (+40% work) to be decided on any machine."""
import json
import pathlib
import subprocess

PROG = r"""#include <stdio.h>
#include "work.h"
__attribute__((noinline)) static unsigned long long hot(long n) {
  unsigned long long x = 88172645463325252ULL, sum = 0;
  for (long i = 0; i < n; ++i) { x ^= x << 13; x ^= x >> 7; x ^= x << 17; sum += x & 1; }
  return sum;
}
int main(void) {
  volatile unsigned long long sink = hot(WORK);
  (void)sink;
  puts(OUTPUT);
  return 0;
}
"""
MAKEFILE = "prog: prog.c work.h\n\t$(CC) -O2 -o prog prog.c\n"
CMAKELISTS = "cmake_minimum_required(VERSION 3.16)\nproject(p C)\nadd_executable(prog prog.c)\n"
CMAKE_BUILD = "cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build build"


def git(repo, *args):
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True).stdout.strip()


def work_h(work, output='"same"'):
    return f"#define WORK {work}L\n#define OUTPUT {output}\n"


def make_repo(path, build_file, build_text):
    """Two commits: 20M steps, then 28M (+40% work); the same output."""
    path.mkdir()
    git(path, "init", "-q", "-b", "main")
    git(path, "config", "user.email", "t@example.com")
    git(path, "config", "user.name", "t")
    (path / "prog.c").write_text(PROG)
    (path / build_file).write_text(build_text)
    for work in (20000000, 28000000):
        (path / "work.h").write_text(work_h(work))
        git(path, "add", "-A")
        git(path, "commit", "-q", "-m", f"work {work}")
    return path


def ab(perfgate, tmp_path, repo, *args):
    return perfgate("ab", "--repo", repo, "--cache", tmp_path / "cache", "--metric", "cpu_ms", *args,
                    cwd=tmp_path, env={"PERFGATE_CANNOT_TELL": "fail"}, timeout=900)


def layouts_doc(tmp_path):
    return json.loads((tmp_path / "perfgate-out" / "layouts.json").read_text())["layouts"]


def main_address(binary):
    """Where main starts: the layouts move it (nm's address of `main`)."""
    out = subprocess.run(["nm", binary], capture_output=True, text=True, check=True).stdout
    return next(line.split()[0] for line in out.splitlines() if line.endswith(" T main"))


def check_layout_builds(cache, binary, through_launcher):
    """Eight builds (two revisions x four seeds), each through perfgate-layout-cc, in more than one layout."""
    trees = sorted(cache.glob(f"*-layout-*/tree/{binary}"))
    assert len(trees) == 8, trees
    for t in trees:
        assert "perfgate-layout-cc" in through_launcher(t), t
    assert len({main_address(t) for t in trees}) > 1


def test_a_make_project_over_four_layouts(perfgate, tmp_path):
    repo = make_repo(tmp_path / "repo", "Makefile", MAKEFILE)
    r = ab(perfgate, tmp_path, repo, "--rev-before", "HEAD~1", "--rev-after", "HEAD", "--build", "make",
           "--layouts", "4", "./prog")
    assert r.returncode == 1, r.stdout + r.stderr
    doc = layouts_doc(tmp_path)
    assert doc["effect"]["verdict"] == "worse" and len(doc["runs"]) == 4
    assert 1.2 < doc["effect"]["ratio"] < 1.7, doc["effect"]
    # make echoes each command into the build's log, beside the worktree.
    check_layout_builds(tmp_path / "cache", "prog", lambda t: (t.parents[1] / "build.log").read_text())


def test_a_cmake_project_over_four_layouts(perfgate, tmp_path):
    repo = make_repo(tmp_path / "repo", "CMakeLists.txt", CMAKELISTS)
    r = ab(perfgate, tmp_path, repo, "--rev-before", "HEAD~1", "--rev-after", "HEAD", "--build", CMAKE_BUILD,
           "--layouts", "4", "./build/prog")
    assert r.returncode == 1, r.stdout + r.stderr
    assert layouts_doc(tmp_path)["effect"]["verdict"] == "worse"
    # CMake took the launcher as its compiler at the first configure of each layout's tree.
    check_layout_builds(tmp_path / "cache", "build/prog", lambda t: (t.parent / "CMakeCache.txt").read_text())


def test_the_work_tree_with_uncommitted_changes_is_the_after_side_and_stays_as_it_was(perfgate, tmp_path):
    repo = make_repo(tmp_path / "repo", "Makefile", MAKEFILE)
    (repo / "work.h").write_text(work_h(28000000, '"other"'))  # uncommitted: another output
    r = ab(perfgate, tmp_path, repo, "--rev-before", "HEAD", "--build", "make", "./prog")
    assert r.returncode == 3, r.stdout + r.stderr  # the uncommitted change was taken: its output differs
    assert "after = . (" in r.stderr
    assert git(repo, "status", "--porcelain") == "M work.h" and git(repo, "stash", "list") == ""


def test_without_layouts_one_build_of_each_revision_and_rev_dir_names_its_tree(perfgate, tmp_path):
    repo = make_repo(tmp_path / "repo", "Makefile", MAKEFILE)
    r = ab(perfgate, tmp_path, repo, "--rev-before", "HEAD~1", "--rev-after", "HEAD", "--build", "make",
           "--min-rounds", "6", "--max-rounds", "6", "{rev_dir}/prog")
    assert r.returncode == 1, r.stdout + r.stderr
    assert len(list((tmp_path / "cache").glob("*/tree/prog"))) == 2
    assert not list((tmp_path / "cache").glob("*-layout-*"))
    assert "perfgate-layout-cc" not in next((tmp_path / "cache").glob("*/build.log")).read_text()


def test_bad_revision_requests_are_exit_2(perfgate, tmp_path):
    repo = make_repo(tmp_path / "repo", "Makefile", MAKEFILE)
    r = ab(perfgate, tmp_path, repo, "--rev-before", "HEAD~1", "./prog")
    assert r.returncode == 2 and "--build" in r.stderr, r.stderr
    r = ab(perfgate, tmp_path, repo, "--rev-before", "nosuchrev", "--build", "make", "./prog")
    assert r.returncode == 2 and "revision nosuchrev names no commit" in r.stderr, r.stderr
    r = ab(perfgate, tmp_path, repo, "--build", "make", "./prog", "./prog")
    assert r.returncode == 2 and "--rev-before" in r.stderr, r.stderr


def test_a_revision_that_does_not_build_is_exit_4_naming_its_log(perfgate, tmp_path):
    repo = make_repo(tmp_path / "repo", "Makefile", MAKEFILE)
    r = ab(perfgate, tmp_path, repo, "--rev-before", "HEAD~1", "--rev-after", "HEAD", "--build", "false", "./prog")
    assert r.returncode == 4 and "does not build" in r.stderr and "build.log" in r.stderr, r.stderr
