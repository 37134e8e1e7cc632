"""End-to-end tests of `perfgate ab`: a user's own pair of commands, gated from outside."""
import json
import os
import pathlib
import signal
import subprocess
import time

import pytest

# About 40 ms of CPU on this kind of machine: long enough to measure, short enough for CI.
WORK = 25_000_000
DECIDING = pathlib.Path(__file__).parent / "data" / "deciding"


def test_aa_pair_passes_under_no_regress(perfgate, tmp_path, validate):
    # Scripted A/A samples (data/deciding/aa.json): the verdict is the rules', not this machine's.
    r = perfgate("ab", "--before", "/bin/false", "--after", "/bin/false", "--debug-samples", DECIDING / "aa.json",
                 "--seed", "11", "--out", tmp_path, "--quiet")
    assert r.returncode == 0, r.stdout + r.stderr
    doc = validate(tmp_path / "results.json")
    s = doc["scenarios"][0]
    assert doc["outcome"]["status"] == "passed"
    assert s["policy"] == "no-regress"
    policy = [g for g in s["gates"] if g["kind"] == "policy"][0]
    assert policy["outcome"] == "passed"
    assert len([x for x in s["samples"] if not x["warmup"]]) >= 2 * 8


def test_after_with_30_percent_more_work_measures_about_1_3x_the_cpu(perfgate, burn, tmp_path, validate):
    """A real pair's CPU time, measured, and the answer five rounds earn: gated on wall time, where
    the one-sided signed-rank test cannot reject at 5 rounds (p >= 1/2^5 > 0.025), so the gate
    cannot tell (exit 5), never "no change"; --cannot-tell warn turns only the exit code to 0."""
    pair = ["ab", "--before", f"{burn} {WORK} same", "--after", f"{burn} {int(WORK * 1.3)} same",
            "--metric", "wall_ms", "--min-rounds", "5", "--max-rounds", "5", "--seed", "12"]
    r = perfgate(*pair, "--out", tmp_path, env={"PERFGATE_CANNOT_TELL": "fail"})
    assert r.returncode == 5, r.stdout + r.stderr
    assert "CANNOT TELL" in r.stdout and "rounds to decide" in r.stdout, r.stdout
    doc = validate(tmp_path / "results.json")
    assert doc["outcome"]["status"] == "cannot tell"
    s = doc["scenarios"][0]
    wall = [c for c in s["comparisons"] if c["metric"] == "wall_ms" and c["gated"]][0]
    assert wall["verdict"] == "cannot tell" and wall["rounds_to_decide"] > 5, wall
    c = [c for c in s["comparisons"] if c["metric"] == "cpu_ms"][0]
    assert not c["gated"] and c["n"] == 5
    assert 1.15 < c["ratio"] < 1.5, c
    assert all(x["metrics"]["cpu_ms"]["source"] != "scripted" and x["metrics"]["cpu_ms"]["value"] > 0
               for x in s["samples"])
    warned = perfgate(*pair, "--out", tmp_path / "warn", "--cannot-tell", "warn", env={"PERFGATE_CANNOT_TELL": "fail"})
    assert warned.returncode == 0, warned.stdout + warned.stderr
    assert "cannot tell" in warned.stderr, warned.stderr


def test_outputs_differ_exits_3_and_names_the_line(perfgate, burn, tmp_path, validate):
    r = perfgate("ab", "--before", f"{burn} 1000 alpha", "--after", f"{burn} 1000 beta", "--out", tmp_path)
    assert r.returncode == 3, r.stdout + r.stderr
    assert "first differing line 1" in r.stderr
    assert "'alpha'" in r.stderr and "'beta'" in r.stderr
    doc = validate(tmp_path / "results.json")
    eq = [g for g in doc["scenarios"][0]["gates"] if g["kind"] == "equivalence"][0]
    assert eq["outcome"] == "failed"


def test_after_that_crashes_exits_4_with_its_stderr(perfgate, burn, tmp_path, validate):
    r = perfgate("ab", "--before", f"{burn} 1000 x", "--after", f"{burn} 1000 x --crash", "--out", tmp_path)
    assert r.returncode == 4, r.stdout + r.stderr
    assert "deliberate crash" in r.stderr
    assert "signal 6" in r.stderr
    doc = validate(tmp_path / "results.json")
    assert doc["outcome"]["exit_code"] == 4
    assert "deliberate crash" in doc["scenarios"][0]["error"]["message"]


