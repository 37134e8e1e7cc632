#include "store/history_db.hpp"

#include <libpq-fe.h>
#include <sqlite3.h>

#include <cmath>
#include <cstdio>
#include <filesystem>

#include "common/errors.hpp"
#include "store/results_file.hpp"

namespace perfgate::store {

using json = nlohmann::json;

namespace {

// The same statements for both databases; placeholders are ?1, ?2 ... (SQLite) rewritten to
// $1, $2 ... for PostgreSQL.
const char* kSchema[] = {
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

const char* kSeries =
    "SELECT r.run_id, r.started_at, r.commit_sha, r.host_fingerprint, r.dirty, p.value, p.ci_lo, p.ci_hi, p.n, "
    "p.unit, p.better, p.verdict FROM perfgate_points p JOIN perfgate_runs r ON r.run_id = p.run_id "
    "WHERE p.scenario = ?1 AND p.profile = ?2 AND p.kind = ?3 AND p.variant = ?4 AND p.metric = ?5 "
    "ORDER BY r.started_at, r.run_id";

const char* kKnown =
    "SELECT DISTINCT profile, metric FROM perfgate_points WHERE scenario = ?1 AND kind = ?2 ORDER BY profile, metric";

const char* kInsertRun =
    "INSERT INTO perfgate_runs (run_id, started_at, finished_at, commit_sha, dirty, host_fingerprint, hostname, "
    "profile, "
    "exit_code, source_file, added_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)";

const char* kInsertPoint =
    "INSERT INTO perfgate_points (run_id, scenario, profile, kind, variant, baseline, metric, unit, better, value, "
    "ci_lo, ci_hi, n, verdict, gated) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)";

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
  virtual void exec(const std::string& sql, const std::vector<Value>& params = {}) = 0;
  virtual std::vector<Row> query(const std::string& sql, const std::vector<Value>& params = {}) = 0;
};

class SqliteSql : public Sql {
 public:
  explicit SqliteSql(const std::string& path) : path_(path) {
    if (sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr) != SQLITE_OK) {
      std::string m = db_ ? sqlite3_errmsg(db_) : "out of memory";
      sqlite3_close(db_);
      throw RunError("cannot open the history database " + path + ": " + m);
    }
    sqlite3_busy_timeout(db_, 10000);  // another perfgate adding its run
  }
  ~SqliteSql() override { sqlite3_close(db_); }
  void exec(const std::string& sql, const std::vector<Value>& params) override { run(sql, params, nullptr); }
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
  void exec(const std::string& sql, const std::vector<Value>& params) override { run(sql, params); }
  std::vector<Row> query(const std::string& sql, const std::vector<Value>& params) override { return run(sql, params); }

 private:
  static std::string dollars(const std::string& sql) {
    std::string out;
    for (std::size_t i = 0; i < sql.size(); ++i) out += sql[i] == '?' ? '$' : sql[i];
    return out;
  }
  std::vector<Row> run(const std::string& sql, const std::vector<Value>& params) {
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

class History : public HistoryDb {
 public:
  History(std::unique_ptr<Sql> sql, std::string what) : sql_(std::move(sql)), what_(std::move(what)) {
    // An existing database must be ours, of a version we read; a new one gets the schema.
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
    if (has_schema) {
      auto v = sql_->query("SELECT version FROM perfgate_history_schema");
      if (v.size() != 1 || !v[0][0] || *v[0][0] != std::to_string(kHistorySchemaVersion))
        throw UsageError(what_ + ": perfgate_history_schema says version " +
                         (v.empty() || !v[0][0] ? "nothing" : *v[0][0]) + "; this perfgate reads " +
                         std::to_string(kHistorySchemaVersion));
    } else {
      sql_->exec("BEGIN");
      for (const char* s : kSchema) sql_->exec(s);
      sql_->exec("INSERT INTO perfgate_history_schema (version) VALUES (" + std::to_string(kHistorySchemaVersion) +
                 ")");
      sql_->exec("COMMIT");
    }
  }
  std::string describe() const override { return what_; }

  bool add_run(const model::ResultsDoc& results, const std::string& source_file) override {
    const model::RunHeader& run = results.run;
    if (!sql_->query("SELECT run_id FROM perfgate_runs WHERE run_id = ?1", {Value::of(run.id)}).empty()) return false;
    sql_->exec("BEGIN");
    try {
      sql_->exec(kInsertRun,
                 {Value::of(run.id), Value::of(run.started_at),
                  run.finished_at.empty() ? Value::null() : Value::of(run.finished_at), Value::of(run.commit),
                  Value::of_int(run.dirty ? 1 : 0), Value::of(results.host.fingerprint),
                  Value::of(results.host.hostname), Value::of(run.profile), Value::of_int(results.outcome.exit_code),
                  Value::of(source_file), Value::of(now_iso8601())});
      for (const auto& s : results.scenarios) {
        if (s.error) continue;
        for (const auto& c : s.comparisons) {
          if (!std::isfinite(c.r.ratio)) continue;
          sql_->exec(kInsertPoint, {Value::of(run.id), Value::of(s.name), Value::of(s.profile), Value::of("ratio"),
                                    Value::of(c.variant), Value::of(c.baseline), Value::of(c.metric), Value::of(c.unit),
                                    Value::of(c.better), Value::of(c.r.ratio), num_or_null(c.r.ci.lo),
                                    num_or_null(c.r.ci.hi), Value::of_int(static_cast<int>(c.r.n)),
                                    Value::of(stats::to_string(c.verdict)), Value::of_int(c.gated ? 1 : 0)});
        }
        for (const auto& [variant, metrics] : s.summaries)
          for (const auto& [metric, m] : metrics) {
            if (!std::isfinite(m.s.median)) continue;
            sql_->exec(kInsertPoint,
                       {Value::of(run.id), Value::of(s.name), Value::of(s.profile), Value::of("median"),
                        Value::of(variant), Value::of(""), Value::of(metric), Value::of(m.unit),
                        Value::of(m.better.empty() ? "lower" : m.better), Value::of(m.s.median), Value::null(),
                        Value::null(), Value::of_int(static_cast<int>(m.s.n)), Value::of(""), Value::of_int(0)});
          }
      }
      sql_->exec("COMMIT");
    } catch (...) {
      try {
        sql_->exec("ROLLBACK");
      } catch (...) {
      }
      throw;
    }
    return true;
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
