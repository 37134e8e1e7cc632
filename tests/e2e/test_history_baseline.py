"""End-to-end tests of baselines fed by the history (`perfgate baseline update --from-history`) and
of the history's schema version 2: copies of a real results file for two host classes recorded in
one database, each class then gated by its own accepted runs; a version-1 database migrated in
place with its rows kept."""
import hashlib
import json
import pathlib
import sqlite3
import subprocess
import sys

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from test_history import _pg_bin, postgres  # noqa: E402,F401  (the PostgreSQL fixture)

ROOT = pathlib.Path(__file__).resolve().parents[2]
# A real results file (perfgate ab, gated on cpu_ms, harness/src/store/testdata/README.md).
REAL = ROOT / "harness" / "src" / "store" / "testdata" / "results_v1_ab.json"
KEY = "aa_true/ab/cpu_ms"
CLASS_A, CLASS_B = "Intel(R) Xeon(R) Test CPU", "AMD EPYC Test CPU"


def copy_as(tmp_path, run_id, cpu_model, ratio, day, branch="main", dirty=False, exit_code=0):
    """The real file as another run: its host class, gated ratio, start time, branch and outcome."""
    doc = json.loads(REAL.read_text())
    run = doc["run"]
    run["id"] = run_id
    run["started_at"] = run["finished_at"] = f"2026-03-{day:02d}T12:00:00Z"
    run["git"]["dirty"] = dirty
    if branch is None:
        run.pop("branch", None)
    else:
        run["branch"] = branch
    doc["host"]["cpu_model"] = cpu_model
    doc["host"]["fingerprint"] = hashlib.sha256(cpu_model.encode()).hexdigest()[:16]
    doc["outcome"]["exit_code"] = exit_code
    doc["outcome"]["status"] = "passed" if exit_code == 0 else "failed"
    for c in doc["scenarios"][0]["comparisons"]:
        if c["gated"]:
            c["ratio"], c["ci"] = ratio, [ratio * 0.98, ratio * 1.02]
    path = tmp_path / f"{run_id}.json"
    path.write_text(json.dumps(doc))
    return path


def fleet(tmp_path):
    """Class A's accepted runs near 0.50, class B's near 0.80, and runs that must not be accepted."""
    return [
        copy_as(tmp_path, "a-old", CLASS_A, 0.95, 1),  # older than the newest 3 of class A
        copy_as(tmp_path, "a-1", CLASS_A, 0.50, 2),
        copy_as(tmp_path, "b-1", CLASS_B, 0.80, 3),
        copy_as(tmp_path, "a-2", CLASS_A, 0.51, 4),
        copy_as(tmp_path, "b-2", CLASS_B, 0.82, 5),
        copy_as(tmp_path, "a-3", CLASS_A, 0.49, 6),
        copy_as(tmp_path, "b-3", CLASS_B, 0.78, 7),
        copy_as(tmp_path, "a-feature", CLASS_A, 2.0, 8, branch="feature"),
        copy_as(tmp_path, "a-dirty", CLASS_A, 2.0, 9, dirty=True),
        copy_as(tmp_path, "a-failed", CLASS_A, 2.0, 10, exit_code=1),
        copy_as(tmp_path, "b-nobranch", CLASS_B, 2.0, 11, branch=None),
    ]


def check_line(perfgate, results, baseline, mark):
    """The verdict line of KEY in `perfgate baseline check`, asserted to start with `mark`
    (PASS or FAIL) and the command to exit as that mark says (0 or 1)."""
    r = perfgate("baseline", "check", results, "--baseline", baseline)
    assert r.returncode == {"PASS": 0, "FAIL": 1}[mark], r.stdout + r.stderr
    lines = [l for l in r.stdout.splitlines() if f"  {KEY}:" in l]
    assert len(lines) == 1, r.stdout
    assert lines[0].split()[0] == mark, lines[0]
    return lines[0]


