"""A results file vouches for itself (issue 23): a run killed mid-way leaves `outcome.status:
"running"` (exit_code 0) and a dead shard lacks scenarios its plan listed. merge, history add and
baseline update refuse them with exit 2 naming the field, so a SIGKILLed CI shard never merges
green. The files here are real: a shard of a small catalog, run and then killed."""
import json
import os
import pathlib
import signal
import subprocess
import sys
import time

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from conftest import PERFGATE  # noqa: E402
from spin_catalog import WORK, add_scenario  # noqa: E402


# These tests are about whether a file is complete, not about time: a wall guard on
# millisecond scenarios of 3 rounds failed a fresh-clone run on a noisy stretch (wall 1.48x).
NO_GUARD = {"metric": "none"}


@pytest.fixture(scope="module")
def shard(perfgate, burn, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("complete")
    catalog = tmp / "catalog"
    for name in ("s_a", "s_b"):
        add_scenario(catalog, burn, name, policy="no-regress", before=WORK // 4, after=WORK // 4, rounds=3, guard=NO_GUARD)
    whole = tmp / "shard.json"
    r = perfgate("run", "--catalog", catalog, "--shard", "1/1", "--baseline", "none", "--seed", "2", "--json", whole,
                 "-q")
    assert r.returncode == 0, r.stdout + r.stderr
    return dict(tmp=tmp, catalog=catalog, whole=whole)


def killed_after_first_scenario(catalog, out):
    """`run --shard 1/1` SIGKILLed once its results file holds one scenario: what a runner lost to
    the OOM killer leaves behind."""
    p = subprocess.Popen([str(PERFGATE), "run", "--catalog", str(catalog), "--shard", "1/1", "--baseline", "none",
                          "--seed", "3", "--json", str(out), "-q"], stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL, start_new_session=True)
    def scenarios_written():
        try:
            return len(json.loads(out.read_text())["scenarios"])
        except (OSError, ValueError, KeyError):
            return 0

    deadline = time.time() + 120
    while time.time() < deadline and p.poll() is None and scenarios_written() < 1:
        time.sleep(0.05)
    reached = scenarios_written() >= 1 and p.poll() is None
    os.killpg(p.pid, signal.SIGKILL)
    p.wait()
    assert reached, "the run never wrote its first scenario, or ended before it was killed"
    return json.loads(out.read_text())


def test_a_killed_shard_is_refused_by_merge_history_and_baseline(perfgate, burn, shard):
    # Scenarios of seconds each, so the kill lands after the first and long before the last.
    slow = shard["tmp"] / "slow"
    for name in ("k_a", "k_b", "k_c"):
        add_scenario(slow, burn, name, policy="no-regress", before=WORK, after=WORK, rounds=10, guard=NO_GUARD)
    killed = shard["tmp"] / "killed.json"
    doc = killed_after_first_scenario(slow, killed)
    assert len(doc["scenarios"]) < 3, "the run ended before it was killed"
    assert doc["outcome"]["status"] == "running" and doc["outcome"]["exit_code"] == 0, doc["outcome"]
    merged = shard["tmp"] / "merged.json"
    for args in (("merge", killed, "-o", merged), ("history", "add", killed, "--db", shard["tmp"] / "h.sqlite"),
                 ("baseline", "update", killed, "--baseline", shard["tmp"] / "b.json")):
        r = perfgate(*args)
        assert r.returncode == 2, (args, r.stdout, r.stderr)
        assert "killed.json: outcome.status: \"running\": the run never finished" in r.stderr, r.stderr
    assert not merged.exists() and not (shard["tmp"] / "b.json").exists()
    # report renders what the file holds, under a banner that says it cannot vouch for a gate
    r = perfgate("report", killed, "-o", shard["tmp"] / "report")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "outcome.status" in r.stderr
    head = (shard["tmp"] / "report" / "report.md").read_text().splitlines()[:6]
    assert any(l.startswith("## ⚠ INCOMPLETE") for l in head), head
    assert any("the run never finished" in l for l in head), head


def test_a_shard_without_a_planned_scenario_is_refused(perfgate, shard):
    doc = json.loads(shard["whole"].read_text())
    assert doc["run"]["shard"]["scenarios"] == ["s_a", "s_b"]
    doc["scenarios"] = [s for s in doc["scenarios"] if s["name"] != "s_b"]
    short = shard["tmp"] / "short.json"
    short.write_text(json.dumps(doc))
    r = perfgate("merge", short, "-o", shard["tmp"] / "m.json")
    assert r.returncode == 2, r.stdout + r.stderr
    assert "short.json: scenarios: lacks s_b, which run.shard.scenarios planned for shard 1/1" in r.stderr, r.stderr


def test_an_interrupted_run_says_interrupted(perfgate, shard):
    doc = json.loads(shard["whole"].read_text())
    doc["outcome"]["status"] = "interrupted"
    stopped = shard["tmp"] / "stopped.json"
    stopped.write_text(json.dumps(doc))
    r = perfgate("history", "add", stopped, "--db", shard["tmp"] / "h2.sqlite")
    assert r.returncode == 2 and "outcome.status: \"interrupted\"" in r.stderr, r.stdout + r.stderr


def test_a_finished_shard_still_merges(perfgate, shard):
    r = perfgate("merge", shard["whole"], "-o", shard["tmp"] / "ok.json")
    assert r.returncode == 0, r.stdout + r.stderr
