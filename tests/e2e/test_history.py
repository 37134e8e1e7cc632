"""End-to-end tests of `perfgate history`: runs recorded in SQLite (default) or PostgreSQL (a DSN),
the series of a scenario's metric printed with its change points flagged at the commit where the
step happened; malformed inputs are exit 2 and change nothing."""
import hashlib
import json
import os
import pathlib
import random
import shutil
import sqlite3
import subprocess
import sys
import time

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).parent))
import synthetic  # noqa: E402

STEP_AT = 14  # runs 0..13 at 0.50x, 14.. at 0.65x: the commit of run 14 made it slower


def series_files(tmp_path):
    rng = random.Random(17)
    files = []
    for i in range(24):
        ratio = (0.50 if i < STEP_AT else 0.65) * (1 + rng.gauss(0, 0.01))
        doc = synthetic.results(f"run-{i:02d}", f"c{i:02d}" + "0" * 38, f"2026-03-{i + 1:02d}T12:00:00Z", ratio)
        files.append(synthetic.write(tmp_path / f"r{i:02d}.json", doc))
    return files


def test_history_flags_an_injected_step_at_the_right_commit(perfgate, tmp_path):
    files = series_files(tmp_path)
    db = tmp_path / "h" / "history.sqlite"
    random.Random(3).shuffle(files)  # the order added does not matter: runs are ordered by time
    r = perfgate("history", "add", *files, "--db", db)
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.count("added") == 24
    again = perfgate("history", "add", files[0], "--db", db)
    assert again.returncode == 0 and "already" in again.stdout
    show = perfgate("history", "show", "synthetic", "--db", db, "--json", tmp_path / "series.json")
    assert show.returncode == 0, show.stdout + show.stderr
    assert "change points (penalised step fit" in show.stdout
    step_commit = f"c{STEP_AT:02d}" + "0" * 38
    assert f"at commit {step_commit}" in show.stdout
    flagged = [l for l in show.stdout.splitlines() if "◀ step" in l]
    assert len(flagged) == 1 and flagged[0].split()[0] == str(STEP_AT + 1) and "+30" in flagged[0]
    doc = json.loads((tmp_path / "series.json").read_text())
    assert len(doc["points"]) == 24 and doc["metric"] == "cpu_ms"
    assert [c["commit"] for c in doc["change_points"]] == [step_commit]
    # The step in percent is the harness's, as its table printed it: the report only reads it.
    step = doc["change_points"][0]
    assert f"{step['change_pct']:+.1f}%" in flagged[0] and abs(step["change_pct"] - (step["change"] - 1) * 100) < 1e-9
    assert doc["method"]["penalty"] == 2


def test_history_default_database_and_median_series(perfgate, tmp_path):
    files = series_files(tmp_path)[:6]
    r = perfgate("history", "add", *files, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / ".perfgate" / "history.sqlite").exists()
    show = perfgate("history", "show", "synthetic", "cpu_ms", "--median", cwd=tmp_path)
    assert show.returncode == 0, show.stderr
    assert "after median of cpu_ms" in show.stdout and "change points" in show.stdout


def test_a_series_too_short_to_cut_says_so_and_failed_runs_are_marked(perfgate, tmp_path):
    files = []
    for i, (ratio, code) in enumerate([(0.50, 0), (0.52, 0), (0.80, 1)]):
        doc = synthetic.results(f"run-{i}", f"c{i}" + "0" * 39, f"2026-04-0{i + 1}T12:00:00Z", ratio)
        if code:
            doc["outcome"].update(exit_code=1, status="failed")
        files.append(synthetic.write(tmp_path / f"r{i}.json", doc))
    db = tmp_path / "history.sqlite"
    assert perfgate("history", "add", *files, "--db", db).returncode == 0
    show = perfgate("history", "show", "synthetic", "--db", db, "--json", tmp_path / "s.json")
    assert show.returncode == 0, show.stdout + show.stderr
    assert "none can be placed: 3 runs" in show.stdout and "σ =" not in show.stdout
    rows = [l for l in show.stdout.splitlines() if l[:1].isdigit()]
    assert "FAILED (exit 1)" in rows[2] and "FAILED" not in rows[0] + rows[1], rows
    doc = json.loads((tmp_path / "s.json").read_text())
    assert doc["method"]["sigma"] is None and [p["exit_code"] for p in doc["points"]] == [0, 0, 1]


