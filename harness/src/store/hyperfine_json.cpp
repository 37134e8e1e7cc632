#include "store/hyperfine_json.hpp"

#include <algorithm>
#include <set>
#include <utility>

#include "store/ab_text.hpp"

namespace perfgate::store {

using json = nlohmann::json;

namespace {

const model::MetricSummary* summary(const model::ScenarioResult& s, const std::string& variant, const char* metric) {
  const auto v = s.summaries.find(variant);
  if (v == s.summaries.end()) return nullptr;
  const auto m = v->second.find(metric);
  return m == v->second.end() ? nullptr : &m->second;
}

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

json parameters(const model::ScenarioResult& s) {
  json p = json::object();
  for (const auto& [k, v] : s.params.items()) p[k] = v.is_string() ? v.get<std::string>() : v.dump();
  return p;
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
  const auto* user = summary(s, variant, "user_ms");
  const auto* sys = summary(s, variant, "sys_ms");
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
  if (!s.params.empty()) r["parameters"] = parameters(s);
  r["perfgate"] = verdict(s, variant);
  return r;
}

}  // namespace

json hyperfine_json(const model::ResultsDoc& doc) {
  json results = json::array();
  // The reference runs beside every command it is paired with; hyperfine lists it once.
  std::set<std::pair<std::string, std::string>> listed;
  for (const auto& s : doc.scenarios) {
    if (s.kind != catalog::ScenarioKind::Ab) continue;
    for (const char* v : {"before", "after"}) {
      const auto* wall = summary(s, v, "wall_ms");
      if (!wall || !listed.insert({ab_command_label(s, v), parameters(s).dump()}).second) continue;
      results.push_back(result(s, v, *wall));
    }
  }
  return {{"results", results}};
}

}  // namespace perfgate::store
