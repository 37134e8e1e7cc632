"""End-to-end tests of `perfgate batch`: the perf VM's lock (two batches started together run one
after the other; a held lock times out naming its holder), nothing compiled, the plan's scenarios
and profiles in order, one results file with the load average around the batch, and malformed
plans refused before anything is written."""
import fcntl
import json
import os
import pathlib
import subprocess
import sys
import time

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from spin_catalog import WORK, add_scenario  # noqa: E402


@pytest.fixture()
def prebuilt(burn, tmp_path):
    catalog = tmp_path / "prebuilt" / "share" / "perfgate" / "scenarios"
    # Real runs (batch takes no scripted samples) gated on the program's own count of its work, the
    # same on both sides, with no wall guard: every batch and run here passes whatever the timing.
    for name in ("one", "two"):
        add_scenario(catalog, burn, name, policy="no-regress", before=WORK // 2, after=WORK // 2, rounds=4,
                     metric="work", guard={"metric": "none"})
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps({"schema_version": 1,
                                "steps": [{"profile": "quick", "scenarios": ["two"]},
                                          {"profile": "quick", "scenarios": ["one"]}],
                                "options": {"seed": 5}}))
    return tmp_path / "prebuilt", plan


def test_two_batches_started_together_run_one_after_the_other(perfgate_bin, prebuilt, tmp_path, validate):
    tree, plan = prebuilt
    lock = tmp_path / "perf-vm.lock"
    procs = [subprocess.Popen([perfgate_bin, "batch", str(plan), "--lock", str(lock), "--prebuilt", str(tree),
                               "--baseline", "none", "--json", str(tmp_path / f"b{i}.json"), "-q"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for i in (1, 2)]
    outs = [p.communicate(timeout=300) for p in procs]
    for p, (out, err) in zip(procs, outs):
        assert p.returncode == 0, out + err
    docs = [validate(tmp_path / f"b{i}.json") for i in (1, 2)]
    spans = sorted((d["run"]["batch"]["lock"]["acquired_unix"], d["run"]["finished_unix"], d) for d in docs)
    (a0, a1, first), (b0, b1, second) = spans
    assert a1 <= b0, f"the batches overlapped: {a0}-{a1} and {b0}-{b1}"
    assert second["run"]["batch"]["lock"]["waited_s"] > 0.1
    assert "pid " in second["run"]["batch"]["lock"]["waited_for"]
    waited_err = [err for (out, err) in outs if "waiting for the lock" in err]
    assert len(waited_err) == 1 and "held by pid" in waited_err[0]
    for out, err in outs:
        assert "perfgate: batch: 1-minute load average" in err, err  # the log says it too
    for d in docs:
        # The plan's order, one results file, load before and after in the results (and so the report).
        assert [s["name"] for s in d["scenarios"]] == ["two", "one"]
        assert len(d["host"]["load_before"]) == 3 and len(d["host"]["load_after"]) == 3
        assert len(d["run"]["batch"]["load_before"]) == 3


def test_lock_held_elsewhere_times_out_naming_the_holder(perfgate, prebuilt, tmp_path):
    tree, plan = prebuilt
    lock = tmp_path / "perf-vm.lock"
    with open(lock, "w") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        f.write("pid 4242 on vm-7: nightly batch\n")
        f.flush()
        t = time.monotonic()
        r = perfgate("batch", plan, "--lock", lock, "--prebuilt", tree, "--lock-timeout", "1",
                     "--json", tmp_path / "r.json")
        assert time.monotonic() - t < 30
    assert r.returncode == 4, r.stdout + r.stderr
    assert "timed out" in r.stderr and "pid 4242 on vm-7: nightly batch" in r.stderr
    assert not (tmp_path / "r.json").exists()


def test_batch_never_compiles_a_missing_program(perfgate, prebuilt, tmp_path):
    tree, plan = prebuilt
    os.remove(tree / "share" / "perfgate" / "scenarios" / "one" / "spin.sh")
    r = perfgate("batch", plan, "--lock", tmp_path / "l", "--prebuilt", tree, "--json", tmp_path / "r.json")
    assert r.returncode == 2, r.stdout + r.stderr
    assert "never compiles" in r.stderr
    assert not (tmp_path / "r.json").exists()


@pytest.mark.parametrize("plan, message", [
    ("{", "not valid JSON"),
    ({"steps": []}, "schema_version: missing"),
    ({"schema_version": 1, "steps": []}, "steps: must be a non-empty array"),
    ({"schema_version": 1, "steps": [{"profile": "quick"}]}, "steps[0].scenarios"),
    ({"schema_version": 1, "steps": [{"profile": "quick", "scenarios": ["one", "one"]}]}, "already planned"),
    ({"schema_version": 1, "steps": [{"profile": "quick", "scenarios": ["one"]}], "options": {"rounds": 3}},
     "options.rounds: unknown key"),
    ({"schema_version": 1, "steps": [{"profile": "slow", "scenarios": ["one"]}]}, "has no profile 'slow'"),
    ({"schema_version": 1, "steps": [{"profile": "quick", "scenarios": ["nine"]}]}, "unknown scenario 'nine'"),
])
def test_malformed_plan_is_exit_2_and_nothing_is_overwritten(perfgate, prebuilt, tmp_path, plan, message):
    tree, _ = prebuilt
    bad = tmp_path / "bad.json"
    bad.write_text(plan if isinstance(plan, str) else json.dumps(plan))
    results = tmp_path / "results.json"
    results.write_text("previous")
    lock = tmp_path / "l"
    r = perfgate("batch", bad, "--lock", lock, "--prebuilt", tree, "--json", results)
    assert r.returncode == 2, r.stdout + r.stderr
    assert message in r.stderr
    assert results.read_text() == "previous"
    assert not lock.exists()  # refused before the lock was even taken


def test_a_prebuilt_tree_without_scenarios_is_named_as_such(perfgate, prebuilt, tmp_path):
    _, plan = prebuilt
    empty = tmp_path / "empty-prefix"
    empty.mkdir()
    r = perfgate("batch", plan, "--prebuilt", empty, "--lock", tmp_path / "lock", "--out", tmp_path / "out")
    assert r.returncode == 2, r.stdout + r.stderr
    assert f"--prebuilt {empty}: no built catalog there" in r.stderr and "--against" not in r.stderr, r.stderr


def test_a_run_with_lock_and_a_batch_on_one_machine_measure_one_after_the_other(perfgate_bin, prebuilt, tmp_path,
                                                                                validate):
    # A CI shard (`run --against --shard`) has no batch plan; `run --lock` takes the same lock.
    tree, plan = prebuilt
    lock = tmp_path / "perf-vm.lock"
    catalog = tree / "share" / "perfgate" / "scenarios"
    cmds = [[perfgate_bin, "batch", str(plan), "--lock", str(lock), "--prebuilt", str(tree), "--baseline", "none",
             "--json", str(tmp_path / "b.json"), "-q"],
            [perfgate_bin, "run", "--catalog", str(catalog), "--lock", str(lock), "--baseline", "none",
             "--json", str(tmp_path / "r.json"), "-q"]]
    procs = [subprocess.Popen(c, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for c in cmds]
    outs = [p.communicate(timeout=300) for p in procs]
    for p, (out, err) in zip(procs, outs):
        assert p.returncode == 0, out + err
    b, r = validate(tmp_path / "b.json"), validate(tmp_path / "r.json")
    spans = sorted([(b["run"]["batch"]["lock"]["acquired_unix"], b["run"]["finished_unix"]),
                    (r["run"]["lock"]["acquired_unix"], r["run"]["finished_unix"])])
    assert spans[0][1] <= spans[1][0], f"they overlapped: {spans}"
    assert max(b["run"]["batch"]["lock"]["waited_s"], r["run"]["lock"]["waited_s"]) > 0.1
