#include "store/history_db.hpp"

#include <libpq-fe.h>
#include <sqlite3.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <variant>

#include "common/errors.hpp"
#include "common/time_stamp.hpp"
#include "store/results_file.hpp"

namespace perfgate::store {

using json = nlohmann::json;

namespace {

// The same statements for both databases; placeholders are ?1, ?2 ... (SQLite) rewritten to
// $1, $2 ... for PostgreSQL.

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

const char* kSeries =
    "SELECT r.run_id, r.started_at, r.commit_sha, r.host_fingerprint, r.dirty, p.value, p.ci_lo, p.ci_hi, p.n, "
    "p.unit, p.better, p.verdict, r.exit_code FROM perfgate_points p JOIN perfgate_runs r ON r.run_id = p.run_id "
    "WHERE p.scenario = ?1 AND p.profile = ?2 AND p.kind = ?3 AND p.variant = ?4 AND p.metric = ?5 "
    "ORDER BY r.started_at, r.run_id";

const char* kKnown =
    "SELECT DISTINCT profile, metric FROM perfgate_points WHERE scenario = ?1 AND kind = ?2 ORDER BY profile, metric";

// ON CONFLICT: the look-up and the insert are one step, so of two perfgates adding one run at
// once exactly one records it and the other is told it was already there.
const char* kInsertRun =
    "INSERT INTO perfgate_runs (run_id, started_at, finished_at, commit_sha, dirty, host_fingerprint, hostname, "
    "profile, exit_code, source_file, added_at, cpu_model, cores, kernel, branch, against) "
    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16) ON CONFLICT (run_id) DO NOTHING";

const char* kInsertPoint =
    "INSERT INTO perfgate_points (run_id, scenario, profile, kind, variant, baseline, metric, unit, better, value, "
    "ci_lo, ci_hi, n, verdict, gated, exact, confidence, fingerprint) "
    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18)";

// Gated ratio points of accepted runs with both medians beside them, newest run first; the
// conditions on branch and time are appended (AcceptedSql).
const char* kAccepted =
    "SELECT p.scenario, p.profile, p.metric, p.variant, p.baseline, p.unit, p.better, p.value, p.ci_lo, p.ci_hi, "
    "p.n, p.confidence, p.exact, p.fingerprint, r.run_id, r.commit_sha, r.host_fingerprint, r.cpu_model, r.cores, "
    "r.kernel, b.value, b.ci_lo, b.ci_hi, a.value, a.ci_lo, a.ci_hi FROM perfgate_points p "
    "JOIN perfgate_runs r ON r.run_id = p.run_id "
    "LEFT JOIN perfgate_points b ON b.run_id = p.run_id AND b.scenario = p.scenario AND b.profile = p.profile AND "
    "b.kind = 'median' AND b.variant = p.baseline AND b.metric = p.metric "
    "LEFT JOIN perfgate_points a ON a.run_id = p.run_id AND a.scenario = p.scenario AND a.profile = p.profile AND "
    "a.kind = 'median' AND a.variant = p.variant AND a.metric = p.metric "
    "WHERE p.kind = 'ratio' AND p.gated = 1 AND r.dirty = 0 AND r.exit_code = 0 AND r.against = 0 "
    "AND r.started_at >= ?1";

// A bound value: text, a number, an integer or NULL.
struct Value {
  enum Kind { Null, Text, Real, Int } kind = Null;
  std::string text;
  double real = 0;
  long long integer = 0;
  static Value of(const std::string& s) { return {Text, s, 0, 0}; }
  static Value of(double d) { return {Real, "", d, 0}; }
  static Value of_int(long long i) { return {Int, "", 0, i}; }
  static Value null() { return {}; }
  std::string as_text() const {
    if (kind == Text) return text;
    if (kind == Int) return std::to_string(integer);
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.17g", real);
    return buf;
  }
};
using Row = std::vector<std::optional<std::string>>;

// The SQL one database speaks; the history logic above it is shared.
class Sql {
 public:
  virtual ~Sql() = default;
  // The rows the statement inserted, updated or deleted.
  virtual long long exec(const std::string& sql, const std::vector<Value>& params = {}) = 0;
  virtual std::vector<Row> query(const std::string& sql, const std::vector<Value>& params = {}) = 0;
  // A transaction that will write: it waits for (and then excludes) every other writer from its
  // first statement, so what it reads stays true until it commits.
  virtual void begin_write() = 0;
  // One that changes the schema: also excludes other perfgates creating or migrating the tables.
  virtual void begin_schema_change() = 0;
};

