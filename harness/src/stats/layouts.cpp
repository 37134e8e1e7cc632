#include "stats/layouts.hpp"

#include <algorithm>
#include <boost/math/distributions/normal.hpp>
#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "stats/summary.hpp"

namespace perfgate::stats {

namespace {

double mean(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x;
  return s / static_cast<double>(v.size());
}

double sample_variance(const std::vector<double>& v) {
  if (v.size() < 2) return 0;
  const double m = mean(v);
  double s = 0;
  for (double x : v) s += (x - m) * (x - m);
  return s / static_cast<double>(v.size() - 1);
}

void check(const std::vector<LayoutPair>& layouts) {
  if (layouts.size() < 2) throw std::invalid_argument("a verdict over layouts needs 2 layouts or more");
  for (const auto& l : layouts) {
    if (l.before.empty() || l.before.size() != l.after.size())
      throw std::invalid_argument("each layout needs paired rounds: as many before values as after, at least one");
    for (const auto* side : {&l.before, &l.after})
      for (double v : *side)
        if (!(v > 0) || !std::isfinite(v)) throw std::invalid_argument("layout values must be finite and > 0");
  }
}

// Half the range of the per-layout medians over their geometric mean.
double spread(const std::vector<LayoutPair>& layouts, bool after) {
  std::vector<double> logs;
  for (const auto& l : layouts) logs.push_back(std::log(median(after ? l.after : l.before)));
  const auto [lo, hi] = std::minmax_element(logs.begin(), logs.end());
  const double centre = mean(logs);
  return (std::exp(*hi - centre) - std::exp(*lo - centre)) / 2;
}

// One-sided p-values of the turned mean m (above 0: AFTER's bad side) with standard error se
// and df degrees of freedom. Zero se: exact.
StateTests t_tests(double m, double se, double df, double band, SameMeans same) {
  const double up = std::log1p(band), down = std::log1p(-band);
  // P(T <= (m - edge) / se): the chance of a mean this low if the truth sat on the edge.
  auto below = [&](double edge) {
    if (se == 0) return m < edge ? 0.0 : m > edge ? 1.0 : 0.5;
    return boost::math::cdf(boost::math::students_t(df), (m - edge) / se);
  };
  StateTests t;
  t.p_worse = 1 - below(up);  // rejects θ <= up for a high mean
  t.p_better = below(down);   // rejects θ >= down for a low mean
  t.p_same = std::max(below(up), 1 - below(down));
  t.p_not_worse = same == SameMeans::NotWorse ? below(up) : 1;
  return t;
}

// Layouts for the t interval at the deciding level to clear the nearest edge, from the observed
// spread of d_k (normal approximation); never fewer than K + 1.
std::optional<int> layouts_needed(double m, double sd, std::size_t k, double band, double alpha) {
  const double up = std::log1p(band), down = std::log1p(-band);
  const bool inside = m > down && m < up;
  const double distance = inside ? std::min(up - m, m - down) : (m >= up ? m - up : down - m);
  if (!(sd > 0) || !(distance > 0)) return std::nullopt;
  const double z = boost::math::quantile(boost::math::normal(), 1 - (inside ? alpha : alpha / 2));
  const double n = std::ceil(std::pow(z * sd / distance, 2));
  return static_cast<int>(std::max<double>(n, static_cast<double>(k) + 1));
}

}  // namespace

LayoutEffect layout_effect(const std::vector<LayoutPair>& layouts, double band, Better better, SameMeans same,
                           double alpha) {
  check(layouts);
  if (!(band >= 0.0 && band < 1.0)) throw std::invalid_argument("noise band must be in [0, 1), e.g. 0.02");
  if (!(alpha > 0.0 && alpha < 1.0)) throw std::invalid_argument("alpha must be in (0, 1), e.g. 0.05");
  LayoutEffect e;
  e.layouts = layouts.size();
  std::vector<double> d;
  double within = 0;  // mean over layouts of Var(round log-ratios) / rounds: the noise part of Var(d_k)
  for (const auto& l : layouts) {
    std::vector<double> r;
    for (std::size_t i = 0; i < l.before.size(); ++i) r.push_back(std::log(l.after[i] / l.before[i]));
    d.push_back(mean(r));
    within += sample_variance(r) / static_cast<double>(r.size());
    e.layout_ratios.push_back(std::exp(d.back()));
    e.rounds += r.size();
  }
  within /= static_cast<double>(layouts.size());
  const double k = static_cast<double>(layouts.size()), df = k - 1;
  const double m = mean(d), var = sample_variance(d), sd = std::sqrt(var), se = sd / std::sqrt(k);
  e.ratio = std::exp(m);
  e.layout_share = var > 0 ? std::clamp((var - within) / var, 0.0, 1.0) : 0.0;
  e.spread_before = spread(layouts, false);
  e.spread_after = spread(layouts, true);
  const double turned = better == Better::Higher ? -m : m;
  e.tests = t_tests(turned, se, df, band, same);
  e.decided = decide_verdicts({e.tests}, alpha).front();
  e.confidence = e.decided.confidence;
  const double q = se == 0 ? 0 : boost::math::quantile(boost::math::students_t(df), 1 - (1 - e.confidence) / 2);
  e.ci = {std::exp(m - q * se), std::exp(m + q * se)};
  if (e.decided.verdict == Verdict::CannotTell) {
    e.more_layouts = e.layout_share >= 0.5;
    e.layouts_to_decide = layouts_needed(turned, sd, layouts.size(), band, alpha);
  }
  return e;
}

}  // namespace perfgate::stats
