"""An output that cannot be written never replaces the verdict: an unwritable step summary or
JUnit file is an error message and the exit code stays the gates'; a --baseline FILE that does
not exist is a typo (exit 2), not "no comparable baseline"; equivalence with nothing compared is
"not compared", never a pass. The verdicts come from scripted samples (data/deciding/), so no
assertion rests on this machine's timing."""
import json
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).parent))
import synthetic  # noqa: E402

# About 15 ms of CPU on this kind of machine.
WORK = 10_000_000
DECIDING = pathlib.Path(__file__).parent / "data" / "deciding"


def test_an_unwritable_step_summary_leaves_exit_1_an_exit_1(perfgate, tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    results = tmp_path / "r.json"
    r = perfgate("ab", "--before", "/bin/false", "--after", "/bin/false", "--debug-samples",
                 DECIDING / "slower_10pct.json", "--seed", "3", "--json", results, "--junit", blocker / "j.xml",
                 env={"GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": str(blocker / "summary.md")})
    assert r.returncode == 1, r.stdout + r.stderr
    assert "policy gate failed" in r.stderr
    assert "the step summary" in r.stderr and "--junit" in r.stderr and "still the gates', 1" in r.stderr
    assert "same work" in r.stdout, "the verdict table is still printed"
    assert json.loads(results.read_text())["outcome"]["exit_code"] == 1


def test_a_passing_run_with_an_unwritable_junit_file_stays_exit_0(perfgate, tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    # Scripted A/A samples: a real pair needed a 50% band to pass on a busy machine.
    r = perfgate("ab", "--before", "/bin/false", "--after", "/bin/false", "--debug-samples", DECIDING / "aa.json",
                 "--max-rounds", "4", "--junit", blocker / "j.xml", "--json", tmp_path / "r.json")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "--junit" in r.stderr and "not written" in r.stderr


def test_a_baseline_path_that_does_not_exist_is_exit_2_before_anything_runs(perfgate, burn, tmp_path):
    missing = tmp_path / "baselin.json"
    results = tmp_path / "r.json"
    r = perfgate("ab", "--before", f"{burn} {WORK} same", "--after", f"{burn} {WORK} same", "--json", results,
                 "--baseline", missing)
    assert r.returncode == 2, r.stdout + r.stderr
    assert str(missing) in r.stderr and "no such file" in r.stderr
    assert not results.exists()
    good = synthetic.write(tmp_path / "good.json", synthetic.results("r1", "c1", "2026-01-01T00:00:00Z", 0.5))
    r = perfgate("baseline", "check", good, "--baseline", missing)
    assert r.returncode == 2 and str(missing) in r.stderr, r.stdout + r.stderr


def test_equivalence_with_no_sample_finished_is_not_compared_never_a_pass(perfgate, tmp_path, validate):
    results, junit = tmp_path / "r.json", tmp_path / "r.xml"
    r = perfgate("ab", "--before", "sleep 5", "--after", "sleep 5", "--max-rounds", "3", "--timeout", "0.2",
                 "--json", results, "--junit", junit)
    assert r.returncode == 4, r.stdout + r.stderr
    doc = validate(results)
    same = [g for g in doc["scenarios"][0]["gates"] if g["kind"] == "equivalence"]
    assert same and same[0]["outcome"] == "undecided" and same[0]["detail"].startswith("not compared"), same
    line = next(l for l in r.stdout.splitlines() if "same work" in l)
    assert "not compared" in line and "PASS" not in line, line
    import lxml.etree as et
    case = [c for c in et.parse(str(junit)).iter("testcase") if c.get("name") == "equivalence: same work"]
    assert case and case[0].find("skipped") is not None