class SqliteSql : public Sql {
 public:
  explicit SqliteSql(const std::string& path) : path_(path) {
    if (sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr) != SQLITE_OK) {
      std::string m = db_ ? sqlite3_errmsg(db_) : "out of memory";
      sqlite3_close(db_);
      throw RunError("cannot open the history database " + path + ": " + m);
    }
    // Another perfgate adding its runs holds the write lock a few milliseconds per run; a whole
    // fleet's results added at once can queue for far longer.
    sqlite3_busy_timeout(db_, 60000);
  }
  ~SqliteSql() override { sqlite3_close(db_); }
  long long exec(const std::string& sql, const std::vector<Value>& params) override {
    run(sql, params, nullptr);
    return sqlite3_changes(db_);
  }
  // IMMEDIATE: a deferred transaction that reads and then writes fails at once with SQLITE_BUSY
  // (no busy wait) when another writer got there between the two.
  void begin_write() override { run("BEGIN IMMEDIATE", {}, nullptr); }
  void begin_schema_change() override { begin_write(); }
  std::vector<Row> query(const std::string& sql, const std::vector<Value>& params) override {
    std::vector<Row> rows;
    run(sql, params, &rows);
    return rows;
  }

 private:
  void run(const std::string& sql, const std::vector<Value>& params, std::vector<Row>* rows) {
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &st, nullptr) != SQLITE_OK) fail();
    for (std::size_t i = 0; i < params.size(); ++i) {
      const int k = static_cast<int>(i) + 1;
      const Value& v = params[i];
      if (v.kind == Value::Null)
        sqlite3_bind_null(st, k);
      else if (v.kind == Value::Text)
        sqlite3_bind_text(st, k, v.text.c_str(), -1, SQLITE_TRANSIENT);
      else if (v.kind == Value::Real)
        sqlite3_bind_double(st, k, v.real);
      else
        sqlite3_bind_int64(st, k, v.integer);
    }
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
      if (!rows) continue;
      Row r;
      for (int c = 0; c < sqlite3_column_count(st); ++c)
        if (sqlite3_column_type(st, c) == SQLITE_NULL)
          r.push_back(std::nullopt);
        else if (sqlite3_column_type(st, c) == SQLITE_FLOAT)  // as text SQLite keeps 15 digits: not the value
          r.push_back(Value::of(sqlite3_column_double(st, c)).as_text());
        else
          r.push_back(std::string(reinterpret_cast<const char*>(sqlite3_column_text(st, c))));
      rows->push_back(std::move(r));
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) fail();
  }
  [[noreturn]] void fail() {
    const int code = sqlite3_errcode(db_);
    const std::string m = sqlite3_errmsg(db_);
    if (code == SQLITE_NOTADB || code == SQLITE_CORRUPT)
      throw UsageError(path_ + ": not a perfgate history database (" + m + ")");
    throw RunError("history database " + path_ + ": " + m);
  }
  std::string path_;
  sqlite3* db_ = nullptr;
};

class PostgresSql : public Sql {
 public:
  explicit PostgresSql(const std::string& dsn) {
    conn_ = PQconnectdb(dsn.c_str());
    if (PQstatus(conn_) != CONNECTION_OK) {
      std::string m = PQerrorMessage(conn_);
      PQfinish(conn_);
      while (!m.empty() && m.back() == '\n') m.pop_back();
      throw RunError("cannot connect to the history database: " + m);
    }
    PQsetNoticeProcessor(
        conn_, [](void*, const char*) {}, nullptr);  // "relation already exists, skipping"
  }
  ~PostgresSql() override { PQfinish(conn_); }
  long long exec(const std::string& sql, const std::vector<Value>& params) override {
    long long changed = 0;
    run(sql, params, &changed);
    return changed;
  }
  std::vector<Row> query(const std::string& sql, const std::vector<Value>& params) override { return run(sql, params); }
  // Row locks and ON CONFLICT serialise writers of one run; nothing more is needed.
  void begin_write() override { run("BEGIN", {}); }
  // Concurrent CREATE TABLE IF NOT EXISTS can fail on PostgreSQL's catalog (pg_type's unique
  // index), and two migrations would add one column twice: an advisory lock, held to commit,
  // makes them one at a time.
  void begin_schema_change() override {
    run("BEGIN", {});
    run("SELECT pg_advisory_xact_lock(" + std::to_string(kSchemaLockKey) + ")", {});
  }

