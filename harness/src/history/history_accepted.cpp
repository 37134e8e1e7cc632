#include "history/history_accepted.hpp"

#include <algorithm>
#include <map>
#include <regex>
#include <variant>

#include "common/time_stamp.hpp"

namespace perfgate::history {

namespace {

// Gated ratio points of accepted runs with both medians beside them, newest run first; the
// conditions on branch and time are appended (accepted_sql).
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
  e.better = from_name<Better>(r[kBetter].value_or("")).value_or(Better::Lower);
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

}  // namespace

AcceptedRuns accepted_runs(Sql& sql, const AcceptedQuery& q) {
  auto [statement, params] = accepted_sql(q);
  return select_accepted(sql.query(statement, params), q);
}

std::string check_time_bound(std::string& bound) {
  static const std::regex form(R"(\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2})?Z?)?)");
  if (!std::regex_match(bound, form)) return "must be a UTC date or time (2026-03-01, 2026-03-01T12:00)";
  if (bound.back() == 'Z') bound.pop_back();
  return "";
}

}  // namespace perfgate::history
