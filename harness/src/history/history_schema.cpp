#include "history/history_schema.hpp"

#include "common/errors.hpp"
#include "history/history_db.hpp"

namespace perfgate::history {

namespace {

// Version 1's tables as the first perfgate made them. A new database is made at version 1 and
// migrated like an old one, so the migrations are the path every database takes.
const char* kSchemaV1[] = {
    "CREATE TABLE IF NOT EXISTS perfgate_history_schema (version INTEGER NOT NULL)",
    "CREATE TABLE IF NOT EXISTS perfgate_runs (run_id TEXT PRIMARY KEY, started_at TEXT NOT NULL, finished_at TEXT, "
    "commit_sha TEXT NOT NULL, dirty INTEGER NOT NULL, host_fingerprint TEXT NOT NULL, hostname TEXT, profile TEXT, "
    "exit_code INTEGER, source_file TEXT, added_at TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS perfgate_points (run_id TEXT NOT NULL REFERENCES perfgate_runs(run_id), "
    "scenario TEXT NOT NULL, profile TEXT NOT NULL, kind TEXT NOT NULL, variant TEXT NOT NULL, baseline TEXT NOT NULL, "
    "metric TEXT NOT NULL, unit TEXT, better TEXT, value DOUBLE PRECISION NOT NULL, ci_lo DOUBLE PRECISION, "
    "ci_hi DOUBLE PRECISION, n INTEGER, verdict TEXT, gated INTEGER NOT NULL, PRIMARY KEY (run_id, scenario, profile, "
    "kind, variant, metric))",
    "CREATE INDEX IF NOT EXISTS perfgate_points_series ON perfgate_points (scenario, profile, kind, variant, metric)"};

// Version 2: what an accepted run of a baseline entry needs — the host class (CPU model × cores),
// the branch, the comparison's exactness, level and fingerprint (and, on median points, the
// median's interval) — and --against runs marked, whose ratios compare two builds, not a change.
// Rows of version 1 keep NULL there: no host class to file them under.
const char* kMigrateToV2[] = {
    "ALTER TABLE perfgate_runs ADD COLUMN cpu_model TEXT", "ALTER TABLE perfgate_runs ADD COLUMN cores INTEGER",
    "ALTER TABLE perfgate_runs ADD COLUMN kernel TEXT", "ALTER TABLE perfgate_runs ADD COLUMN branch TEXT",
    "ALTER TABLE perfgate_runs ADD COLUMN against INTEGER NOT NULL DEFAULT 0",
    "ALTER TABLE perfgate_points ADD COLUMN exact INTEGER",
    "ALTER TABLE perfgate_points ADD COLUMN confidence DOUBLE PRECISION",
    "ALTER TABLE perfgate_points ADD COLUMN fingerprint TEXT",
    // --from-history reads the gated ratios of every run: one in ~30 points
    "CREATE INDEX IF NOT EXISTS perfgate_points_gated ON perfgate_points (gated, kind)"};

// Version 3: what a person needs to act on a point of the published site (history_site.hpp) —
// the command that re-runs the run and, on a comparison, the one that re-runs its scenario, and
// the results file as an absolute path (source_file is as it was given, relative to a folder
// nobody knows later), whose folder holds the run's report.md when one was written. Rows of
// earlier versions keep NULL there: the site says "not recorded".
const char* kMigrateToV3[] = {"ALTER TABLE perfgate_runs ADD COLUMN reproduce TEXT",
                              "ALTER TABLE perfgate_runs ADD COLUMN results_path TEXT",
                              "ALTER TABLE perfgate_points ADD COLUMN reproduce TEXT"};

}  // namespace

int schema_version(Sql& sql, const std::string& what) {
  auto tables = sql.query(sql.list_tables());
  bool has_schema = false, has_other = false;
  for (const auto& t : tables) {
    if (t[0] == "perfgate_history_schema")
      has_schema = true;
    else if (!sql.shared_with_others() && t[0] && t[0]->rfind("perfgate_", 0) != 0)
      has_other = true;
  }
  if (!has_schema && has_other)
    throw UsageError(what + ": a database of something else (it has tables, none of them perfgate's history)");
  if (!has_schema) return 0;
  auto v = sql.query("SELECT version FROM perfgate_history_schema");
  const std::string said = v.size() == 1 && v[0][0] ? *v[0][0] : "";
  for (int known = 1; known <= kHistorySchemaVersion; ++known)
    if (said == std::to_string(known)) return known;
  throw UsageError(what + ": perfgate_history_schema says version " + (said.empty() ? "nothing" : said) +
                   "; this perfgate reads 1 to " + std::to_string(kHistorySchemaVersion));
}

void upgrade_schema(Sql& sql, const std::string& what) {
  int v = schema_version(sql, what);
  if (v == 0) {
    for (const char* s : kSchemaV1) sql.exec(s);
    sql.exec("INSERT INTO perfgate_history_schema (version) VALUES (1)");
    v = 1;
  }
  if (v == 1) {
    for (const char* s : kMigrateToV2) sql.exec(s);
    sql.exec("UPDATE perfgate_history_schema SET version = 2");
    v = 2;
  }
  if (v == 2) {
    for (const char* s : kMigrateToV3) sql.exec(s);
    sql.exec("UPDATE perfgate_history_schema SET version = 3");
  }
}

}  // namespace perfgate::history