 private:
  static std::string dollars(const std::string& sql) {
    std::string out;
    for (std::size_t i = 0; i < sql.size(); ++i) out += sql[i] == '?' ? '$' : sql[i];
    return out;
  }
  static constexpr long long kSchemaLockKey = 0x7065726667617465;  // "perfgate"
  std::vector<Row> run(const std::string& sql, const std::vector<Value>& params, long long* changed = nullptr) {
    std::vector<std::string> texts;
    for (const auto& p : params) texts.push_back(p.as_text());
    std::vector<const char*> values;
    for (std::size_t i = 0; i < params.size(); ++i)
      values.push_back(params[i].kind == Value::Null ? nullptr : texts[i].c_str());
    PGresult* res = PQexecParams(conn_, dollars(sql).c_str(), static_cast<int>(params.size()), nullptr, values.data(),
                                 nullptr, nullptr, 0);
    const auto status = PQresultStatus(res);
    if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) {
      std::string m = PQresultErrorMessage(res);
      PQclear(res);
      while (!m.empty() && m.back() == '\n') m.pop_back();
      throw RunError("history database (PostgreSQL): " + m);
    }
    if (changed) {
      const char* n = PQcmdTuples(res);
      *changed = n && *n ? std::atoll(n) : 0;
    }
    std::vector<Row> rows;
    for (int r = 0; r < PQntuples(res); ++r) {
      Row row;
      for (int c = 0; c < PQnfields(res); ++c)
        row.push_back(PQgetisnull(res, r, c) ? std::nullopt : std::optional<std::string>(PQgetvalue(res, r, c)));
      rows.push_back(std::move(row));
    }
    PQclear(res);
    return rows;
  }
  PGconn* conn_ = nullptr;
};

Value num_or_null(double v) { return std::isfinite(v) ? Value::of(v) : Value::null(); }
Value text_or_null(const std::string& t) { return t.empty() ? Value::null() : Value::of(t); }
Value flag_or_null(const std::optional<bool>& b) { return b ? Value::of_int(*b ? 1 : 0) : Value::null(); }

std::vector<Value> run_row(const model::ResultsDoc& d, const std::string& source_file) {
  const model::RunHeader& run = d.run;
  // cpu_model is never NULL from here on, even when the host did not say: NULL marks a version-1
  // row, which has no host class at all.
  return {Value::of(run.id),
          Value::of(run.started_at),
          text_or_null(run.finished_at),
          Value::of(run.commit),
          Value::of_int(run.dirty ? 1 : 0),
          Value::of(d.host.fingerprint),
          Value::of(d.host.hostname),
          Value::of(run.profile),
          Value::of_int(d.outcome.exit_code),
          Value::of(source_file),
          Value::of(now_iso8601()),
          Value::of(d.host.cpu_model),
          Value::of_int(d.host.cores),
          Value::of(d.host.kernel),
          run.branch ? Value::of(*run.branch) : Value::null(),
          Value::of_int(run.other.contains("against") ? 1 : 0)};
}

std::vector<Value> ratio_row(const std::string& run_id, const model::ScenarioResult& s, const model::Comparison& c) {
  return {Value::of(run_id),
          Value::of(s.name),
          Value::of(s.profile),
          Value::of("ratio"),
          Value::of(c.variant),
          Value::of(c.baseline),
          Value::of(c.metric),
          Value::of(c.unit),
          Value::of(c.better),
          Value::of(c.r.ratio),
          num_or_null(c.r.ci.lo),
          num_or_null(c.r.ci.hi),
          Value::of_int(static_cast<int>(c.r.n)),
          Value::of(stats::to_string(c.verdict)),
          Value::of_int(c.gated ? 1 : 0),
          flag_or_null(c.exact),
          Value::of(c.confidence),
          text_or_null(s.fingerprint)};
}

// The bootstrapped interval of a variant's median where a gated comparison uses it; none elsewhere.
std::optional<std::array<double, 2>> median_ci(const std::vector<model::BaselineEntry>& gated,
                                               const model::ScenarioResult& s, const std::string& variant,
                                               const std::string& metric) {
  for (const auto& e : gated) {
    if (e.scenario != s.name || e.profile != s.profile || e.metric != metric) continue;
    if (e.variant == variant) return e.after_median_ci;
    if (e.compare_to == variant) return e.before_median_ci;
  }
  return std::nullopt;
}

