"""The example workflow, docs/examples/github-actions.yml (docs/ci.md, "The example workflow").

scripts/validate-workflow.sh passes on it and fails, naming the problem, on each mistake it is there
to catch. scripts/ci-local.sh runs the workflow's jobs on a scratch repository whose pull request
makes upload_spool's AFTER do eight times the write(2) calls (an exact count, so no noise can hide
it): the gate must fail with exit 1, naming that scenario, with the merged results, the JUnit files
and the step summary where the workflow puts them.

Time: the ci-local run builds the PR and the base. With a cold ccache
(~/.cache/perfgate-ci-local/ccache) the first build compiles everything, 12 to 25 minutes on two
cores, which would take CI past its 40-minute budget; warm, the run takes one to two minutes. So it
runs when that cache holds objects (or PERFGATE_CI_LOCAL=1 forces it) and is skipped, saying so,
on a cold machine; PERFGATE_SKIP_CI_LOCAL=1 skips it (the validator tests take seconds)."""
import json
import os
import pathlib
import re
import shutil
import signal
import subprocess
import xml.etree.ElementTree as ET

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
WORKFLOW = ROOT / "docs" / "examples" / "github-actions.yml"
VALIDATE = ROOT / "scripts" / "validate-workflow.sh"
CI_LOCAL = ROOT / "scripts" / "ci-local.sh"
SCRATCH = pathlib.Path("/tmp/perfgate-ci-local")  # ci-local's default: a fixed path keeps ccache hitting


def validate(path):
    return subprocess.run(["bash", str(VALIDATE), str(path)], capture_output=True, text=True, timeout=900,
                          stdin=subprocess.DEVNULL)


def test_the_example_passes_every_check_and_perfgate_accepts_its_commands():
    r = validate(WORKFLOW)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "every check passed" in r.stdout
    assert "accepted: perfgate run --profile --shard --against --catalog --lock --lock-timeout --json --junit" in r.stdout
    assert "accepted: perfgate merge -o" in r.stdout
    assert "accepted: perfgate report -o" in r.stdout
    assert "accepted: perfgate history add --db" in r.stdout
    assert "accepted: perfgate history publish --db -o --baseline" in r.stdout


def _drop_fork_guard_of_shard(text):
    head, tail = text.split("  shard:\n", 1)
    return head + "  shard:\n" + tail.replace(
        "    if: github.event_name == 'push' || github.event.pull_request.head.repo.full_name == github.repository\n",
        "", 1)


MUTATIONS = [
    ("always", lambda t: t.replace("if: success() || failure()  # a failed gate", "if: always()  # a failed gate"),
     "always(): also runs on cancel"),
    ("unpinned", lambda t: re.sub(r"actions/checkout@[0-9a-f]{40}  # v[\d.]+", "actions/checkout@v7", t, count=1),
     "not pinned to a commit"),
    ("flag", lambda t: t.replace('--against "$BASE_TREE"', '--against-tree "$BASE_TREE"'),
     "perfgate run does not accept --against-tree"),
    ("subcommand", lambda t: t.replace("build/bin/perfgate merge ", "build/bin/perfgate join "),
     "perfgate has no subcommand 'join'"),
    ("history", lambda t: t.replace("build/bin/perfgate history publish ", "build/bin/perfgate history site "),
     "perfgate history has no subcommand 'site'"),
    ("history-flag", lambda t: t.replace("history add out/results.json --db", "history add out/results.json --database"),
     "perfgate history add does not accept --database"),
    ("timeout", lambda t: t.replace("    timeout-minutes: 150", "", 1), "jobs.shard: no timeout-minutes"),
    ("fork", _drop_fork_guard_of_shard, "jobs.shard: a self-hosted job without"),
    ("permissions", lambda t: t.replace("permissions:\n  contents: read", "permissions: write-all", 1),
     "permissions: 'write-all'"),
    ("concurrency", lambda t: t.replace("cancel-in-progress: true", "cancel-in-progress: false"), "concurrency:"),
    ("target", lambda t: t.replace("  pull_request:  #", "  pull_request_target:\n  pull_request:  #"),
     "pull_request_target runs a fork's code"),
    ("shell", lambda t: t.replace('read -ra scenarios <<< "$SCENARIOS"', 'read -ra scenarios <<< "$SCENARIOS'),
     "shellcheck jobs.shard"),
    ("schema", lambda t: t.replace("timeout-minutes: 10", "timeout-minutes: soon", 1),
     "FAILED  action-validator"),
]


@pytest.mark.parametrize("name, mutate, message", MUTATIONS, ids=[m[0] for m in MUTATIONS])
def test_the_validator_names_each_mistake(tmp_path, name, mutate, message):
    text = WORKFLOW.read_text()
    bad = mutate(text)
    assert bad != text, f"the mutation {name} no longer applies to the example"
    path = tmp_path / "workflow.yml"
    path.write_text(bad)
    r = validate(path)
    assert r.returncode == 1, r.stdout + r.stderr
    assert message in r.stdout, r.stdout