def accepted_runs(baseline):
    entry = next(e for e in json.loads(baseline.read_text())["entries"] if e["scenario"] == "aa_true")
    return [(run["run_id"], run["host"]["cpu_model"], round(run["ratio"], 4)) for run in entry["runs"]]


def test_each_host_class_is_gated_by_its_own_accepted_runs_from_history(perfgate, tmp_path):
    db = tmp_path / "history.sqlite"
    r = perfgate("history", "add", *fleet(tmp_path), "--db", db)
    assert r.returncode == 0, r.stdout + r.stderr
    baseline = tmp_path / "baseline.json"
    r = perfgate("baseline", "update", "--from-history", db, "--branch", "main", "--newest", "3",
                 "--baseline", baseline)
    assert r.returncode == 0, r.stdout + r.stderr
    assert f"added     {KEY}" in r.stdout and "wrote" in r.stdout
    assert sorted(accepted_runs(baseline)) == [
        ("a-1", CLASS_A, 0.5), ("a-2", CLASS_A, 0.51), ("a-3", CLASS_A, 0.49),
        ("b-1", CLASS_B, 0.8), ("b-2", CLASS_B, 0.82), ("b-3", CLASS_B, 0.78)]
    # The entry's own figures are the newest accepted run's (b-3, started last).
    entry = json.loads(baseline.read_text())["entries"][0]
    assert entry["run_id"] == "b-3" and entry["host"]["cpu_model"] == CLASS_B and entry["n"] == 4
    assert entry["medians"]["before_ci"][0] <= entry["medians"]["before_ci"][1]

    # A ratio at class B's level fails on class A and passes on class B: each class is compared
    # with its own accepted runs, by the between-run rule.
    line = check_line(perfgate, copy_as(tmp_path, "now-a-slow", CLASS_A, 0.80, 20), baseline, "FAIL")
    assert "between-run" in line, line
    line = check_line(perfgate, copy_as(tmp_path, "now-b", CLASS_B, 0.80, 20), baseline, "PASS")
    assert "between-run" in line, line
    line = check_line(perfgate, copy_as(tmp_path, "now-a", CLASS_A, 0.50, 20), baseline, "PASS")
    assert "between-run" in line, line


def test_from_history_filters_append_dry_run_and_scenario(perfgate, tmp_path):
    db = tmp_path / "history.sqlite"
    files = fleet(tmp_path)
    assert perfgate("history", "add", *files, "--db", db).returncode == 0
    baseline = tmp_path / "baseline.json"
    # Any branch (a-feature and b-nobranch count), since a date: a-old and a-1 are left out by time.
    r = perfgate("baseline", "update", "--from-history", db, "--since", "2026-03-03", "--baseline", baseline,
                 "--scenario", "aa_true")
    assert r.returncode == 0, r.stdout + r.stderr
    runs = accepted_runs(baseline)
    assert sorted(run_id for run_id, _, _ in runs) == ["a-2", "a-3", "a-feature", "b-1", "b-2", "b-3", "b-nobranch"]
    # Dirty, failed and other-branch runs are never accepted.
    assert not {"a-dirty", "a-failed"} & {run_id for run_id, _, _ in runs}
    # A time bound is inclusive, with or without seconds and Z: b-3 started at 2026-03-07T12:00:00Z.
    for since in ("2026-03-07T12:00:00Z", "2026-03-07T12:00Z", "2026-03-07T12:00"):
        r = perfgate("baseline", "update", "--from-history", db, "--since", since, "--dry-run",
                     "--baseline", tmp_path / "unwritten.json")
        assert r.returncode == 0 and r.stdout.count(f" {KEY}: ") == 3, since + r.stdout + r.stderr
    assert not (tmp_path / "unwritten.json").exists()
    digest = hashlib.sha256(baseline.read_bytes()).hexdigest()
    r = perfgate("baseline", "update", "--from-history", db, "--append", "--dry-run", "--baseline", baseline)
    assert r.returncode == 0 and "dry run" in r.stdout and "appended" in r.stdout, r.stdout + r.stderr
    assert hashlib.sha256(baseline.read_bytes()).hexdigest() == digest
    r = perfgate("baseline", "update", "--from-history", db, "--append", "--baseline", baseline)
    assert r.returncode == 0, r.stdout + r.stderr
    assert {"a-old", "a-1", "a-feature"} <= {run_id for run_id, _, _ in accepted_runs(baseline)}
    # Nothing accepted, a missing database, a bad date, an unknown scenario, files and a database
    # at once: exit 2.
    r = perfgate("baseline", "update", "--from-history", db, "--branch", "nope", "--baseline", baseline)
    assert r.returncode == 2 and "no accepted run to record" in r.stderr and "branch nope" in r.stderr
    r = perfgate("baseline", "update", "--from-history", tmp_path / "missing.sqlite", "--baseline", baseline)
    assert r.returncode == 2 and "no history at" in r.stderr
    assert not (tmp_path / "missing.sqlite").exists()
    r = perfgate("baseline", "update", "--from-history", db, "--since", "March", "--baseline", baseline)
    assert r.returncode == 2 and "UTC date" in r.stderr
    r = perfgate("baseline", "update", "--from-history", db, "--scenario", "nothing", "--baseline", baseline)
    assert r.returncode == 2 and "no accepted run of scenario 'nothing'" in r.stderr
    r = perfgate("baseline", "update", files[0], "--from-history", db, "--baseline", baseline)
    assert r.returncode == 2
    r = perfgate("baseline", "update", files[0], "--branch", "main", "--baseline", baseline)
    assert r.returncode == 2 and "--from-history" in r.stderr