std::vector<Value> median_row(const std::string& run_id, const model::ScenarioResult& s, const std::string& variant,
                              const std::string& metric, const model::MetricSummary& m,
                              const std::optional<std::array<double, 2>>& ci) {
  return {Value::of(run_id),
          Value::of(s.name),
          Value::of(s.profile),
          Value::of("median"),
          Value::of(variant),
          Value::of(""),
          Value::of(metric),
          Value::of(m.unit),
          Value::of(m.better.empty() ? "lower" : m.better),
          Value::of(m.s.median),
          ci ? num_or_null((*ci)[0]) : Value::null(),
          ci ? num_or_null((*ci)[1]) : Value::null(),
          Value::of_int(static_cast<int>(m.s.n)),
          Value::of(""),
          Value::of_int(0),
          Value::of_int(m.exact ? 1 : 0),
          Value::null(),
          text_or_null(s.fingerprint)};
}

// Columns of kAccepted, in order.
enum AcceptedColumn {
  kScenario,
  kProfile,
  kMetric,
  kVariant,
  kCompareTo,
  kUnit,
  kBetter,
  kRatio,
  kCiLo,
  kCiHi,
  kN,
  kConfidence,
  kExact,
  kFingerprint,
  kRunId,
  kCommit,
  kHostFingerprint,
  kCpuModel,
  kCores,
  kKernel,
  kBefore,
  kBeforeLo,
  kBeforeHi,
  kAfter,
  kAfterLo,
  kAfterHi
};

double real_at(const Row& r, int c) { return std::stod(*r[c]); }

// A baseline entry from one row of kAccepted, as gate::entries_from_scenario makes one from a
// results file; or why none can be made.
std::variant<model::BaselineEntry, std::string> entry_from_row(const Row& r) {
  if (!r[kCpuModel]) return std::string("recorded before history schema 2 (no host class, no median intervals)");
  if (!r[kCiLo] || !r[kCiHi]) return std::string("the ratio's interval is not finite (a zero median)");
  if (!r[kN] || std::stoi(*r[kN]) < 2) return std::string("fewer than 2 rounds");
  for (int c : {kBefore, kBeforeLo, kBeforeHi, kAfter, kAfterLo, kAfterHi})
    if (!r[c]) return std::string("no median interval (its results file had no raw samples of the metric)");
  model::BaselineEntry e;
  e.scenario = *r[kScenario];
  e.profile = *r[kProfile];
  e.metric = *r[kMetric];
  e.variant = *r[kVariant];
  e.compare_to = *r[kCompareTo];
  e.unit = r[kUnit].value_or("");
  e.better = r[kBetter].value_or("lower");
  if (r[kExact]) e.exact = *r[kExact] == "1";
  e.ratio = real_at(r, kRatio);
  e.ci = {real_at(r, kCiLo), real_at(r, kCiHi)};
  if (r[kConfidence]) e.confidence = real_at(r, kConfidence);
  e.n = std::stoi(*r[kN]);
  e.before_median = real_at(r, kBefore);
  e.before_median_ci = {real_at(r, kBeforeLo), real_at(r, kBeforeHi)};
  e.after_median = real_at(r, kAfter);
  e.after_median_ci = {real_at(r, kAfterLo), real_at(r, kAfterHi)};
  e.host_fingerprint = r[kHostFingerprint].value_or("");
  e.host = {{"cpu_model", *r[kCpuModel]},
            {"cores", r[kCores] ? std::stoi(*r[kCores]) : 0},
            {"kernel", r[kKernel].value_or("")}};
  e.commit = r[kCommit].value_or("unknown");
  e.run_id = r[kRunId].value_or("");
  e.recorded_at = now_iso8601();
  e.fingerprint = r[kFingerprint].value_or("");
  return e;
}

// kAccepted with the query's conditions, and their parameters.
std::pair<std::string, std::vector<Value>> accepted_sql(const AcceptedQuery& q) {
  std::string sql = kAccepted;
  std::vector<Value> params = {Value::of(q.since)};
  if (!q.branch.empty()) {
    sql += " AND r.branch = ?2";
    params.push_back(Value::of(q.branch));
  }
  return {sql + " ORDER BY r.started_at DESC, r.run_id DESC", params};
}

