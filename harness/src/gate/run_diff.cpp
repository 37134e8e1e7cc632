#include "gate/run_diff.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <random>

#include "perfgate/percentile.hpp"
#include "stats/multiple.hpp"
#include "stats/rank_tests.hpp"

namespace perfgate::gate {

using json = nlohmann::json;

namespace {

double median_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t k = v.size();
  return k % 2 ? v[k / 2] : (v[k / 2 - 1] + v[k / 2]) / 2;
}

double spread_of(const std::vector<double>& v, double med) {
  std::vector<double> dev;
  for (double x : v) dev.push_back(std::fabs(x - med));
  return med != 0 ? median_of(dev) / std::fabs(med) : 0;
}

// Percentile bootstrap of median(new) / median(old), the two samples resampled independently.
std::array<double, 2> ratio_ci(const std::vector<double>& a, const std::vector<double>& b, std::uint64_t seed,
                               int resamples) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<std::size_t> da(0, a.size() - 1), db(0, b.size() - 1);
  std::vector<double> stats, ra(a.size()), rb(b.size());
  stats.reserve(static_cast<std::size_t>(resamples));
  for (int r = 0; r < resamples; ++r) {
    for (auto& x : ra) x = a[da(rng)];
    for (auto& x : rb) x = b[db(rng)];
    const double ma = median_of(ra), mb = median_of(rb);
    stats.push_back(ma == 0 ? (mb == 0 ? 1.0 : INFINITY) : mb / ma);
  }
  std::sort(stats.begin(), stats.end());
  return {perfgate::percentile_sorted(stats, 0.025), perfgate::percentile_sorted(stats, 0.975)};
}

}  // namespace

RunDiff diff_runs(const model::ResultsDoc& o, const model::ResultsDoc& n, const DiffOptions& opt) {
  RunDiff d;
  d.old_host = o.host.fingerprint;
  d.new_host = n.host.fingerprint;
  d.same_host = d.old_host == d.new_host;
  d.old_commit = o.run.commit;
  d.new_commit = n.run.commit;
  for (const auto& so : o.scenarios) {
    const std::string& name = so.name;
    const std::string& profile = so.profile;
    const model::ScenarioResult* sn = n.find(name, profile);
    if (!sn) {
      d.only_old.push_back(name + "/" + profile);
      continue;
    }
    std::vector<std::string> metrics;
    const std::string& primary = so.primary_metric;
    if (opt.all_metrics) {
      std::set<std::string> all;
      for (const auto& [v, ms] : so.summaries)
        for (const auto& [m, _] : ms) all.insert(m);
      metrics.assign(all.begin(), all.end());
    } else if (!opt.metrics.empty()) {
      metrics.assign(opt.metrics.begin(), opt.metrics.end());
    } else {
      metrics = {primary};
      for (const char* m : {"wall_ms", "cpu_ms"})
        if (m != primary) metrics.push_back(m);
    }
    for (const auto& variant : so.variant_names) {
      for (const auto& metric : metrics) {
        auto a = so.measured_values(variant, metric), b = sn->measured_values(variant, metric);
        if (a.size() < 2 || b.size() < 2) continue;
        DiffRow r;
        r.scenario = name;
        r.profile = profile;
        r.variant = variant;
        r.metric = metric;
        r.gated = metric == primary;
        r.better = "lower";
        if (auto v = so.summaries.find(variant); v != so.summaries.end())
          if (auto m = v->second.find(metric); m != v->second.end()) {
            r.unit = m->second.unit;
            r.better = m->second.better.empty() ? "lower" : m->second.better;
          }
        r.n_old = a.size();
        r.n_new = b.size();
        r.old_median = median_of(a);
        r.new_median = median_of(b);
        r.old_spread = spread_of(a, r.old_median);
        r.new_spread = spread_of(b, r.new_median);
        r.change = r.old_median == 0 ? (r.new_median == 0 ? 1.0 : INFINITY) : r.new_median / r.old_median;
        r.ci = ratio_ci(a, b, opt.seed + d.rows.size(), opt.resamples);
        r.p = stats::mann_whitney_u(a, b).p_value;
        d.rows.push_back(r);
      }
    }
  }
  for (const auto& sn : n.scenarios)
    if (!o.find(sn.name, sn.profile)) d.only_new.push_back(sn.name + "/" + sn.profile);
  std::vector<double> p;
  for (const auto& r : d.rows) p.push_back(r.p);
  auto adj = stats::holm(p);
  for (std::size_t i = 0; i < d.rows.size(); ++i) {
    DiffRow& r = d.rows[i];
    r.p_adjusted = adj[i];
    const bool up = r.ci[0] > 1 + opt.noise, down = r.ci[1] < 1 - opt.noise;
    if (r.p_adjusted < opt.alpha && (up || down)) r.verdict = (up == (r.better != "higher")) ? "worse" : "better";
  }
  // Geometric means per metric and variant, over scenarios where both medians are positive.
  std::map<std::pair<std::string, std::string>, GeoMean> geo;
  std::map<std::pair<std::string, std::string>, std::array<double, 2>> logs;
  for (const auto& r : d.rows) {
    if (!(r.old_median > 0 && r.new_median > 0)) continue;
    auto key = std::make_pair(r.metric, r.variant);
    auto& g = geo[key];
    g.metric = r.metric;
    g.variant = r.variant;
    ++g.count;
    logs[key][0] += std::log(r.old_median);
    logs[key][1] += std::log(r.new_median);
  }
  for (auto& [key, g] : geo) {
    g.old_value = std::exp(logs[key][0] / static_cast<double>(g.count));
    g.new_value = std::exp(logs[key][1] / static_cast<double>(g.count));
    g.change = g.new_value / g.old_value;
    d.geomeans.push_back(g);
  }
  return d;
}

json to_json(const RunDiff& d) {
  auto fin = [](double v) { return std::isfinite(v) ? json(v) : json(); };
  json rows = json::array();
  for (const auto& r : d.rows)
    rows.push_back({{"scenario", r.scenario},
                    {"profile", r.profile},
                    {"variant", r.variant},
                    {"metric", r.metric},
                    {"unit", r.unit},
                    {"better", r.better},
                    {"gated", r.gated},
                    {"n_old", r.n_old},
                    {"n_new", r.n_new},
                    {"old_median", r.old_median},
                    {"new_median", r.new_median},
                    {"change", fin(r.change)},
                    {"ci", {fin(r.ci[0]), fin(r.ci[1])}},
                    {"p_mann_whitney", r.p},
                    {"p_adjusted", r.p_adjusted},
                    {"verdict", r.verdict}});
  json geo = json::array();
  for (const auto& g : d.geomeans)
    geo.push_back({{"metric", g.metric},
                   {"variant", g.variant},
                   {"scenarios", g.count},
                   {"old", g.old_value},
                   {"new", g.new_value},
                   {"change", g.change}});
  return {{"rows", rows},
          {"geomeans", geo},
          {"same_host", d.same_host},
          {"old_host", d.old_host},
          {"new_host", d.new_host},
          {"old_commit", d.old_commit},
          {"new_commit", d.new_commit},
          {"only_old", d.only_old},
          {"only_new", d.only_new}};
}

}  // namespace perfgate::gate