def test_history_malformed_inputs_are_exit_2_and_change_nothing(perfgate, tmp_path):
    good = synthetic.write(tmp_path / "good.json", synthetic.results("a", "c" * 40, "2026-01-01T00:00:00Z", 0.5))
    bad = tmp_path / "bad.json"
    doc = synthetic.results("b", "d" * 40, "2026-01-02T00:00:00Z", 0.5)
    del doc["run"]["git"]["commit"]
    synthetic.write(bad, doc)
    db = tmp_path / "history.sqlite"
    assert perfgate("history", "add", good, "--db", db).returncode == 0
    digest = hashlib.sha256(db.read_bytes()).hexdigest()
    r = perfgate("history", "add", good, bad, "--db", db)  # one bad file: none is added
    assert r.returncode == 2 and f"{bad}: run.git.commit: missing" in r.stderr, r.stderr
    assert hashlib.sha256(db.read_bytes()).hexdigest() == digest
    notdb = tmp_path / "notes.sqlite"
    notdb.write_text("these are my notes, not a database\n" * 100)
    r = perfgate("history", "add", good, "--db", notdb)
    assert r.returncode == 2 and "not a perfgate history database" in r.stderr
    assert notdb.read_text().startswith("these are my notes")
    r = perfgate("history", "show", "nothing", "--db", db)
    assert r.returncode == 2 and "no history of scenario 'nothing'" in r.stderr
    r = perfgate("history", "show", "synthetic", "--db", tmp_path / "missing.sqlite")
    assert r.returncode == 2 and "no history at" in r.stderr
    assert not (tmp_path / "missing.sqlite").exists()


def _pg_bin():
    for d in sorted(pathlib.Path("/usr/lib/postgresql").glob("*/bin"), reverse=True):
        if (d / "initdb").exists():
            return d
    return None


