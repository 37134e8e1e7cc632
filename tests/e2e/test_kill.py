"""SIGKILL mid-run, what a CI job's timeout does: perfgate cannot clean up, so the next run must.

Every cgroup and temporary directory perfgate makes is named after its owner
("perfgate-<pid>-<start>-…"); a run whose owner is gone is reaped at the start of the next
command that runs samples, with one stderr line saying what was removed.
"""
import os
import pathlib
import signal
import subprocess
import time

WORK = 25_000_000


def cgroup_mounts():
    out = []
    for line in pathlib.Path("/proc/self/mounts").read_text().splitlines():
        parts = line.split()
        if len(parts) > 2 and parts[2] in ("cgroup", "cgroup2"):
            out.append(pathlib.Path(parts[1]))
    return out


def cgroups_of(pid):
    """Every cgroup directory of every hierarchy whose name says `pid` made it."""
    found = []
    for mount in cgroup_mounts():
        for root, dirs, _ in os.walk(mount):
            if root.count(os.sep) - str(mount).count(os.sep) > 4:
                dirs[:] = []
                continue
            found += [pathlib.Path(root) / d for d in dirs if d.startswith(f"perfgate-{pid}-")]
    return found


def temp_dirs_of(base, pid):
    return [p for p in base.iterdir() if p.name.startswith("perfgate-") and f"-{pid}-" in p.name]


def alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def wait_for(predicate, timeout=60):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return False


def test_sigkill_mid_ab_leaves_nothing_after_the_next_run(perfgate_bin, burn, tmp_path):
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    env = dict(os.environ, TMPDIR=str(tmp))
    victim = subprocess.Popen(
        [perfgate_bin, "ab", "--quiet", "--before", f"{burn} {WORK} same", "--after", f"{burn} {WORK} same",
         "--min-rounds", "200", "--max-rounds", "200", "--json", str(tmp_path / "killed.json")],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    pid = victim.pid
    try:
        # Mid-run: its run directory exists and a sample is running in its cgroup.
        assert wait_for(lambda: temp_dirs_of(tmp, pid) and cgroups_of(pid)), \
            "perfgate never had a sample running"
        victim.send_signal(signal.SIGKILL)
        victim.wait(timeout=30)
    finally:
        if victim.poll() is None:
            victim.kill()
            victim.wait()
    # The kernel kills the sample with it (PDEATHSIG); what only perfgate could remove stays.
    left = temp_dirs_of(tmp, pid)
    assert left, "a SIGKILLed run leaves its temporary directory (nothing to reap: test is moot)"

    nxt = subprocess.run(
        [perfgate_bin, "ab", "--quiet", "--before", f"{burn} 1000 same", "--after", f"{burn} 1000 same",
         "--min-rounds", "2", "--max-rounds", "2", "--warmup", "0", "--json", str(tmp_path / "next.json")],
        env=env, capture_output=True, text=True, timeout=300)
    assert nxt.returncode in (0, 1), nxt.stderr
    assert "left behind" in nxt.stderr and str(left[0]) in nxt.stderr, nxt.stderr
    assert temp_dirs_of(tmp, pid) == []
    assert cgroups_of(pid) == []
    # And the next run cleaned up after itself, as always.
    assert [p for p in tmp.iterdir() if p.name.startswith("perfgate-")] == []


def test_a_live_runs_directories_are_not_reaped(perfgate, burn, tmp_path):
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    # Named after this pytest process, which is alive: another run's, not a dead one's.
    start = pathlib.Path(f"/proc/{os.getpid()}/stat").read_text().rsplit(")", 1)[1].split()[19]
    live = tmp / f"perfgate-run-{os.getpid()}-{start}-abcdef"
    live.mkdir()
    r = perfgate("ab", "--quiet", "--before", f"{burn} 1000 same", "--after", f"{burn} 1000 same",
                 "--min-rounds", "2", "--max-rounds", "2", "--warmup", "0", "--json", tmp_path / "r.json",
                 env={"TMPDIR": str(tmp)})
    assert r.returncode in (0, 1), r.stderr
    assert live.exists()
    assert "left behind" not in r.stderr
