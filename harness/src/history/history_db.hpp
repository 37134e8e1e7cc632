// Results history (docs/history.md): every run's figures in a database, SQLite by default
// (.perfgate/history.sqlite) or PostgreSQL when given a DSN (libpq). One schema for both:
//   perfgate_history_schema(version)
//   perfgate_runs(run_id PK, started_at, finished_at, commit_sha, dirty, host_fingerprint,
//                 hostname, profile, exit_code, source_file, added_at,
//                 v2: cpu_model, cores, kernel, branch, against, v3: reproduce, results_path)
//   perfgate_points(run_id, scenario, profile, kind, variant, baseline, metric, unit, better,
//                   value, ci_lo, ci_hi, n, verdict, gated, v2: exact, confidence, fingerprint,
//                   v3: reproduce; PK run_id, scenario, profile, kind, variant, metric)
// kind "ratio" is a comparison (variant over baseline), kind "median" a variant's median. An
// older database is migrated in place, one version at a time, when this perfgate first opens it.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "model/results_model.hpp"

namespace perfgate::history {

inline constexpr int kHistorySchemaVersion = 3;

struct HistoryPoint {
  std::string run_id, started_at, commit, host_fingerprint;
  std::string baseline;  // the variant a ratio compares with ("" for a median)
  bool dirty = false;
  double value = 0;
  std::optional<double> ci_lo, ci_hi;
  int n = 0;
  std::string unit;
  Better better = Better::Lower;
  std::string verdict;
  int exit_code = 0;  // the run's: a failed run's point is marked, not hidden
  // Version 2 on (empty or none in older rows).
  std::optional<std::string> cpu_model;  // none: not recorded
  int cores = 0;
  std::string host_class;  // CPU model × cores (model::AcceptedRun::host_class); empty: not recorded
  std::optional<std::string> branch;
  std::string fingerprint;  // the scenario's
  std::optional<bool> exact;
  bool against = false;  // a `run --against` run: its ratio is this build's AFTER over another build's
  // Version 3 on: the scenario's reproduce line (a comparison's point; else the run's), and the
  // results file as an absolute path (else as it was given to history add).
  std::optional<std::string> reproduce;
  std::string results_path;
};

struct SeriesQuery {
  std::string scenario, profile, kind = "ratio", variant = "after", metric;
};

// Which recorded runs are accepted into a baseline: clean (not dirty), every gate passed (exit 0),
// not an --against run, of `branch`, started at or after `since`, the newest `newest` per
// scenario/profile/metric and host class.
// Run times are stored as 2026-03-01T12:00:00Z and compared as text, so any shorter prefix of that
// form is a bound (a trailing Z is dropped: on a shorter one it would sort after the times it
// should take). Returns why `bound` is not one, "" when it is.
std::string check_time_bound(std::string& bound);

struct AcceptedQuery {
  std::string branch;  // empty: any branch
  std::string since;   // an ISO 8601 UTC prefix (2026-03-01, 2026-03-01T12:00); empty: any time
  int newest = 10;
  std::vector<std::string> scenarios;  // empty: all
};

struct AcceptedRuns {
  std::vector<model::BaselineEntry> entries;  // one per gated figure of an accepted run, oldest run first
  std::vector<std::string> skipped;           // "KEY: why", for figures a baseline entry cannot be made of
};

class HistoryDb {
 public:
  virtual ~HistoryDb() = default;
  // "sqlite:PATH" or "postgresql:DSN-without-password"
  virtual std::string describe() const = 0;
  // false when the run was already recorded (nothing written), also when another perfgate records
  // it at the same time. `gated`: the run's gated figures as baseline entries
  // (gate::entries_from_scenario), whose medians' intervals are kept with the median points so a
  // baseline can be made from the history alone.
  virtual bool add_run(const model::ResultsDoc& results, const std::string& source_file,
                       const std::vector<model::BaselineEntry>& gated = {}) = 0;
  // Ordered by started_at, then run_id.
  virtual std::vector<HistoryPoint> series(const SeriesQuery& q) = 0;
  // Every series some run gated on (kind ratio: scenario, profile, variant, metric), in order.
  virtual std::vector<SeriesQuery> gated_series() = 0;
  // The metric the scenario's last recorded run gated on, at this profile.
  virtual std::optional<std::string> gated_metric(const std::string& scenario, const std::string& profile) = 0;
  // Profiles and metrics recorded for a scenario (for messages and defaults).
  virtual std::vector<std::pair<std::string, std::string>> known(const std::string& scenario,
                                                                 const std::string& kind) = 0;
  // The gated figures of the runs `q` accepts, shaped as baseline.json entries (`perfgate
  // baseline update --from-history`).
  virtual AcceptedRuns accepted_runs(const AcceptedQuery& q) = 0;
};

// A DSN (postgres://, postgresql://, or a key=value conninfo) opens PostgreSQL, anything else is
// a SQLite file (its folder is created). Throws UsageError when the database exists but is not
// a perfgate history of a known schema version, RunError when it cannot be reached. An older
// version is migrated to kHistorySchemaVersion.
std::unique_ptr<HistoryDb> open_history(const std::string& where);

bool is_postgres_dsn(const std::string& where);

}  // namespace perfgate::history
