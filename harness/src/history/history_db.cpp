// The history over either database: a run added in one transaction, the series and figures read
// back. The SQL each database speaks is history_sqlite.cpp / history_postgres.cpp, the tables
// history_schema.cpp, the rows of a run history_insert.cpp, the runs a baseline is made of
// history_accepted.cpp.
#include "history/history_db.hpp"

#include <filesystem>

#include "history/history_accepted.hpp"
#include "history/history_insert.hpp"
#include "history/history_schema.hpp"
#include "history/history_sql.hpp"

namespace perfgate::history {

namespace {

const char* kSeries =
    "SELECT r.run_id, r.started_at, r.commit_sha, r.host_fingerprint, r.dirty, p.value, p.ci_lo, p.ci_hi, p.n, "
    "p.unit, p.better, p.verdict, r.exit_code, r.cpu_model, r.cores, r.branch, p.fingerprint, p.exact, "
    "p.reproduce, r.reproduce, r.results_path, r.source_file, p.baseline, r.against "
    "FROM perfgate_points p JOIN perfgate_runs r ON r.run_id = p.run_id "
    "WHERE p.scenario = ?1 AND p.profile = ?2 AND p.kind = ?3 AND p.variant = ?4 AND p.metric = ?5 "
    "ORDER BY r.started_at, r.run_id";

const char* kGatedSeries =
    "SELECT DISTINCT scenario, profile, variant, metric FROM perfgate_points WHERE gated = 1 AND kind = 'ratio' "
    "ORDER BY scenario, profile, variant, metric";

const char* kKnown =
    "SELECT DISTINCT profile, metric FROM perfgate_points WHERE scenario = ?1 AND kind = ?2 ORDER BY profile, metric";

class History : public HistoryDb {
 public:
  History(std::unique_ptr<Sql> sql, std::string what) : sql_(std::move(sql)), what_(std::move(what)) {
    // Read first, writing nothing: a database that is not ours is refused untouched, and one at
    // this version (nearly every open) takes no lock.
    if (history::schema_version(*sql_, what_) == kHistorySchemaVersion) return;
    in_transaction(true, [&] { history::upgrade_schema(*sql_, what_); });
  }
  std::string describe() const override { return what_; }

  bool add_run(const model::ResultsDoc& results, const std::string& source_file,
               const std::vector<model::BaselineEntry>& gated) override {
    bool added = false;
    in_transaction(false, [&] {
      added = history::insert_run(*sql_, results, source_file);
      if (!added) return;  // recorded already, by an earlier add or by one running now
      for (const auto& s : results.scenarios)
        if (!s.error) history::insert_points(*sql_, results.run.id, s, gated);
    });
    return added;
  }

  AcceptedRuns accepted_runs(const AcceptedQuery& q) override { return history::accepted_runs(*sql_, q); }

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
      p.better = from_name<Better>(r[10].value_or("")).value_or(Better::Lower);
      p.verdict = r[11].value_or("");
      p.exit_code = r[12] ? std::stoi(*r[12]) : 0;
      p.cpu_model = r[13];
      p.cores = r[14] ? std::stoi(*r[14]) : 0;
      if (p.cpu_model) {
        model::AcceptedRun host;
        host.cpu_model = *p.cpu_model;
        host.cores = p.cores;
        p.host_class = host.host_class();
      }
      p.branch = r[15];
      p.fingerprint = r[16].value_or("");
      if (r[17]) p.exact = *r[17] == "1";
      p.reproduce = r[18] ? r[18] : r[19];
      p.results_path = r[20] ? *r[20] : r[21].value_or("");
      p.baseline = r[22].value_or("");
      p.against = r[23].value_or("0") == "1";
      out.push_back(std::move(p));
    }
    return out;
  }

  std::vector<SeriesQuery> gated_series() override {
    std::vector<SeriesQuery> out;
    for (const auto& r : sql_->query(kGatedSeries))
      out.push_back({r[0].value_or(""), r[1].value_or(""), "ratio", r[2].value_or(""), r[3].value_or("")});
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
    return std::make_unique<History>(history::connect_postgres(where), "postgresql:" + without_password(where));
  std::filesystem::path p = where;
  if (p.has_parent_path()) std::filesystem::create_directories(p.parent_path());
  return std::make_unique<History>(history::open_sqlite(where), "sqlite:" + where);
}

}  // namespace perfgate::history