def test_from_history_equals_from_the_files(perfgate, tmp_path):
    """One merge, one shape: the entries made from the history are those made from the files."""
    files = [copy_as(tmp_path, f"a-{i}", CLASS_A, 0.5 + i / 100, i + 1) for i in range(3)]
    db = tmp_path / "history.sqlite"
    assert perfgate("history", "add", *files, "--db", db).returncode == 0
    from_files, from_history = tmp_path / "files.json", tmp_path / "history.json"
    assert perfgate("baseline", "update", *files, "--baseline", from_files).returncode == 0
    assert perfgate("baseline", "update", "--from-history", db, "--baseline", from_history).returncode == 0
    drop = lambda e: {k: v for k, v in e.items() if k not in ("recorded_at", "runs")}
    runs = lambda e: [{k: v for k, v in run.items() if k != "recorded_at"} for run in e["runs"]]
    a, b = (json.loads(p.read_text())["entries"] for p in (from_files, from_history))
    assert [drop(e) for e in a] == [drop(e) for e in b]
    assert [runs(e) for e in a] == [runs(e) for e in b]


# Version 1's statements, as the first perfgate with a history made them.
V1_SCHEMA = [
    "CREATE TABLE perfgate_history_schema (version INTEGER NOT NULL)",
    "CREATE TABLE perfgate_runs (run_id TEXT PRIMARY KEY, started_at TEXT NOT NULL, finished_at TEXT, "
    "commit_sha TEXT NOT NULL, dirty INTEGER NOT NULL, host_fingerprint TEXT NOT NULL, hostname TEXT, profile TEXT, "
    "exit_code INTEGER, source_file TEXT, added_at TEXT NOT NULL)",
    "CREATE TABLE perfgate_points (run_id TEXT NOT NULL REFERENCES perfgate_runs(run_id), "
    "scenario TEXT NOT NULL, profile TEXT NOT NULL, kind TEXT NOT NULL, variant TEXT NOT NULL, baseline TEXT NOT NULL, "
    "metric TEXT NOT NULL, unit TEXT, better TEXT, value DOUBLE PRECISION NOT NULL, ci_lo DOUBLE PRECISION, "
    "ci_hi DOUBLE PRECISION, n INTEGER, verdict TEXT, gated INTEGER NOT NULL, PRIMARY KEY (run_id, scenario, profile, "
    "kind, variant, metric))",
    "CREATE INDEX perfgate_points_series ON perfgate_points (scenario, profile, kind, variant, metric)",
    "INSERT INTO perfgate_history_schema (version) VALUES (1)",
]


