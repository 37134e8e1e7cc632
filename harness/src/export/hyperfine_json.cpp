#include "export/hyperfine_json.hpp"

#include <algorithm>
#include <utility>

#include "export/ab_text.hpp"

namespace perfgate::exports {

using json = nlohmann::json;

namespace {

double seconds(double ms) { return ms / 1000; }

json exit_codes(const model::ScenarioResult& s, const std::string& variant) {
  std::vector<std::pair<int, int>> rows;
  for (const auto& x : s.samples)
    if (!x.warmup && x.variant == variant) rows.emplace_back(x.round, x.exit_code);
  std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  json codes = json::array();
  for (const auto& r : rows) codes.push_back(r.second);
  return codes;
}

json verdict(const model::ScenarioResult& s, const std::string& variant) {
  if (variant != "after") return {{"role", "reference"}};
  const auto* c = s.find("after", s.primary_metric);
  if (!c) return {{"role", "compared"}};
  return {{"role", "compared"},
          {"gated_metric", c->metric},
          {"ratio", c->r.ratio},
          {"ratio_interval", {c->r.ci.lo, c->r.ci.hi}},
          {"verdict", name_of(c->verdict)}};
}

json result(const model::ScenarioResult& s, const std::string& variant, const model::MetricSummary& wall) {
  json times = json::array();
  for (double ms : s.measured_values(variant, "wall_ms")) times.push_back(seconds(ms));
  const auto* user = metric_summary(s, variant, "user_ms");
  const auto* sys = metric_summary(s, variant, "sys_ms");
  json r = {{"command", ab_command_label(s, variant)},
            {"mean", seconds(wall.s.mean)},
            // hyperfine has no deviation of a single run
            {"stddev", wall.s.n > 1 ? json(seconds(wall.s.stddev)) : json(nullptr)},
            {"median", seconds(wall.s.median)},
            {"user", user ? seconds(user->s.mean) : 0.0},
            {"system", sys ? seconds(sys->s.mean) : 0.0},
            {"min", seconds(wall.s.min)},
            {"max", seconds(wall.s.max)},
            {"times", times},
            {"exit_codes", exit_codes(s, variant)}};
  if (const auto p = command_parameters(s, variant); !p.empty()) r["parameters"] = p;
  r["perfgate"] = verdict(s, variant);
  return r;
}

}  // namespace

json hyperfine_json(const model::ResultsDoc& doc) {
  json results = json::array();
  for (const auto& cmd : ab_commands(doc))
    if (const auto* wall = metric_summary(*cmd.scenario, cmd.variant, "wall_ms"))
      results.push_back(result(*cmd.scenario, cmd.variant, *wall));
  return {{"results", results}};
}

}  // namespace perfgate::exports
