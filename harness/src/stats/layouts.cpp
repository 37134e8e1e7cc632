#include "stats/layouts.hpp"

#include <algorithm>
#include <boost/math/distributions/fisher_f.hpp>
#include <boost/math/distributions/normal.hpp>
#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "stats/summary.hpp"

namespace perfgate::stats {

namespace {

// Paull's rule (1950): pool the layouts' rounds when their F test gives p >= 0.25.
constexpr double kPoolAbove = 0.25;

double mean(const std::vector<double>& v) { return summarize(v).mean; }

double sample_variance(const std::vector<double>& v) {
  const double sd = summarize(v).stddev;  // 0 for one value
  return sd * sd;
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

// The layouts' own F test: do the layout pairs' means differ by more than their rounds' noise
// explains? MS between layouts over MS within, on K - 1 and sum(n_k - 1) degrees of freedom. None
// when a layout has a single round (no noise to compare with) or every round agrees.
std::optional<double> layout_test(const std::vector<std::vector<double>>& rounds, const std::vector<double>& d) {
  double ss_within = 0, df_within = 0, ss_between = 0, n = 0, sum = 0;
  for (std::size_t i = 0; i < rounds.size(); ++i) {
    if (rounds[i].size() < 2) return std::nullopt;
    for (double r : rounds[i]) ss_within += (r - d[i]) * (r - d[i]);
    df_within += static_cast<double>(rounds[i].size()) - 1;
    n += static_cast<double>(rounds[i].size());
    sum += d[i] * static_cast<double>(rounds[i].size());
  }
  const double grand = sum / n;
  for (std::size_t i = 0; i < rounds.size(); ++i)
    ss_between += static_cast<double>(rounds[i].size()) * (d[i] - grand) * (d[i] - grand);
  const double df_between = static_cast<double>(rounds.size()) - 1;
  if (ss_within <= 0) return std::nullopt;
  const double f = (ss_between / df_between) / (ss_within / df_within);
  return 1 - boost::math::cdf(boost::math::fisher_f(df_between, df_within), f);
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

// Layouts for the t interval at the deciding level to clear the nearest edge at the observed
// spread of d_k: the least k > K with t(k - 1) · sd / √k under the distance (at most 1,000).
std::optional<int> layouts_needed(double m, double sd, std::size_t k, double band, double alpha) {
  const double up = std::log1p(band), down = std::log1p(-band);
  const bool inside = m > down && m < up;
  const double distance = inside ? std::min(up - m, m - down) : (m >= up ? m - up : down - m);
  if (!(sd > 0) || !(distance > 0)) return std::nullopt;
  const double level = 1 - (inside ? alpha : alpha / 2);
  // Upward from the normal approximation's answer, which t never undercuts.
  const double z = boost::math::quantile(boost::math::normal(), level);
  const int start = std::max(static_cast<int>(k) + 1, static_cast<int>(std::pow(z * sd / distance, 2)));
  for (int n = start; n <= 1000; ++n)
    if (boost::math::quantile(boost::math::students_t(n - 1), level) * sd / std::sqrt(static_cast<double>(n)) <
        distance)
      return n;
  return std::nullopt;
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
  std::vector<std::vector<double>> rounds;
  double within = 0;  // mean over layouts of Var(round log-ratios) / rounds: the noise part of Var(d_k)
  for (const auto& l : layouts) {
    std::vector<double> r;
    for (std::size_t i = 0; i < l.before.size(); ++i) r.push_back(std::log(l.after[i] / l.before[i]));
    d.push_back(mean(r));
    within += sample_variance(r) / static_cast<double>(r.size());
    e.layout_ratios.push_back(std::exp(d.back()));
    e.rounds += r.size();
    rounds.push_back(std::move(r));
  }
  within /= static_cast<double>(layouts.size());
  const double k = static_cast<double>(layouts.size());
  const double m = mean(d), var = sample_variance(d), sd = std::sqrt(var);
  e.ratio = std::exp(m);
  e.layout_share = var > 0 ? std::clamp((var - within) / var, 0.0, 1.0) : 0.0;
  e.spread_before = spread(layouts, false);
  e.spread_after = spread(layouts, true);
  e.log_mean = m;
  e.log_se = sd / std::sqrt(k);
  e.df = k - 1;
  e.layout_p = layout_test(rounds, d);
  if (e.layout_p && *e.layout_p >= kPoolAbove) {
    // The layouts moved nothing the rounds could see: every round is a unit (Paull's rule).
    std::vector<double> all;
    for (const auto& r : rounds) all.insert(all.end(), r.begin(), r.end());
    e.pooled = true;
    e.df = static_cast<double>(all.size()) - 1;
    e.log_se = std::sqrt(sample_variance(all) / static_cast<double>(all.size()));
  }
  const double turned = better == Better::Higher ? -m : m;
  e.tests = t_tests(turned, e.log_se, e.df, band, same);
  e.decided = decide_verdicts({e.tests}, alpha).front();
  e.confidence = e.decided.confidence;
  e.ci = layout_interval(e, e.confidence);
  if (e.df >= 1) {
    const boost::math::students_t t(e.df);
    e.detectable = std::exp(std::log1p(band) +
                            (boost::math::quantile(t, 1 - alpha / 2) + boost::math::quantile(t, 0.8)) * e.log_se) -
                   1;
  }
  if (e.decided.verdict == Verdict::CannotTell) {
    e.more_layouts = !e.pooled && e.layout_share >= 0.5;
    e.layouts_to_decide = layouts_needed(turned, sd, layouts.size(), band, alpha);
  }
  return e;
}

Interval layout_interval(const LayoutEffect& e, double confidence) {
  const double q =
      e.log_se == 0 || e.df < 1 ? 0 : boost::math::quantile(boost::math::students_t(e.df), 1 - (1 - confidence) / 2);
  return {std::exp(e.log_mean - q * e.log_se), std::exp(e.log_mean + q * e.log_se)};
}

}  // namespace perfgate::stats