def v1_rows(i):
    run_id = f"v1-{i}"
    return [
        ("INSERT INTO perfgate_runs VALUES (?, ?, ?, ?, 0, 'f00d', 'old', 'ab', 0, 'old.json', '2026-01-01T00:00:00Z')",
         (run_id, f"2026-01-0{i + 1}T00:00:00Z", f"2026-01-0{i + 1}T00:01:00Z", "c" * 40)),
        ("INSERT INTO perfgate_points VALUES (?, 'aa_true', 'ab', 'ratio', 'after', 'before', 'cpu_ms', 'ms', 'lower', "
         "?, 0.6, 0.7, 4, 'better', 1)", (run_id, 0.65)),
        ("INSERT INTO perfgate_points VALUES (?, 'aa_true', 'ab', 'median', 'after', '', 'cpu_ms', 'ms', 'lower', "
         "?, NULL, NULL, 4, '', 0)", (run_id, 6.5)),
    ]


def test_a_version_1_sqlite_history_is_migrated_in_place_and_keeps_its_rows(perfgate, tmp_path):
    db = tmp_path / "v1.sqlite"
    with sqlite3.connect(db) as c:
        for s in V1_SCHEMA:
            c.execute(s)
        for i in range(3):
            for sql, args in v1_rows(i):
                c.execute(sql, args)
    show = perfgate("history", "show", "aa_true", "--db", db)
    assert show.returncode == 0, show.stdout + show.stderr
    assert "0.65" in show.stdout and show.stdout.count("cccccccc") >= 3
    with sqlite3.connect(db) as c:
        assert c.execute("SELECT version FROM perfgate_history_schema").fetchall() == [(3,)]
        assert c.execute("SELECT count(*) FROM perfgate_runs").fetchone() == (3,)
        assert c.execute("SELECT count(*) FROM perfgate_points").fetchone() == (6,)
        cols = {row[1] for row in c.execute("PRAGMA table_info(perfgate_runs)")}
        assert {"cpu_model", "cores", "branch", "against"} <= cols
        cols = {row[1] for row in c.execute("PRAGMA table_info(perfgate_points)")}
        assert {"exact", "fingerprint", "confidence"} <= cols
    # New runs go beside the old ones; the old ones have no host class, so no baseline takes them.
    files = [copy_as(tmp_path, f"a-{i}", CLASS_A, 0.5, i + 1) for i in range(3)]
    r = perfgate("history", "add", *files, "--db", db)
    assert r.returncode == 0 and r.stdout.count("added") == 3, r.stdout + r.stderr
    baseline = tmp_path / "baseline.json"
    r = perfgate("baseline", "update", "--from-history", db, "--baseline", baseline)
    assert r.returncode == 0, r.stdout + r.stderr
    assert f"skipped   {KEY}: recorded before history schema 2" in r.stdout and "(3 runs)" in r.stdout
    assert sorted(run_id for run_id, _, _ in accepted_runs(baseline)) == ["a-0", "a-1", "a-2"]
    again = perfgate("history", "show", "aa_true", "--db", db)
    assert again.returncode == 0 and again.stdout.count("cccccccc") >= 3


def test_other_schema_versions_and_other_programs_databases_are_refused_untouched(perfgate, tmp_path):
    future = tmp_path / "v9.sqlite"
    with sqlite3.connect(future) as c:
        for s in V1_SCHEMA[:-1]:
            c.execute(s)
        c.execute("INSERT INTO perfgate_history_schema (version) VALUES (9)")
    other = tmp_path / "other.sqlite"
    with sqlite3.connect(other) as c:
        c.execute("CREATE TABLE notes (text TEXT)")
    for db, said in ((future, "says version 9"), (other, "a database of something else")):
        digest = hashlib.sha256(db.read_bytes()).hexdigest()
        r = perfgate("history", "add", copy_as(tmp_path, "x", CLASS_A, 0.5, 1), "--db", db)
        assert r.returncode == 2 and said in r.stderr, r.stderr
        r = perfgate("baseline", "update", "--from-history", db, "--baseline", tmp_path / "b.json")
        assert r.returncode == 2 and said in r.stderr, r.stderr
        assert hashlib.sha256(db.read_bytes()).hexdigest() == digest


