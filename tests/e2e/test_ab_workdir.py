"""`perfgate ab` runs the user's commands in the user's folder (issue 26): relative paths, `./prog`
with and without --shell, --workdir DIR, and --isolate's fresh folder per sample."""
import json
import os
import subprocess

import pytest

# These tests are about where commands run, not verdicts on a loaded machine: wall time gated over
# 3 rounds, where the signed-rank test cannot reject (p >= 2/2^3) and wall time, being gated, has
# no guard, so a pair that runs passes whatever the timing.
FEW = ("--min-rounds", "3", "--max-rounds", "3", "--warmup", "0", "--metric", "wall_ms", "--quiet")


@pytest.fixture
def folder(tmp_path):
    d = tmp_path / "project"
    d.mkdir()
    (d / "data.txt").write_text("".join(f"line {i}\n" for i in range(2000)))
    prog = d / "prog"
    prog.write_text("#!/bin/sh\nwc -l < data.txt\n")
    prog.chmod(0o755)
    return d


def test_zstd_on_a_file_of_the_callers_folder_exits_0(perfgate, folder, tmp_path, validate):
    subprocess.run(["zstd", "-q", "-19", "data.txt", "-o", "f.zst"], cwd=folder, check=True)
    r = perfgate("ab", "--before", "zstd -dc f.zst", "--after", "zstd -dc f.zst", "--json", tmp_path / "r.json",
                 *FEW, cwd=folder)
    assert r.returncode == 0, r.stdout + r.stderr
    s = validate(tmp_path / "r.json")["scenarios"][0]
    assert s["workdirs"] == {"before": str(folder), "after": str(folder)}


def test_pwd_through_the_shell_is_the_same_folder_for_both(perfgate, folder, tmp_path):
    r = perfgate("ab", "--shell", "--before", "pwd", "--after", "pwd", "--json", tmp_path / "r.json", *FEW,
                 cwd=folder)
    assert r.returncode == 0, r.stdout + r.stderr
    eq = [g for g in json.loads((tmp_path / "r.json").read_text())["scenarios"][0]["gates"]
          if g["kind"] == "equivalence"][0]
    assert eq["outcome"] == "passed"


@pytest.mark.parametrize("shell", [[], ["--shell"]])
def test_dot_slash_prog_resolves_in_the_folder_with_and_without_shell(perfgate, folder, tmp_path, shell):
    r = perfgate("ab", *shell, "--before", "./prog", "--after", "./prog", "--json", tmp_path / "r.json", *FEW,
                 cwd=folder)
    assert r.returncode == 0, r.stdout + r.stderr


@pytest.mark.parametrize("shell", [[], ["--shell"]])
def test_workdir_chooses_the_folder_from_elsewhere(perfgate, folder, tmp_path, shell):
    r = perfgate("ab", *shell, "--workdir", folder, "--before", "./prog", "--after", "cat data.txt",
                 "--json", tmp_path / "r.json", *FEW, cwd=tmp_path)
    # Same folder, different output: the two commands did run there (exit 3 names the line).
    assert r.returncode == 3, r.stdout + r.stderr
    assert "first differing line 1" in r.stderr
    r = perfgate("ab", *shell, "--workdir", folder, "--before", "./prog", "--after", "./prog",
                 "--json", tmp_path / "r.json", *FEW, cwd=tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr


def test_isolate_runs_each_sample_in_a_fresh_folder(perfgate, folder, tmp_path):
    r = perfgate("ab", "--isolate", "--before", "cat data.txt", "--after", "cat data.txt",
                 "--json", tmp_path / "r.json", *FEW, cwd=folder)
    assert r.returncode == 4, r.stdout + r.stderr
    assert "No such file" in r.stderr
    r = perfgate("ab", "--isolate", "--shell", "--before", "pwd", "--after", "pwd",
                 "--json", tmp_path / "r.json", *FEW, cwd=folder)
    assert r.returncode == 3, r.stdout + r.stderr
    assert "workdirs" not in json.loads((tmp_path / "r.json").read_text())["scenarios"][0]


def test_isolate_is_explained_in_help(perfgate):
    out = perfgate("ab", "--help").stdout
    assert "--isolate" in out and "relative paths" in out and "--workdir" in out


@pytest.mark.parametrize("args, words", [
    (["--workdir", "/nonexistent/folder"], "not a folder"),
    (["--workdir", "/tmp", "--isolate"], "choose one"),
])
def test_bad_workdir_is_usage_error(perfgate, args, words, tmp_path):
    r = perfgate("ab", *args, "--before", "true", "--after", "true", "--json", tmp_path / "r.json")
    assert r.returncode == 2, r.stdout + r.stderr
    assert words in r.stderr
    assert not (tmp_path / "r.json").exists()


def test_missing_dot_slash_program_names_the_folder(perfgate, folder, tmp_path):
    r = perfgate("ab", "--workdir", folder, "--before", "./nothere", "--after", "./prog", cwd=tmp_path)
    assert r.returncode == 2, r.stdout + r.stderr
    assert "./nothere" in r.stderr and str(folder) in r.stderr


def test_a_run_that_could_not_start_claims_no_pass_and_no_metric(perfgate, folder, tmp_path):
    r = perfgate("ab", "--before", "cat nothere.txt", "--after", "cat nothere.txt", "--json", tmp_path / "r.json",
                 cwd=folder)
    assert r.returncode == 4, r.stdout + r.stderr
    assert "No such file" in r.stderr
    same_work = [l for l in r.stdout.splitlines() if "same work" in l]
    assert same_work and "PASS" not in same_work[0]
    assert "gated wall_ms" not in r.stdout and "metric_choice" not in json.loads((tmp_path / "r.json").read_text())["scenarios"][0]


def test_programs_at_paths_of_different_lengths_run_under_one_length(perfgate, tmp_path):
    # A program's path is in its argv[0] and memory; a byte copy at a longer path must not be
    # another program. Bash's $BASH is the path it was started by: its length is the same for both.
    for d in ("a", "a-folder-with-a-much-longer-name"):
        (tmp_path / d).mkdir()
        (tmp_path / d / "bash").write_bytes(open("/bin/bash", "rb").read())
        (tmp_path / d / "bash").chmod(0o755)
    r = perfgate("ab", "--before", "./a/bash -c 'echo ${#BASH}'",
                 "--after", f"{tmp_path}/a-folder-with-a-much-longer-name/bash -c 'echo ${{#BASH}}'",
                 "--json", tmp_path / "r.json", *FEW, cwd=tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    s = json.loads((tmp_path / "r.json").read_text())["scenarios"][0]
    assert s["commands"]["before"][0] == "./a/bash"  # the command as typed, in the results
