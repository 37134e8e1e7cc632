// Results history (docs/history.md): every run's figures in a database, SQLite by default
// (.perfgate/history.sqlite) or PostgreSQL when given a DSN (libpq). One schema for both:
//   perfgate_history_schema(version)
//   perfgate_runs(run_id PK, started_at, finished_at, commit_sha, dirty, host_fingerprint,
//                 hostname, profile, exit_code, source_file, added_at)
//   perfgate_points(run_id, scenario, profile, kind, variant, baseline, metric, unit, better,
//                   value, ci_lo, ci_hi, n, verdict, gated; PK run_id, scenario, profile, kind, variant, metric)
// kind "ratio" is a comparison (variant over baseline), kind "median" a variant's median.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "model/results_model.hpp"

namespace perfgate::store {

inline constexpr int kHistorySchemaVersion = 1;

struct HistoryPoint {
  std::string run_id, started_at, commit, host_fingerprint;
  bool dirty = false;
  double value = 0;
  std::optional<double> ci_lo, ci_hi;
  int n = 0;
  std::string unit, better, verdict;
};

struct SeriesQuery {
  std::string scenario, profile, kind = "ratio", variant = "after", metric;
};

class HistoryDb {
 public:
  virtual ~HistoryDb() = default;
  // "sqlite:PATH" or "postgresql:DSN-without-password"
  virtual std::string describe() const = 0;
  // false when the run was already recorded (nothing written).
  virtual bool add_run(const model::ResultsDoc& results, const std::string& source_file) = 0;
  // Ordered by started_at, then run_id.
  virtual std::vector<HistoryPoint> series(const SeriesQuery& q) = 0;
  // The metric the scenario's last recorded run gated on, at this profile.
  virtual std::optional<std::string> gated_metric(const std::string& scenario, const std::string& profile) = 0;
  // Profiles and metrics recorded for a scenario (for messages and defaults).
  virtual std::vector<std::pair<std::string, std::string>> known(const std::string& scenario,
                                                                 const std::string& kind) = 0;
};

// A DSN (postgres://, postgresql://, or a key=value conninfo) opens PostgreSQL, anything else is
// a SQLite file (its folder is created). Throws UsageError when the database exists but is not
// a perfgate history of a known schema version, RunError when it cannot be reached.
std::unique_ptr<HistoryDb> open_history(const std::string& where);

bool is_postgres_dsn(const std::string& where);

}  // namespace perfgate::store
