#include "gate/self_report.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

#include "common/errors.hpp"
#include "common/number_format.hpp"
#include "stats/summary.hpp"

namespace perfgate::gate {

namespace {

constexpr double kConfidence = 0.999;
constexpr int kMinRounds = 2;  // `perfgate lies` runs two rounds

// The sample's figure summed over `metrics`, or nothing when one is missing.
std::optional<double> sum_of(const run::Sample& s, const std::vector<std::string>& metrics) {
  double total = 0;
  for (const auto& m : metrics) {
    const auto it = s.metrics.find(m);
    if (it == s.metrics.end()) return std::nullopt;
    total += it->second.value;
  }
  return total;
}

std::string joined(const std::vector<std::string>& metrics) {
  std::string out;
  for (const auto& m : metrics) out += (out.empty() ? "" : " + ") + m;
  return out;
}

// `equal` and `covers`: every sample on its own, BEFORE's and AFTER's (a count relayed wrong is
// wrong whichever side relays it), the first that breaks the check named.
model::GateResult per_sample_gate(const std::vector<run::Sample>& samples, const catalog::SelfReport& check,
                                  model::GateResult g) {
  const std::string self = joined(check.metrics);
  const bool equal = check.check == catalog::SelfCheck::Equal;
  int judged = 0;
  for (const auto& s : samples) {
    if (s.variant != "before" && s.variant != "after") continue;
    const auto mine = sum_of(s, check.metrics);
    const auto out = s.metrics.find(check.outside);
    if (!mine || out == s.metrics.end()) continue;
    ++judged;
    const double said = *mine * check.scale, seen = out->second.value;
    const double tolerance = check.slack * std::abs(seen);
    const bool ok = equal ? std::abs(said - seen) <= tolerance : seen >= said - tolerance;
    if (ok) continue;
    const auto fmt = [&](double v) { return format_quantity(v, out->second.unit); };
    g.outcome = model::GateOutcome::Failed;
    g.detail = s.variant + " (round " + std::to_string(s.round) + (s.warmup ? ", warm-up" : "") + ") says " + self +
               " = " + fmt(said) + ", perfgate measured " + check.outside + " = " + fmt(seen) +
               (equal ? ": not the same" : ": less than the program says") +
               (check.slack > 0 ? " (slack " + format_quantity(100 * check.slack, "%") + ")" : "") +
               " — the program's own figure is not believed";
    return g;
  }
  if (judged == 0) {
    g.detail = "not judged: no sample measured both " + self + " and " + check.outside;
    return g;
  }
  g.outcome = model::GateOutcome::Passed;
  g.detail = self + (equal ? " equals " : " is within ") + check.outside + " in each of " + std::to_string(judged) +
             " samples";
  return g;
}

}  // namespace

model::GateResult self_report_gate(const std::vector<run::Sample>& samples, const catalog::SelfReport& check) {
  const std::string self = joined(check.metrics);
  model::GateResult g{model::GateKind::Equivalence, "self-report: " + self + " against " + check.outside};
  if (check.check != catalog::SelfCheck::Saving) return per_sample_gate(samples, check, std::move(g));
  struct Round {
    std::optional<double> self_before, self_after, out_before, out_after;
  };
  std::map<int, Round> rounds;
  std::string unit;
  for (const auto& s : samples) {
    if (s.warmup || (s.variant != "before" && s.variant != "after")) continue;
    const auto mine = sum_of(s, check.metrics);
    const auto out = s.metrics.find(check.outside);
    if (!mine || out == s.metrics.end()) continue;
    unit = out->second.unit;
    Round& r = rounds[s.round];
    (s.variant == "before" ? r.self_before : r.self_after) = *mine * check.scale;
    (s.variant == "before" ? r.out_before : r.out_after) = out->second.value;
  }
  std::vector<double> excess, self_saved, out_saved, before_figure;
  for (const auto& [round, r] : rounds) {
    if (!r.self_before || !r.self_after || !r.out_before || !r.out_after) continue;
    self_saved.push_back(*r.self_before - *r.self_after);
    out_saved.push_back(*r.out_before - *r.out_after);
    excess.push_back(self_saved.back() - out_saved.back());
    before_figure.push_back(*r.self_before);
  }
  if (excess.size() < static_cast<std::size_t>(kMinRounds)) {
    g.detail = "not judged: " + std::to_string(excess.size()) + " rounds measured " + self + " and " + check.outside +
               " on both sides (" + std::to_string(kMinRounds) + " needed)";
    return g;
  }
  const double tolerance = check.slack * stats::median(before_figure);
  std::vector<double> sorted = excess;
  std::sort(sorted.begin(), sorted.end());
  const auto interval = stats::median_interval_sorted(sorted, kConfidence);
  const auto fmt = [&](double v) { return format_quantity(v, unit); };
  const std::string figures = "AFTER's " + self + " says it saved " + fmt(stats::median(self_saved)) +
                              " a round (median of " + std::to_string(excess.size()) + "), its " + check.outside +
                              " shows " + fmt(stats::median(out_saved));
  g.outcome = model::passed_if(interval.lo <= tolerance);
  g.detail = figures + (g.passed() ? "; within the slack of " + fmt(tolerance) + ", as measured outside"
                                   : ": " + fmt(stats::median(excess)) + " [" + fmt(interval.lo) + ", " +
                                         fmt(interval.hi) + "] more than perfgate saw, beyond the slack of " +
                                         fmt(tolerance) + " — the program's own figure is not believed");
  return g;
}

std::vector<model::GateResult> self_report_gates(const std::vector<run::Sample>& samples,
                                                 const std::vector<catalog::SelfReport>& checks,
                                                 const nlohmann::json& params) {
  std::vector<model::GateResult> out;
  for (auto check : checks) {
    if (!check.scale_param.empty()) {
      const auto by = params.find(check.scale_param);
      if (by == params.end() || !by->is_number())
        throw UsageError("params." + check.scale_param +
                         " must be a number (the scale_param of a self_reported check)");
      check.scale *= by->get<double>();
    }
    out.push_back(self_report_gate(samples, check));
  }
  return out;
}

}  // namespace perfgate::gate