// The newest `newest` rows per entry and host class (rows come newest first), oldest first; the
// skipped ones counted per entry and reason.
AcceptedRuns select_accepted(const std::vector<Row>& rows, const AcceptedQuery& q) {
  AcceptedRuns out;
  std::map<std::string, int> taken;
  std::map<std::string, int> skipped;
  for (const auto& r : rows) {
    const std::string& scenario = *r[kScenario];
    if (!q.scenarios.empty() && std::find(q.scenarios.begin(), q.scenarios.end(), scenario) == q.scenarios.end())
      continue;
    auto made = entry_from_row(r);
    const std::string key = scenario + "/" + *r[kProfile] + "/" + *r[kMetric];
    if (auto* why = std::get_if<std::string>(&made)) {
      ++skipped[key + ": " + *why];
      continue;
    }
    auto& e = std::get<model::BaselineEntry>(made);
    if (taken[e.key() + "\n" + e.host_class()]++ < q.newest) out.entries.push_back(std::move(e));
  }
  std::reverse(out.entries.begin(), out.entries.end());
  for (const auto& [what, count] : skipped)
    out.skipped.push_back(what + " (" + std::to_string(count) + (count == 1 ? " run)" : " runs)"));
  return out;
}

class History : public HistoryDb {
 public:
  History(std::unique_ptr<Sql> sql, std::string what) : sql_(std::move(sql)), what_(std::move(what)) {
    // Read first, writing nothing: a database that is not ours is refused untouched, and one at
    // this version (nearly every open) takes no lock.
    if (version() == kHistorySchemaVersion) return;
    in_transaction(true, [&] { upgrade(); });
  }
  std::string describe() const override { return what_; }

  bool add_run(const model::ResultsDoc& results, const std::string& source_file,
               const std::vector<model::BaselineEntry>& gated) override {
    bool added = false;
    in_transaction(false, [&] {
      added = sql_->exec(kInsertRun, run_row(results, source_file)) == 1;
      if (!added) return;  // recorded already, by an earlier add or by one running now
      for (const auto& s : results.scenarios)
        if (!s.error) add_points(results.run.id, s, gated);
    });
    return added;
  }

  AcceptedRuns accepted_runs(const AcceptedQuery& q) override {
    auto [sql, params] = accepted_sql(q);
    return select_accepted(sql_->query(sql, params), q);
  }

  std::vector<HistoryPoint> series(const SeriesQuery& q) override {
    std::vector<HistoryPoint> out;
    for (const auto& r : sql_->query(kSeries, {Value::of(q.scenario), Value::of(q.profile), Value::of(q.kind),
                                               Value::of(q.variant), Value::of(q.metric)})) {
      HistoryPoint p;
      p.run_id = r[0].value_or("");
      p.started_at = r[1].value_or("");
      p.commit = r[2].value_or("");
      p.host_fingerprint = r[3].value_or("");
      p.dirty = r[4].value_or("0") == "1";
      p.value = std::stod(r[5].value_or("0"));
      if (r[6]) p.ci_lo = std::stod(*r[6]);
      if (r[7]) p.ci_hi = std::stod(*r[7]);
      p.n = r[8] ? std::stoi(*r[8]) : 0;
      p.unit = r[9].value_or("");
      p.better = r[10].value_or("lower");
      p.verdict = r[11].value_or("");
      p.exit_code = r[12] ? std::stoi(*r[12]) : 0;
      out.push_back(std::move(p));
    }
    return out;
  }

  std::optional<std::string> gated_metric(const std::string& scenario, const std::string& profile) override {
    auto rows = sql_->query(
        "SELECT p.metric FROM perfgate_points p JOIN perfgate_runs r ON r.run_id = p.run_id WHERE p.scenario = ?1 AND "
        "p.profile = ?2 AND p.kind = 'ratio' AND p.gated = 1 ORDER BY r.started_at DESC LIMIT 1",
        {Value::of(scenario), Value::of(profile)});
    if (rows.empty() || !rows[0][0]) return std::nullopt;
    return rows[0][0];
  }

