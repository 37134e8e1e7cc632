#include "history/history_insert.hpp"

#include <array>
#include <cmath>
#include <filesystem>
#include <optional>

#include "common/time_stamp.hpp"

namespace perfgate::history {

namespace {

// ON CONFLICT: the look-up and the insert are one step, so of two perfgates adding one run at
// once exactly one records it and the other is told it was already there.
const char* kInsertRun =
    "INSERT INTO perfgate_runs (run_id, started_at, finished_at, commit_sha, dirty, host_fingerprint, hostname, "
    "profile, exit_code, source_file, added_at, cpu_model, cores, kernel, branch, against, reproduce, results_path) "
    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18) "
    "ON CONFLICT (run_id) DO NOTHING";

const char* kInsertPoint =
    "INSERT INTO perfgate_points (run_id, scenario, profile, kind, variant, baseline, metric, unit, better, value, "
    "ci_lo, ci_hi, n, verdict, gated, exact, confidence, fingerprint, reproduce) "
    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19)";

Value num_or_null(double v) { return std::isfinite(v) ? Value::of(v) : Value::null(); }
Value text_or_null(const std::string& t) { return t.empty() ? Value::null() : Value::of(t); }
Value flag_or_null(const std::optional<bool>& b) { return b ? Value::of_int(*b ? 1 : 0) : Value::null(); }
Value text_or_null(const std::optional<std::string>& t) { return t && !t->empty() ? Value::of(*t) : Value::null(); }

std::vector<Value> run_row(const model::ResultsDoc& d, const std::string& source_file) {
  const model::RunHeader& run = d.run;
  // cpu_model is never NULL from here on, even when the host did not say: NULL marks a version-1
  // row, which has no host class at all.
  return {Value::of(run.id), Value::of(run.started_at), text_or_null(run.finished_at), Value::of(run.commit),
          Value::of_int(run.dirty ? 1 : 0), Value::of(d.host.fingerprint), Value::of(d.host.hostname),
          Value::of(run.profile), Value::of_int(d.outcome.exit_code), Value::of(source_file), Value::of(now_iso8601()),
          Value::of(d.host.cpu_model), Value::of_int(d.host.cores), Value::of(d.host.kernel),
          run.branch ? Value::of(*run.branch) : Value::null(), Value::of_int(run.against ? 1 : 0),
          text_or_null(run.reproduce),
          // Absolute, so that the run's report (report.md beside it) can be found from anywhere.
          Value::of(std::filesystem::absolute(source_file).lexically_normal().string())};
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
          Value::of(std::string(name_of(c.better))),
          Value::of(c.r.ratio),
          num_or_null(c.r.ci.lo),
          num_or_null(c.r.ci.hi),
          Value::of_int(static_cast<int>(c.r.n)),
          Value::of(std::string(name_of(c.verdict))),
          Value::of_int(c.gated ? 1 : 0),
          flag_or_null(c.exact),
          Value::of(c.confidence),
          text_or_null(s.fingerprint),
          text_or_null(s.reproduce)};
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
          Value::of(std::string(name_of(m.better))),
          Value::of(m.s.median),
          ci ? num_or_null((*ci)[0]) : Value::null(),
          ci ? num_or_null((*ci)[1]) : Value::null(),
          Value::of_int(static_cast<int>(m.s.n)),
          Value::of(""),
          Value::of_int(0),
          Value::of_int(m.exact ? 1 : 0),
          Value::null(),
          text_or_null(s.fingerprint),
          Value::null()};  // the scenario's reproduce line is kept once, on its comparisons
}

}  // namespace

bool insert_run(Sql& sql, const model::ResultsDoc& results, const std::string& source_file) {
  return sql.exec(kInsertRun, run_row(results, source_file)) == 1;
}

void insert_points(Sql& sql, const std::string& run_id, const model::ScenarioResult& s,
                   const std::vector<model::BaselineEntry>& gated) {
  for (const auto& c : s.comparisons)
    if (std::isfinite(c.r.ratio)) sql.exec(kInsertPoint, ratio_row(run_id, s, c));
  for (const auto& [variant, metrics] : s.summaries)
    for (const auto& [metric, m] : metrics)
      if (std::isfinite(m.s.median))
        sql.exec(kInsertPoint, median_row(run_id, s, variant, metric, m, median_ci(gated, s, variant, metric)));
}

}  // namespace perfgate::history