def test_shell_flag_runs_through_sh(perfgate, tmp_path):
    # Wall time gated over 3 rounds: no rank test can reject on 3 pairs, and no guard applies.
    r = perfgate("ab", "--shell", "--before", "echo a | tr a b", "--after", "echo b", "--metric", "wall_ms",
                 "--min-rounds", "3", "--max-rounds", "3", "--out", tmp_path, "--quiet")
    assert r.returncode == 0, r.stdout + r.stderr
    s = json.loads((tmp_path / "results.json").read_text())["scenarios"][0]
    assert s["commands"]["before"][-2:] == ["-c", "echo a | tr a b"], s["commands"]


def test_unsplittable_command_is_usage_error(perfgate):
    r = perfgate("ab", "--before", "echo a | tr a b", "--after", "echo b")
    assert r.returncode == 2
    assert "--shell" in r.stderr


def _cgroups_of(pid):
    # Only what the perfgate under test owns (names carry the owner's pid): other runs on the
    # machine, a developer's or a concurrent test's, are not this test's business.
    found = []
    for root in ["/sys/fs/cgroup/unified", "/sys/fs/cgroup", "/sys/fs/cgroup/cpuacct"]:
        if os.path.isdir(root):
            found += [str(p) for p in pathlib.Path(root).rglob(f"perfgate-{pid}-*") if p.is_dir()]
    return found


def _wait_for(predicate, timeout):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.02)
    return False


def test_sigint_leaves_nothing_behind_and_keeps_completed_rounds(perfgate_bin, burn, tmp_path, validate):
    tag = f"sigint-test-{os.getpid()}"
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    p = subprocess.Popen([perfgate_bin, "ab", "--before", f"{burn} {WORK * 4} {tag}", "--after",
                          f"{burn} {WORK * 4} {tag}", "--min-rounds", "50", "--max-rounds", "50",
                          "--out", str(tmp_path), "--quiet"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         env=dict(os.environ, TMPDIR=str(tmp)))
    results = tmp_path / "results.json"
    # The run folder holds a folder per sample, made as the sample starts, one at a time: once
    # sample-3's is there, samples 1 and 2 are taken and the third is running (~0.15 s of burn).
    third = lambda: list(tmp.glob(f"perfgate-*-{p.pid}-*/sample-000000003"))
    if not _wait_for(lambda: third() or p.poll() is not None, 120) or p.poll() is not None:
        p.kill()
        pytest.fail("perfgate never started its third sample, or ended first: " + "".join(p.communicate()))
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=60)
    assert p.returncode == 130, out + err
    doc = validate(results)
    assert doc["outcome"]["status"] == "interrupted"
    assert doc["run"]["stop_reason"] == "interrupted"
    assert len(doc["scenarios"][0]["samples"]) >= 2
    assert doc["scenarios"][0]["stop"]["reason"] == "interrupted"
    procs = subprocess.run(["pgrep", "-f", tag], capture_output=True, text=True).stdout.split()
    assert procs == [], "a burn process outlived perfgate"
    assert list(tmp.iterdir()) == [], "temporary directories left"
    assert _cgroups_of(p.pid) == [], "cgroups left"


def test_six_fixed_rounds_decide_twice_the_cpu(perfgate, burn, tmp_path, validate):
    """--runs N is one look at the full alpha (issue 47): six rounds of 2x the CPU say worse, where
    alpha / 4 left them "cannot tell" at p = 0.031; five cannot, and say too few rounds is why."""
    pair = [f"{burn} {WORK} same", f"{burn} {WORK * 2} same", "--metric", "cpu_ms", "--seed", "12"]
    r = perfgate("ab", "--runs", "6", *pair, "--out", tmp_path / "six", env={"PERFGATE_CANNOT_TELL": "fail"})
    assert r.returncode == 1, r.stdout + r.stderr
    doc = validate(tmp_path / "six" / "results.json")
    assert doc["run"]["options"]["alpha_per_look"] == 0.05
    [c] = [c for c in doc["scenarios"][0]["comparisons"] if c["gated"]]
    assert c["verdict"] == "worse" and c["n"] == 6 and c["ci"][0] > 1.02, c
    r = perfgate("ab", "--runs", "5", *pair, "--out", tmp_path / "five", env={"PERFGATE_CANNOT_TELL": "fail"})
    assert r.returncode == 5, r.stdout + r.stderr
    assert "too few rounds: 5 rounds cannot reach this comparison's level" in r.stderr, r.stderr
