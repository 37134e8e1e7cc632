#include "gate/metric_choice.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "stats/summary.hpp"

namespace perfgate::gate {
namespace {

std::string fixed(double v, const char* fmt = "%.2f") {
  char buf[32];
  std::snprintf(buf, sizeof buf, fmt, v);
  return buf;
}

// Median of one metric over one variant's measured samples; NaN when it was never measured.
double median_of(const std::vector<run::Sample>& samples, const std::string& variant, const std::string& metric) {
  std::vector<double> v;
  for (const auto& s : samples) {
    if (s.warmup || s.variant != variant) continue;
    if (auto it = s.metrics.find(metric); it != s.metrics.end()) v.push_back(it->second.value);
  }
  return v.empty() ? std::nan("") : stats::median(v);
}

// Median over one variant's measured samples of (cpu + cpu_wait) / wall; NaN without cpu_wait.
double busy_share(const std::vector<run::Sample>& samples, const std::string& variant) {
  std::vector<double> v;
  for (const auto& s : samples) {
    if (s.warmup || s.variant != variant) continue;
    auto c = s.metrics.find("cpu_ms"), q = s.metrics.find("cpu_wait_ms"), w = s.metrics.find("wall_ms");
    if (c == s.metrics.end() || q == s.metrics.end() || w == s.metrics.end() || w->second.value <= 0) continue;
    v.push_back((c->second.value + q->second.value) / w->second.value);
  }
  return v.empty() ? std::nan("") : stats::median(v);
}

}  // namespace

MetricChoice choose_ab_metric(const std::vector<run::Sample>& samples, double share) {
  MetricChoice c;
  const double cb = median_of(samples, "before", "cpu_ms"), wb = median_of(samples, "before", "wall_ms");
  const double ca = median_of(samples, "after", "cpu_ms"), wa = median_of(samples, "after", "wall_ms");
  c.cpu_wall_ratio_before = wb > 0 ? cb / wb : std::nan("");
  c.cpu_wall_ratio_after = wa > 0 ? ca / wa : std::nan("");
  c.busy_wall_ratio_before = busy_share(samples, "before");
  c.busy_wall_ratio_after = busy_share(samples, "after");
  const bool queued = std::isfinite(c.busy_wall_ratio_before) && std::isfinite(c.busy_wall_ratio_after);
  const double share_b = queued ? c.busy_wall_ratio_before : c.cpu_wall_ratio_before;
  const double share_a = queued ? c.busy_wall_ratio_after : c.cpu_wall_ratio_after;
  const std::string shares = std::string(queued ? " ((CPU + run-queue wait)/wall " : " (CPU/wall ") + fixed(share_b) +
                             " BEFORE, " + fixed(share_a) + " AFTER)";
  if (!std::isfinite(c.cpu_wall_ratio_before) || !std::isfinite(c.cpu_wall_ratio_after)) {
    c.metric = "wall_ms";
    c.why = "wall time: CPU time was not measured on both sides";
    return c;
  }
  // cpu_bound_share is the CPU-only threshold; with queue time counted, kBusyShare (see header).
  const double threshold = queued ? std::max(share, kBusyShare) : share;
  const bool before_busy = share_b >= threshold, after_busy = share_a >= threshold;
  if (before_busy && after_busy) {
    c.metric = "cpu_ms";
    c.why = "CPU time: both sides are CPU-bound" + shares +
            ", and cgroup CPU time measures their work without the scheduler's and the harness's wall jitter";
  } else {
    c.metric = "wall_ms";
    const std::string who = !before_busy && !after_busy ? "both sides" : !before_busy ? "BEFORE" : "AFTER";
    c.why = "wall time: " + who + " spend" + (who == "both sides" ? "" : "s") + " more than " +
            fixed(100 * (1 - threshold), "%.0f") + "% of the run blocked, neither on CPU nor queued for it" + shares +
            " (waiting on I/O, the network, locks or sleeps), a cost CPU time cannot see";
  }
  return c;
}

nlohmann::json to_json(const MetricChoice& c) {
  auto num = [](double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(); };
  return {{"metric", c.metric},
          {"why", c.why},
          {"cpu_wall_ratio_before", num(c.cpu_wall_ratio_before)},
          {"cpu_wall_ratio_after", num(c.cpu_wall_ratio_after)},
          {"busy_wall_ratio_before", num(c.busy_wall_ratio_before)},
          {"busy_wall_ratio_after", num(c.busy_wall_ratio_after)}};
}

double guard_band(const std::vector<run::Sample>& samples, const catalog::Guard& guard, double noise) {
  // Per-round log-ratios of the guard metric, paired by round like the comparisons.
  std::map<int, std::pair<double, double>> by_round;
  for (const auto& s : samples) {
    if (s.warmup || (s.variant != "before" && s.variant != "after")) continue;
    auto it = s.metrics.find(guard.metric);
    if (it == s.metrics.end() || it->second.value <= 0) continue;
    (s.variant == "before" ? by_round[s.round].first : by_round[s.round].second) = it->second.value;
  }
  std::vector<double> logs;
  for (const auto& [round, ba] : by_round)
    if (ba.first > 0 && ba.second > 0) logs.push_back(std::log(ba.second / ba.first));
  double spread = 0;
  if (logs.size() >= 3) {
    const double med = stats::median(logs);
    std::vector<double> dev;
    for (double l : logs) dev.push_back(std::fabs(l - med));
    spread = std::expm1(1.2533 * 1.4826 * stats::median(dev) / std::sqrt(static_cast<double>(logs.size())));
  }
  return std::max({guard.band, noise, spread});
}

bool guard_worse(const model::Comparison& c, double band) {
  if (!stats::reaches_level(c.r, c.confidence)) return false;
  return c.better == Better::Higher ? c.r.ci.hi < 1 - band : c.r.ci.lo > 1 + band;
}

// AFTER's guard metric is within the band when the whole interval lies below its edge.
bool guard_within(const model::Comparison& c, double band) {
  if (!stats::reaches_level(c.r, c.confidence)) return false;
  return c.better == Better::Higher ? c.r.ci.lo >= 1 - band : c.r.ci.hi <= 1 + band;
}

bool guard_decided(const model::Comparison& c, double band) { return guard_within(c, band) || guard_worse(c, band); }

model::GateResult guard_gate(const model::Comparison* c, const catalog::Guard& guard, double band) {
  model::GateResult g{model::GateKind::Guard, "no regress on " + guard.metric};
  g.metric = guard.metric;
  g.band = band;
  if (!c) {
    g.outcome = model::GateOutcome::Passed;
    g.detail = guard.metric + " was not measured on both sides: nothing to guard";
    return g;
  }
  const bool worse = guard_worse(*c, band), within = guard_within(*c, band);
  g.outcome = worse || within ? model::passed_if(within) : model::GateOutcome::CannotTell;
  g.detail = "after/before " + guard.metric + " " + fixed(c->r.ratio, "%.3g") + "x [" + fixed(c->r.ci.lo, "%.3g") +
             ", " + fixed(c->r.ci.hi, "%.3g") + "], band ±" + fixed(100 * band, "%.1f") + "%" +
             (worse ? std::string(": AFTER is slower beyond the band (an AFTER that trades CPU for waiting fails here)")
              : within ? std::string(": within the band")
              : !stats::reaches_level(c->r, c->confidence)
                  ? ": cannot tell, too few rounds for a " + fixed(100 * c->confidence, "%.0f") + "% interval"
                  : std::string(": cannot tell, the interval reaches beyond the band; more rounds would decide it"));
  return g;
}

}  // namespace perfgate::gate