def _psql(dsn, sql):
    psql = _pg_bin() / "psql"
    r = subprocess.run([str(psql), dsn, "-v", "ON_ERROR_STOP=1", "-qAt", "-c", sql], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return r.stdout.strip()


def test_a_version_1_postgresql_history_is_migrated_and_feeds_a_baseline(perfgate, tmp_path, postgres):
    for s in V1_SCHEMA:
        _psql(postgres, s)
    _psql(postgres, "INSERT INTO perfgate_runs VALUES ('v1-0', '2026-01-01T00:00:00Z', NULL, 'cccc', 0, 'f00d', "
                    "'old', 'ab', 0, 'old.json', '2026-01-01T00:00:00Z')")
    _psql(postgres, "INSERT INTO perfgate_points VALUES ('v1-0', 'aa_true', 'ab', 'ratio', 'after', 'before', "
                    "'cpu_ms', 'ms', 'lower', 0.65, 0.6, 0.7, 4, 'better', 1)")
    files = fleet(tmp_path)
    r = perfgate("history", "add", *files, "--db", postgres)
    assert r.returncode == 0, r.stdout + r.stderr
    assert _psql(postgres, "SELECT version FROM perfgate_history_schema") == "3"
    assert _psql(postgres, "SELECT count(*) FROM perfgate_runs") == str(len(files) + 1)
    assert _psql(postgres, "SELECT cpu_model IS NULL FROM perfgate_runs WHERE run_id = 'v1-0'") == "t"
    baseline = tmp_path / "baseline.json"
    r = perfgate("baseline", "update", "--from-history", postgres, "--branch", "main", "--newest", "3",
                 "--baseline", baseline)
    assert r.returncode == 0, r.stdout + r.stderr
    assert len(accepted_runs(baseline)) == 6
    line = check_line(perfgate, copy_as(tmp_path, "now-a-slow", CLASS_A, 0.80, 20), baseline, "FAIL")
    assert "between-run" in line, line
    line = check_line(perfgate, copy_as(tmp_path, "now-b", CLASS_B, 0.80, 20), baseline, "PASS")
    assert "between-run" in line, line


def test_a_run_records_its_branch_and_the_history_keeps_it(perfgate, tmp_path, validate):
    """CI checks out a detached commit; its own variable names the branch (run.branch)."""
    repo = tmp_path / "project"
    repo.mkdir()
    git = ["git", "-C", str(repo), "-c", "user.email=t@example.com", "-c", "user.name=t"]
    subprocess.run(git + ["init", "-q"], check=True)
    subprocess.run(git + ["commit", "-q", "--allow-empty", "-m", "x"], check=True)
    env = {"GITHUB_HEAD_REF": "", "GITHUB_REF_NAME": "ci-branch", "CI_COMMIT_REF_NAME": ""}
    r = perfgate("ab", "--before", "true", "--after", "true", "--name", "branchy", "--min-rounds", "4",
                 "--max-rounds", "4", "--out", tmp_path / "out", cwd=repo, env=env)
    assert r.returncode == 0, r.stdout + r.stderr
    doc = validate(tmp_path / "out" / "results.json")
    assert doc["run"]["branch"] == "ci-branch"
    db = tmp_path / "h.sqlite"
    assert perfgate("history", "add", tmp_path / "out" / "results.json", "--db", db).returncode == 0
    with sqlite3.connect(db) as c:
        assert c.execute("SELECT branch, cpu_model IS NOT NULL FROM perfgate_runs").fetchall() == [("ci-branch", 1)]
