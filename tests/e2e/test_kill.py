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

import pytest

WORK = 25_000_000


def small_ab(burn):
    """A small A/A `ab` whose exit code no timing decides: wall time gated over 2 rounds (the
    signed-rank test cannot reject on 2 pairs) is the only timed gate, the wall guard being it."""
    return ["--before", f"{burn} 1000 same", "--after", f"{burn} 1000 same", "--metric", "wall_ms",
            "--min-rounds", "2", "--max-rounds", "2", "--warmup", "0"]


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


def procs_in(cgroup):
    try:
        return (cgroup / "cgroup.procs").read_text().split()
    except OSError:
        return []


def kill_mid_run_then_run_again(perfgate_bin, burn, tmp_path, command, env_extra=None, also=None):
    """Starts `command`, SIGKILLs it once a sample runs in one of its cgroups (and `also(tmp, pid)`
    holds, when given), runs a small `ab` and returns the stderr of that run."""
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    env = dict(os.environ, TMPDIR=str(tmp), **(env_extra or {}))
    victim = subprocess.Popen([perfgate_bin, *command], env=env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    pid = victim.pid
    try:
        # Mid-run: its run directory exists and a process runs in one of its cgroups.
        assert wait_for(lambda: temp_dirs_of(tmp, pid) and any(procs_in(c) for c in cgroups_of(pid))
                        and (also is None or also(tmp, pid)), 240), "perfgate never had a sample running"
        victim.send_signal(signal.SIGKILL)
        victim.wait(timeout=30)
    finally:
        if victim.poll() is None:
            victim.kill()
            victim.wait()
    left = temp_dirs_of(tmp, pid) + temp_dirs_of(pathlib.Path("/tmp"), pid) + cgroups_of(pid)
    # What only perfgate could remove is still there (else this test would prove nothing).
    assert temp_dirs_of(tmp, pid), "a SIGKILLed run leaves its temporary directory"

    nxt = subprocess.run([perfgate_bin, "ab", "--quiet", *small_ab(burn), "--json", str(tmp_path / "next.json")],
                         env=env, capture_output=True, text=True, timeout=300)
    assert nxt.returncode == 0, nxt.stderr
    assert "left behind" in nxt.stderr, nxt.stderr
    assert temp_dirs_of(tmp, pid) == []
    assert temp_dirs_of(pathlib.Path("/tmp"), pid) == []  # PostgreSQL clusters may sit in /tmp
    assert cgroups_of(pid) == []
    # The kernel took the sample (and any postmaster) down with perfgate: nothing of it runs.
    assert not any(alive(int(p)) for c in left if c.is_dir() for p in procs_in(c))
    # And the next run cleaned up after itself, as always.
    assert [p for p in tmp.iterdir() if p.name.startswith("perfgate-")] == []
    return nxt.stderr


def test_sigkill_mid_ab_leaves_nothing_after_the_next_run(perfgate_bin, burn, tmp_path):
    kill_mid_run_then_run_again(
        perfgate_bin, burn, tmp_path,
        ["ab", "--quiet", "--before", f"{burn} {WORK} same", "--after", f"{burn} {WORK} same",
         "--min-rounds", "200", "--max-rounds", "200", "--json", str(tmp_path / "killed.json")])


def test_sigkill_mid_service_scenario_leaves_nothing(perfgate_bin, burn, tmp_path):
    kill_mid_run_then_run_again(perfgate_bin, burn, tmp_path,
                                ["run", "asset_cache", "--profile", "quick", "--out", str(tmp_path / "svc")])


def test_sigkill_mid_postgres_scenario_leaves_no_cluster(perfgate_bin, burn, tmp_path):
    if not any(pathlib.Path("/usr/lib/postgresql").glob("*/bin/postgres")):
        pytest.skip("PostgreSQL is not installed")
    # Mid-run is not enough: a process in the server's cgroup may still be making the cluster. Its
    # directory ($TMPDIR, or /tmp where the postgres user cannot reach $TMPDIR) must exist first.
    def cluster_made(tmp, pid):
        return any(base.glob(f"perfgate-pg-{pid}-*/data/postmaster.pid") for base in (tmp, pathlib.Path("/tmp")))

    err = kill_mid_run_then_run_again(perfgate_bin, burn, tmp_path,
                                      ["run", "keyset_listing", "--profile", "quick", "--out", str(tmp_path / "pg")],
                                      also=cluster_made)
    assert "PostgreSQL cluster" in err, err


def test_a_live_runs_directories_are_not_reaped(perfgate, burn, tmp_path):
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    # Named after this pytest process, which is alive: another run's, not a dead one's.
    start = pathlib.Path(f"/proc/{os.getpid()}/stat").read_text().rsplit(")", 1)[1].split()[19]
    live = tmp / f"perfgate-run-{os.getpid()}-{start}-abcdef"
    live.mkdir()
    r = perfgate("ab", "--quiet", *small_ab(burn), "--json", tmp_path / "r.json", env={"TMPDIR": str(tmp)})
    assert r.returncode == 0, r.stderr
    assert live.exists()
    assert "left behind" not in r.stderr
