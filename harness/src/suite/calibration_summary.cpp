#include "suite/calibration_summary.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <set>

#include "common/errors.hpp"
#include "stats/power.hpp"
#include "stats/summary.hpp"

namespace perfgate::suite {
namespace {

using json = nlohmann::json;

// A pair that measured nothing adds a NaN; the summary of what is there is still wanted.
std::vector<double> finite_only(std::vector<double> v) {
  v.erase(std::remove_if(v.begin(), v.end(), [](double x) { return !std::isfinite(x); }), v.end());
  return v;
}

double median_or_nan(const std::vector<double>& v) {
  auto f = finite_only(v);
  return f.empty() ? std::nan("") : stats::median(std::move(f));
}

double sd_or_nan(const std::vector<double>& v) {
  auto f = finite_only(v);
  return f.size() < 2 ? std::nan("") : stats::summarize(f).stddev;
}

json finite(double v) { return std::isfinite(v) ? json(v) : json(); }

// j[key] when it is there, else null: iterating a reference, not a temporary.
const json& field(const json& j, const char* key) {
  static const json none;
  return j.is_object() && j.contains(key) ? j[key] : none;
}

// Per metric of one pair: measured values of each side, paired by round.
std::map<std::string, std::map<int, std::pair<double, double>>> by_metric(const model::ScenarioResult& scenario) {
  std::map<std::string, std::map<int, std::pair<double, double>>> out;
  for (const auto& s : scenario.samples) {
    if (s.warmup) continue;
    for (const auto& [m, v] : s.metrics) {
      auto& slot = out[m][s.round];
      (s.variant == "before" ? slot.first : slot.second) = v.value;
    }
  }
  return out;
}

std::optional<stats::Verdict> verdict_of(const model::ScenarioResult& scenario, const std::string& metric) {
  const model::Comparison* c = scenario.find("after", metric);
  return c ? std::optional(c->verdict) : std::nullopt;
}

double wall_median(const model::ScenarioResult& scenario) {
  std::vector<double> w;
  for (const auto& s : scenario.samples)
    if (auto it = s.metrics.find("wall_ms"); it != s.metrics.end()) w.push_back(it->second.value);
  return median_or_nan(w);
}

// The rounds the pair measured (warm-ups aside).
double rounds_of(const model::ScenarioResult& scenario) {
  std::set<int> rounds;
  for (const auto& s : scenario.samples)
    if (!s.warmup) rounds.insert(s.round);
  return static_cast<double>(rounds.size());
}

// What one workload's pairs say about one metric.
struct Tally {
  std::vector<double> cv, log_ratio_var;
  int aa = 0, aa_alarms = 0;
  std::map<double, std::pair<int, int>> injected;  // extra → (pairs, caught)
};

void tally_aa(const CalibrationPair& p, std::map<std::string, Tally>& tallies) {
  for (const auto& [metric, rows] : by_metric(p.scenario)) {
    std::vector<double> before, logs;
    for (const auto& [round, ba] : rows) {
      before.push_back(ba.first);
      if (ba.first > 0 && ba.second > 0) logs.push_back(std::log(ba.second / ba.first));
    }
    auto& t = tallies[metric];
    double mean = 0;
    for (double b : before) mean += b;
    mean /= static_cast<double>(std::max<std::size_t>(1, before.size()));
    if (mean > 0 && before.size() >= 2) t.cv.push_back(sd_or_nan(before) / mean);
    if (logs.size() >= 2) t.log_ratio_var.push_back(std::pow(sd_or_nan(logs), 2));
    t.aa++;
    const auto v = verdict_of(p.scenario, metric);
    t.aa_alarms += v && (*v == stats::Verdict::Better || *v == stats::Verdict::Worse);
  }
}

// The gates' own figure (stats/power.hpp) for a pooled spread; null where it resolves nothing.
json detectable(double sd, int rounds, double alpha, double noise, double power) {
  const auto d = rounds > 0
                     ? stats::detectable_effect_of_spread(sd, static_cast<std::size_t>(rounds), alpha, noise, power)
                     : std::nullopt;
  return d ? finite(*d) : json();
}

json metric_entry(const Tally& t, int rounds, double alpha_per_look, double noise) {
  double pooled = 0;
  for (double v : t.log_ratio_var) pooled += v;
  const double sd =
      t.log_ratio_var.empty() ? std::nan("") : std::sqrt(pooled / static_cast<double>(t.log_ratio_var.size()));
  json inj = json::array();
  for (const auto& [extra, pc] : t.injected)
    inj.push_back({{"extra", extra}, {"pairs", pc.first}, {"caught", pc.second}});
  return {{"per_sample_cv", finite(median_or_nan(t.cv))},
          {"round_log_ratio_sd", finite(sd)},
          {"aa_pairs", t.aa},
          {"false_alarms", t.aa_alarms},
          {"false_alarm_rate", t.aa ? json(static_cast<double>(t.aa_alarms) / t.aa) : json()},
          {"detectable_effect_80", detectable(sd, rounds, alpha_per_look, noise, 0.80)},
          {"detectable_effect_95", detectable(sd, rounds, alpha_per_look, noise, 0.95)},
          {"injected", inj}};
}

}  // namespace

json summarize_workload(const WorkloadPairs& w, double alpha_per_look, double noise) {
  std::map<std::string, Tally> tallies;
  std::vector<double> rounds, seconds, walls, selfs;
  int exit_alarms = 0;
  std::map<std::string, int> gated;
  for (const auto& p : w.aa) {
    exit_alarms += p.exit_code == kExitPerformance;
    rounds.push_back(rounds_of(p.scenario));
    seconds.push_back(p.seconds);
    walls.push_back(wall_median(p.scenario));
    selfs.push_back(median_or_nan(p.self_ms));
    gated[p.scenario.primary_metric]++;
    tally_aa(p, tallies);
  }
  std::map<double, std::pair<int, int>> exit_caught;
  for (const auto& [extra, pairs] : w.injected)
    for (const auto& p : pairs) {
      auto& e = exit_caught[extra];
      e.first++;
      e.second += p.exit_code == kExitPerformance;
      seconds.push_back(p.seconds);
      for (const auto& [metric, rows] : by_metric(p.scenario)) {
        auto& slot = tallies[metric].injected[extra];
        slot.first++;
        slot.second += verdict_of(p.scenario, metric) == stats::Verdict::Worse;
      }
    }
  const double n_rounds = median_or_nan(rounds);
  const int n = std::isfinite(n_rounds) ? static_cast<int>(n_rounds) : 0;
  json metrics = json::object();
  for (const auto& [metric, t] : tallies) metrics[metric] = metric_entry(t, n, alpha_per_look, noise);
  json gate_inj = json::array();
  for (const auto& [extra, pc] : exit_caught)
    gate_inj.push_back({{"extra", extra}, {"pairs", pc.first}, {"caught", pc.second}});
  const double wall = median_or_nan(walls), self = median_or_nan(selfs);
  return {
      {"name", w.name},
      {"command", w.command},
      {"rounds_median", finite(n_rounds)},
      {"seconds_per_pair", finite(median_or_nan(seconds))},
      {"gate",
       {{"metric_chosen", gated}, {"aa_pairs", w.aa.size()}, {"false_alarms", exit_alarms}, {"injected", gate_inj}}},
      {"perturbation",
       {{"wall_ms_under_perfgate", finite(wall)},
        {"self_timed_wall_ms", finite(self)},
        {"fraction", finite(self > 0 ? wall / self - 1 : NAN)}}},
      {"metrics", metrics}};
}

json duet_against_sequential(const json& workloads) {
  const json *seq = nullptr, *duet = nullptr;
  for (const auto& w : workloads) {
    if (w["name"] == "cpu") seq = &w;
    if (w["name"] == "cpu-duet") duet = &w;
  }
  if (!seq || !duet) return json();
  json out = json::object();
  bool wins = true;
  for (const char* m : {"cpu_ms", "wall_ms"}) {
    const json& s = field(field(*seq, "metrics"), m);
    const json& d = field(field(*duet, "metrics"), m);
    if (!s.is_object() || !d.is_object()) continue;
    out[m] = {{"sequential_round_log_ratio_sd", s["round_log_ratio_sd"]},
              {"duet_round_log_ratio_sd", d["round_log_ratio_sd"]},
              {"sequential_false_alarms", s["false_alarms"]},
              {"duet_false_alarms", d["false_alarms"]},
              {"aa_pairs", {s["aa_pairs"], d["aa_pairs"]}}};
    const bool smaller = s["round_log_ratio_sd"].is_number() && d["round_log_ratio_sd"].is_number() &&
                         d["round_log_ratio_sd"].get<double>() < s["round_log_ratio_sd"].get<double>();
    const double rate_s = s["false_alarm_rate"].is_number() ? s["false_alarm_rate"].get<double>() : 0;
    const double rate_d = d["false_alarm_rate"].is_number() ? d["false_alarm_rate"].get<double>() : 1;
    wins = wins && smaller && rate_d <= rate_s;
  }
  out["duet_wins"] = wins;
  return out;
}

}  // namespace perfgate::suite
