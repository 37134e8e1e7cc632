"""The history's schema version 3 (docs/history.md "Schema versions"): a version-2 database, as the
last version-2 perfgate left it, is migrated in place — SQLite and PostgreSQL alike — its rows
kept and read as before, with no reproduce line or results path (the site says so); new runs
record both."""
import json
import pathlib
import sqlite3
import sys

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from test_history import _pg_bin, postgres  # noqa: E402,F401  (the PostgreSQL fixture)
from test_history_baseline import CLASS_A, V1_SCHEMA, _psql, copy_as  # noqa: E402

# Version 2's migration, as the version-2 perfgate ran it on every database.
V2_MIGRATION = [
    "ALTER TABLE perfgate_runs ADD COLUMN cpu_model TEXT", "ALTER TABLE perfgate_runs ADD COLUMN cores INTEGER",
    "ALTER TABLE perfgate_runs ADD COLUMN kernel TEXT", "ALTER TABLE perfgate_runs ADD COLUMN branch TEXT",
    "ALTER TABLE perfgate_runs ADD COLUMN against INTEGER NOT NULL DEFAULT 0",
    "ALTER TABLE perfgate_points ADD COLUMN exact INTEGER",
    "ALTER TABLE perfgate_points ADD COLUMN confidence DOUBLE PRECISION",
    "ALTER TABLE perfgate_points ADD COLUMN fingerprint TEXT",
    "CREATE INDEX IF NOT EXISTS perfgate_points_gated ON perfgate_points (gated, kind)",
    "UPDATE perfgate_history_schema SET version = 2",
]


def v2_statements():
    """A version-2 history of three runs of aa_true on one host class, at 0.60, 0.61, 0.80."""
    out = list(V1_SCHEMA) + V2_MIGRATION
    for i, ratio in enumerate((0.60, 0.61, 0.80)):
        out.append(f"INSERT INTO perfgate_runs (run_id, started_at, finished_at, commit_sha, dirty, host_fingerprint, "
                   f"hostname, profile, exit_code, source_file, added_at, cpu_model, cores, kernel, branch, against) "
                   f"VALUES ('v2-{i}', '2026-02-0{i + 1}T00:00:00Z', NULL, '{i}{'c' * 39}', 0, 'f00d', 'old', 'ab', 0, "
                   f"'old.json', '2026-02-01T00:00:00Z', '{CLASS_A}', 2, 'k', 'main', 0)")
        out.append(f"INSERT INTO perfgate_points (run_id, scenario, profile, kind, variant, baseline, metric, unit, "
                   f"better, value, ci_lo, ci_hi, n, verdict, gated, exact, confidence, fingerprint) VALUES ('v2-{i}', "
                   f"'aa_true', 'ab', 'ratio', 'after', 'before', 'cpu_ms', 'ms', 'lower', {ratio}, {ratio * 0.98}, "
                   f"{ratio * 1.02}, 4, 'better', 1, 0, 0.95, 'fp')")
    return out


def check_read_after_migration(perfgate, db, tmp_path, version):
    show = perfgate("history", "show", "aa_true", "--db", db, "--host-class", f"{CLASS_A} x2")
    assert show.returncode == 0, show.stdout + show.stderr
    assert show.stdout.count("cccccccc") == 3 and "0.8x" in show.stdout
    assert version() == "3"
    # A run recorded now keeps its reproduce lines and its results file's absolute path.
    new = copy_as(tmp_path, "v3-new", CLASS_A, 0.62, 20)
    r = perfgate("history", "add", new.name, "--db", db, cwd=new.parent)
    assert r.returncode == 0, r.stdout + r.stderr
    site = tmp_path / "site"
    r = perfgate("history", "publish", "--db", db, "-o", site, "--baseline", "none")
    assert r.returncode == 0, r.stdout + r.stderr
    (data,) = (site / "data").glob("series-aa_true.*.js")  # one series: one host class
    page = json.loads(data.read_text().split("=", 1)[1].rstrip(";\n"))
    return page["series"]["runs"]


def test_a_version_2_sqlite_history_is_migrated_to_3_and_read(perfgate, tmp_path):
    db = tmp_path / "v2.sqlite"
    with sqlite3.connect(db) as c:
        for s in v2_statements():
            c.execute(s)
    version = lambda: str(sqlite3.connect(db).execute("SELECT version FROM perfgate_history_schema").fetchone()[0])
    assert version() == "2"
    runs = check_read_after_migration(perfgate, db, tmp_path, version)
    assert runs["reproduce"][:3] == ["", "", ""] and "ab --before true --after true --name aa_true" in runs["reproduce"][3]
    with sqlite3.connect(db) as c:
        rows = c.execute("SELECT run_id, reproduce, results_path FROM perfgate_runs ORDER BY started_at").fetchall()
    assert [r[1:] for r in rows[:3]] == [(None, None)] * 3
    assert rows[3][2] == str(tmp_path / "v3-new.json") and rows[3][1]


def test_a_version_2_postgresql_history_is_migrated_to_3_and_read(perfgate, tmp_path, postgres):
    for s in v2_statements():
        _psql(postgres, s)
    version = lambda: _psql(postgres, "SELECT version FROM perfgate_history_schema")
    assert version() == "2"
    runs = check_read_after_migration(perfgate, postgres, tmp_path, version)
    assert runs["reproduce"][:3] == ["", "", ""] and "ab --before true --after true --name aa_true" in runs["reproduce"][3]
    assert _psql(postgres, "SELECT count(*) FROM perfgate_runs WHERE reproduce IS NULL") == "3"
    assert _psql(postgres, "SELECT results_path FROM perfgate_runs WHERE run_id = 'v3-new'") == str(tmp_path / "v3-new.json")