@pytest.fixture()
def postgres(tmp_path):
    """A throwaway PostgreSQL server on a Unix socket, as an unprivileged user when run as root."""
    bindir = _pg_bin()
    if bindir is None:
        pytest.skip("no PostgreSQL server binaries (apt-get install postgresql)")
    root = pathlib.Path(subprocess.run(["mktemp", "-d", "/tmp/perfgate-histpg-XXXXXX"], capture_output=True,
                                       text=True, check=True).stdout.strip())
    os.chmod(root, 0o755)
    data, sock = root / "data", root / "sock"
    sock.mkdir()
    prefix = []
    if os.geteuid() == 0:
        user = "postgres" if shutil.which("runuser") and subprocess.run(["id", "postgres"], capture_output=True).returncode == 0 else None
        if user is None:
            pytest.skip("running as root without a postgres user to run the server as")
        shutil.chown(root, user)
        shutil.chown(sock, user)
        prefix = ["runuser", "-u", user, "--"]
    subprocess.run(prefix + [str(bindir / "initdb"), "-D", str(data), "-A", "trust", "-U", "perfgate"],
                   check=True, capture_output=True)
    subprocess.run(prefix + [str(bindir / "pg_ctl"), "-D", str(data), "-w", "-l", str(root / "log"), "-o",
                             f"-c listen_addresses='' -c unix_socket_directories={sock} -c fsync=off", "start"],
                   check=True, capture_output=True)
    try:
        yield f"host={sock} user=perfgate dbname=postgres"
    finally:
        subprocess.run(prefix + [str(bindir / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"],
                       capture_output=True)
        shutil.rmtree(root, ignore_errors=True)


def test_history_in_postgresql_same_schema_same_answer(perfgate, tmp_path, postgres):
    files = series_files(tmp_path)
    r = perfgate("history", "add", *files, "--db", postgres)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "postgresql:host=" in r.stdout
    show = perfgate("history", "show", "synthetic", "--db", postgres)
    assert show.returncode == 0, show.stderr
    assert f"at commit c{STEP_AT:02d}" in show.stdout
    sqlite = tmp_path / "h.sqlite"
    perfgate("history", "add", *files, "--db", sqlite)
    lite = perfgate("history", "show", "synthetic", "--db", sqlite)
    strip = lambda out: [l for l in out.splitlines() if l[:1].isdigit() or "run #" in l]
    assert strip(show.stdout) == strip(lite.stdout)


def _add_at_once(perfgate_bin, db, file_sets):
    """`history add` of each set in its own process, all started together: (exit code, stdout, stderr) each."""
    procs = [subprocess.Popen([perfgate_bin, "history", "add", *map(str, files), "--db", str(db)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for files in file_sets]
    return [(p.wait(timeout=300), *p.communicate()) for p in procs]


RACE_RUNS, RACE_SHARED = 120, 60


def _overlapping_sets(tmp_path):
    # Both start with the shared runs, in the same order: the one behind skips faster than the
    # other records, so it catches up and both reach the same run at the same moment, many times.
    files = [synthetic.write(tmp_path / f"race{i:03d}.json",
                             synthetic.results(f"run-{i:03d}", f"d{i:03d}" + "0" * 37,
                                               f"2026-04-01T12:{i // 60:02d}:{i % 60:02d}Z", 0.5))
             for i in range(RACE_RUNS)]
    shared, rest = files[:RACE_SHARED], files[RACE_SHARED:]
    half = len(rest) // 2
    return files, [shared + rest[:half], shared + rest[half:]]


def _check_each_recorded_once(outcomes, files, counts):
    for code, out, err in outcomes:
        assert code == 0, out + err
    added = sum(out.count("added   ") for _, out, _ in outcomes)
    already = sum(out.count("already ") for _, out, _ in outcomes)
    assert (added, already) == (len(files), RACE_SHARED), [out for _, out, _ in outcomes]
    # Every run once, each with its three points (the ratio, and both medians).
    assert counts == {f"run-{i:03d}": 3 for i in range(len(files))}


def test_concurrent_adds_of_overlapping_files_record_every_run_once(perfgate_bin, tmp_path):
    for attempt in range(3):  # a fresh database each time: its creation races too
        db = tmp_path / f"h{attempt}" / "history.sqlite"
        files, sets = _overlapping_sets(tmp_path)
        outcomes = _add_at_once(perfgate_bin, db, sets)
        with sqlite3.connect(db) as c:
            counts = dict(c.execute("SELECT r.run_id, count(p.run_id) FROM perfgate_runs r "
                                    "LEFT JOIN perfgate_points p ON p.run_id = r.run_id GROUP BY r.run_id"))
            assert c.execute("SELECT version FROM perfgate_history_schema").fetchall() == [(3,)]
        _check_each_recorded_once(outcomes, files, counts)


def test_concurrent_adds_into_postgresql_record_every_run_once(perfgate_bin, tmp_path, postgres):
    psql = str(_pg_bin() / "psql")
    for attempt in range(3):
        dsn = postgres.replace("dbname=postgres", f"dbname=race{attempt}")
        subprocess.run([psql, postgres, "-qc", f"CREATE DATABASE race{attempt}"], check=True, capture_output=True)
        files, sets = _overlapping_sets(tmp_path)
        outcomes = _add_at_once(perfgate_bin, dsn, sets)
        rows = subprocess.run([psql, dsn, "-qAtF", " ", "-c",
                               "SELECT r.run_id, count(p.run_id) FROM perfgate_runs r LEFT JOIN perfgate_points p "
                               "ON p.run_id = r.run_id GROUP BY r.run_id"], capture_output=True, text=True)
        assert rows.returncode == 0, rows.stderr
        counts = {run: int(n) for run, n in (l.split() for l in rows.stdout.split("\n") if l)}
        _check_each_recorded_once(outcomes, files, counts)


def test_show_fits_one_host_class_and_leaves_out_against_runs(perfgate, tmp_path):
    """Two host classes read 0.5 and 0.8 in turn: mixed, the series would step at every run."""
    files = []
    for i in range(12):
        doc = synthetic.results(f"run-{i:02d}", f"c{i:02d}" + "0" * 38, f"2026-05-{i + 1:02d}T12:00:00Z",
                                0.5 if i % 2 else 0.8)
        doc["host"]["cpu_model"] = "CPU A" if i % 2 else "CPU B"
        files.append(synthetic.write(tmp_path / f"r{i:02d}.json", doc))
    against = synthetic.results("run-against", "e" * 40, "2026-05-20T12:00:00Z", 1.4)
    against["host"]["cpu_model"] = "CPU A"
    against["run"]["against"] = {"dir": "/elsewhere", "catalog": "/elsewhere/scenarios", "git": {"commit": "f" * 40, "dirty": False}}
    files.append(synthetic.write(tmp_path / "against.json", against))
    db = tmp_path / "history.sqlite"
    assert perfgate("history", "add", *files, "--db", db).returncode == 0
    mixed = perfgate("history", "show", "synthetic", "--db", db)
    assert mixed.returncode == 0, mixed.stderr
    assert "note: 2 host classes in this series" in mixed.stdout and "'CPU B x2', 'CPU A x2'" in mixed.stdout
    assert "note: 1 run --against run(s) left out" in mixed.stdout and "eeeeeeee" not in mixed.stdout
    one = perfgate("history", "show", "synthetic", "--db", db, "--host-class", "CPU A x2")
    assert one.returncode == 0, one.stderr
    assert "host class CPU A x2 · 6 runs" in one.stdout and "host classes" not in one.stdout
    assert "change points (penalised step fit" in one.stdout and ": 0\n" in one.stdout
    none = perfgate("history", "show", "synthetic", "--db", db, "--host-class", "CPU C x2")
    assert none.returncode == 2 and "no run of host class 'CPU C x2'" in none.stderr