@pytest.fixture(scope="module")
def slower_pr():
    if os.environ.get("PERFGATE_SKIP_CI_LOCAL") == "1":
        pytest.skip("PERFGATE_SKIP_CI_LOCAL=1")
    cache = pathlib.Path.home() / ".cache" / "perfgate-ci-local" / "ccache"
    warm = cache.is_dir() and any(p.is_file() and p.name.endswith("R") for p in cache.rglob("*"))  # ccache results
    if not warm and os.environ.get("PERFGATE_CI_LOCAL") != "1":
        pytest.skip(f"cold ccache ({cache}): ci-local would build perfgate twice (12-25 min); "
                    "PERFGATE_CI_LOCAL=1 runs it anyway")
    # Its own session, so that a timeout stops the whole run: TERM makes ci-local stop its step and
    # remove its scratch folder; whatever is left a minute later is killed.
    p = subprocess.Popen(["bash", str(CI_LOCAL), "--slower", "--keep"], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, stdin=subprocess.DEVNULL, start_new_session=True)
    try:
        out, err = p.communicate(timeout=45 * 60)
    except subprocess.TimeoutExpired:
        p.terminate()
        try:
            p.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            p.communicate()
        pytest.fail("scripts/ci-local.sh --slower took more than 45 minutes")
    try:
        yield subprocess.CompletedProcess(p.args, p.returncode, out, err)
    finally:
        shutil.rmtree(SCRATCH, ignore_errors=True)


def _log(r):
    return (r.stdout[-6000:] + "\n--- stderr ---\n" + r.stderr[-4000:])


def test_ci_local_exits_with_the_gate_and_the_gate_catches_the_slower_pr(slower_pr):
    r = slower_pr
    assert r.returncode == 1, _log(r)
    assert "ci-local: the gate (the merge step) exited 1" in r.stdout, _log(r)
    results = json.loads((SCRATCH / "artifacts" / "perfgate-report" / "results.json").read_text())
    assert results["outcome"]["exit_code"] == 1
    failures = " ".join(results["outcome"]["failures"])
    assert "upload_spool" in failures and "carddav_report" not in failures, failures
    names = sorted(s["name"] for s in results["scenarios"])
    assert names == ["carddav_report", "upload_spool"]
    shards = sorted(s["merged_from"]["shard"]["index"] for s in results["scenarios"])
    assert shards == [1, 2]  # one scenario per shard, both merged


def test_ci_local_compares_the_pr_commit_with_its_base_commit(slower_pr):
    base, pr = re.search(r"ci-local: base main = (\w+) \(HEAD of .*\), PR #1 = (\w+):", slower_pr.stdout).groups()
    results = json.loads((SCRATCH / "artifacts" / "perfgate-report" / "results.json").read_text())
    assert results["run"]["against"]["git"]["commit"].startswith(base)  # the base worktree's commit
    assert results["run"]["git"]["commit"].startswith(pr)  # the PR checkout's, not the build job's path
    assert results["run"]["against"]["dir"].endswith("/_temp/perfgate-base")
    assert base != pr


def test_ci_local_leaves_junit_a_summary_with_the_artifact_link_and_the_lock_free(slower_pr):
    r = slower_pr
    report = SCRATCH / "artifacts" / "perfgate-report"
    xml = sorted(p.name for p in report.glob("shard-*.xml"))
    assert xml == ["shard-1.xml", "shard-2.xml"]
    failed = [c.get("classname") + ": " + c.get("name") for x in xml
              for c in ET.parse(report / x).getroot().iter("testcase") if c.find("failure") is not None]
    assert len(failed) == 1 and failed[0].startswith("perfgate.upload_spool.quick: "), failed
    assert re.search(r"not publishing \(no GitHub API here\); read 2 files: \d+ test cases, 1 failures", r.stdout)
    merge_summary = (SCRATCH / "summaries" / "merge.md").read_text()
    url = "file://" + str(SCRATCH / "artifacts" / "perfgate-report")
    assert f"[the perfgate-report artifact]({url})" in merge_summary
    assert "![" not in merge_summary and "](plots/" not in merge_summary and "](../" not in merge_summary
    assert re.search(r"\[plot: [^]]+\(`plots/[^`]+\.png` in the artifact\)\]", merge_summary)
    plan_summary = (SCRATCH / "summaries" / "plan.md").read_text()
    assert "not gated: asset_cache (service scenario" in plan_summary
    lock = pathlib.Path("/var/lock/perfgate.lock")
    assert not lock.exists() or lock.read_text() == ""