  std::vector<std::pair<std::string, std::string>> known(const std::string& scenario,
                                                         const std::string& kind) override {
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto& r : sql_->query(kKnown, {Value::of(scenario), Value::of(kind)}))
      out.emplace_back(r[0].value_or(""), r[1].value_or(""));
    return out;
  }

 private:
  bool is_pg() const { return what_.rfind("postgresql:", 0) == 0; }

  // 0: no perfgate tables yet. Throws UsageError for another program's database or a version this
  // perfgate neither reads nor migrates.
  int version() {
    auto tables =
        sql_->query(is_pg() ? "SELECT table_name FROM information_schema.tables WHERE table_name LIKE 'perfgate_%'"
                            : "SELECT name FROM sqlite_master WHERE type = 'table'");
    bool has_schema = false, has_other = false;
    for (const auto& t : tables) {
      if (t[0] == "perfgate_history_schema")
        has_schema = true;
      else if (!is_pg() && t[0] && t[0]->rfind("perfgate_", 0) != 0)
        has_other = true;
    }
    if (!has_schema && has_other)
      throw UsageError(what_ + ": a database of something else (it has tables, none of them perfgate's history)");
    if (!has_schema) return 0;
    auto v = sql_->query("SELECT version FROM perfgate_history_schema");
    const std::string said = v.size() == 1 && v[0][0] ? *v[0][0] : "";
    for (int known = 1; known <= kHistorySchemaVersion; ++known)
      if (said == std::to_string(known)) return known;
    throw UsageError(what_ + ": perfgate_history_schema says version " + (said.empty() ? "nothing" : said) +
                     "; this perfgate reads 1 to " + std::to_string(kHistorySchemaVersion));
  }

  // Under the schema lock, so the version is read again: another perfgate may have created or
  // migrated the tables since.
  void upgrade() {
    int v = version();
    if (v == 0) {
      for (const char* s : kSchemaV1) sql_->exec(s);
      sql_->exec("INSERT INTO perfgate_history_schema (version) VALUES (1)");
      v = 1;
    }
    if (v == 1) {
      for (const char* s : kMigrateToV2) sql_->exec(s);
      sql_->exec("UPDATE perfgate_history_schema SET version = 2");
    }
  }

  template <class Body>
  void in_transaction(bool schema, Body&& body) {
    if (schema)
      sql_->begin_schema_change();
    else
      sql_->begin_write();
    try {
      body();
      sql_->exec("COMMIT");
    } catch (...) {
      try {
        sql_->exec("ROLLBACK");
      } catch (...) {
      }
      throw;
    }
  }

  void add_points(const std::string& run_id, const model::ScenarioResult& s,
                  const std::vector<model::BaselineEntry>& gated) {
    for (const auto& c : s.comparisons)
      if (std::isfinite(c.r.ratio)) sql_->exec(kInsertPoint, ratio_row(run_id, s, c));
    for (const auto& [variant, metrics] : s.summaries)
      for (const auto& [metric, m] : metrics)
        if (std::isfinite(m.s.median))
          sql_->exec(kInsertPoint, median_row(run_id, s, variant, metric, m, median_ci(gated, s, variant, metric)));
  }

  std::unique_ptr<Sql> sql_;
  std::string what_;
};

// "postgresql://user:secret@host/db" → "postgresql://user@host/db": never print a password.
std::string without_password(const std::string& dsn) {
  auto scheme = dsn.find("://");
  if (scheme != std::string::npos) {
    auto at = dsn.find('@', scheme);
    auto colon = dsn.find(':', scheme + 3);
    if (at != std::string::npos && colon != std::string::npos && colon < at)
      return dsn.substr(0, colon) + dsn.substr(at);
    return dsn;
  }
  std::string out;
  std::size_t i = 0;
  while (i < dsn.size()) {
    auto end = dsn.find(' ', i);
    std::string kv = dsn.substr(i, end == std::string::npos ? std::string::npos : end - i);
    if (kv.rfind("password=", 0) != 0 && !kv.empty()) out += (out.empty() ? "" : " ") + kv;
    if (end == std::string::npos) break;
    i = end + 1;
  }
  return out;
}

}  // namespace

bool is_postgres_dsn(const std::string& where) {
  return where.rfind("postgres://", 0) == 0 || where.rfind("postgresql://", 0) == 0 ||
         (where.find('=') != std::string::npos && where.find('/') == std::string::npos) ||
         (where.find('=') != std::string::npos && where.find("host=") != std::string::npos);
}

std::unique_ptr<HistoryDb> open_history(const std::string& where) {
  if (is_postgres_dsn(where))
    return std::make_unique<History>(std::make_unique<PostgresSql>(where), "postgresql:" + without_password(where));
  std::filesystem::path p = where;
  if (p.has_parent_path()) std::filesystem::create_directories(p.parent_path());
  return std::make_unique<History>(std::make_unique<SqliteSql>(where), "sqlite:" + where);
}

}  // namespace perfgate::store
