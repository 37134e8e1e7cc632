#include "stats/verdict.hpp"

#include <algorithm>
#include <boost/math/distributions/normal.hpp>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "stats/multiple.hpp"
#include "stats/power.hpp"
#include "stats/rank_tests.hpp"

namespace perfgate::stats {

namespace {

constexpr double kPi = 3.14159265358979323846;

void check_band(double band) {
  if (!(band >= 0.0 && band < 1.0)) throw std::invalid_argument("noise band must be in [0, 1), e.g. 0.02");
}

double turned(double log_ratio, Better better) { return better == Better::Higher ? -log_ratio : log_ratio; }

// The rounds, turned so that above 0 is AFTER's bad side, shifted by `edge`.
std::vector<double> shifted(const std::vector<double>& log_ratios, Better better, double edge) {
  std::vector<double> out;
  out.reserve(log_ratios.size());
  for (double r : log_ratios) out.push_back(turned(r, better) - edge);
  return out;
}

double safe_log(double v) {
  return std::isfinite(v) ? std::log(std::max(v, std::numeric_limits<double>::min()))
                          : std::numeric_limits<double>::infinity();
}

}  // namespace

StateTests state_tests(const PairedRatio& r, double band, Better better, SameMeans same) {
  check_band(band);
  const double up = std::log1p(band), down = std::log1p(-band);
  StateTests t;
  if (!r.log_scale || r.zero_spread) {
    // The ratio (or its interval) is all there is: exact with zero spread, else the interval's.
    double lo = safe_log(r.ci.lo), hi = safe_log(r.ci.hi);
    if (r.zero_spread) lo = hi = safe_log(r.ratio);
    if (better == Better::Higher) {
      const double turned_lo = -hi;
      hi = -lo;
      lo = turned_lo;
    }
    // Beyond an edge counts as the rank test's one-sided half (its two-sided p over 2), so a
    // family still corrects it; exact when every round agreed.
    const double one_sided = r.zero_spread ? 0 : r.p_wilcoxon / 2;
    t.p_worse = lo > up ? one_sided : 1;
    t.p_better = hi < down ? one_sided : 1;
    const bool below_up = hi <= up, above_down = lo >= down;
    t.p_same = below_up && above_down ? 0 : 1;
    t.p_not_worse = same == SameMeans::NotWorse && below_up ? 0 : 1;
    return t;
  }
  const TestResult at_up = wilcoxon_signed_rank(shifted(r.log_ratios, better, up));
  const TestResult at_down = wilcoxon_signed_rank(shifted(r.log_ratios, better, down));
  t.p_worse = at_up.p_greater;
  t.p_better = at_down.p_less;
  t.p_same = std::max(at_up.p_less, at_down.p_greater);
  t.p_not_worse = same == SameMeans::NotWorse ? at_up.p_less : 1;
  return t;
}

namespace {

// Holm's multiplier at each comparison's place in the ascending order of `p`: m for the
// smallest, 1 for the largest (ties in input order).
std::vector<double> holm_multipliers(const std::vector<double>& p) {
  std::vector<std::size_t> order(p.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return p[a] < p[b]; });
  std::vector<double> k(p.size());
  for (std::size_t j = 0; j < order.size(); ++j) k[order[j]] = static_cast<double>(p.size() - j);
  return k;
}

}  // namespace

std::vector<Decided> decide_verdicts(const std::vector<StateTests>& tests, double alpha) {
  if (!(alpha > 0.0 && alpha <= 1.0)) throw std::invalid_argument("alpha must be in (0, 1], e.g. 0.05");
  std::vector<double> worse, better;
  for (const auto& t : tests) {
    worse.push_back(t.p_worse);
    better.push_back(t.p_better);
  }
  const auto hw = holm(worse), hb = holm(better);
  const auto kw = holm_multipliers(worse), kb = holm_multipliers(better);
  // A change is called at either edge, so each side is tested at alpha / 2 (the two-sided
  // interval at 1 - alpha). "The same" and "not worse" reject nulls beyond an edge, one test an
  // edge, each at alpha itself (Schuirmann's two one-sided tests: the interval at 1 - 2 alpha).
  const double change_level = alpha / 2, same_level = alpha;
  std::vector<Decided> out(tests.size());
  for (std::size_t i = 0; i < tests.size(); ++i) {
    Decided& d = out[i];
    d.p_worse = hw[i];
    d.p_better = hb[i];
    d.p_same = tests[i].p_same;
    d.p_not_worse = tests[i].p_not_worse;
    d.verdict = hw[i] < change_level         ? Verdict::Worse
                : hb[i] < change_level       ? Verdict::Better
                : d.p_same < same_level      ? Verdict::Same
                : d.p_not_worse < same_level ? Verdict::NotWorse
                                             : Verdict::CannotTell;
    // The interval shown is the deciding test's; undecided, the test nearest to deciding.
    const double p_unchanged = std::min(tests[i].p_same, tests[i].p_not_worse);
    const bool undecided = d.verdict == Verdict::CannotTell;
    const bool by_worse =
        d.verdict == Verdict::Worse || (undecided && tests[i].p_worse <= std::min(tests[i].p_better, p_unchanged));
    const bool by_better =
        !by_worse && (d.verdict == Verdict::Better || (undecided && tests[i].p_better <= p_unchanged));
    d.confidence = by_worse ? 1 - alpha / kw[i] : by_better ? 1 - alpha / kb[i] : std::max(0.0, 1 - 2 * alpha);
  }
  return out;
}

Verdict decide_interval(const PairedRatio& r, double p_adjusted, double alpha, double band, Better better,
                        SameMeans same) {
  if (!(alpha > 0.0 && alpha <= 1.0)) throw std::invalid_argument("alpha must be in (0, 1], e.g. 0.05");
  check_band(band);
  // Strict inequalities: the band is closed, so an interval touching its edge is not outside it.
  const bool below = r.ci.hi<1.0 - band, above = r.ci.lo> 1.0 + band;
  const bool bad_side = better == Better::Lower ? above : below;
  const bool good_side = better == Better::Lower ? below : above;
  if (p_adjusted < alpha && bad_side) return Verdict::Worse;
  if (p_adjusted < alpha && good_side) return Verdict::Better;
  const bool not_worse = better == Better::Lower ? r.ci.hi <= 1.0 + band : r.ci.lo >= 1.0 - band;
  const bool inside = r.ci.lo >= 1.0 - band && r.ci.hi <= 1.0 + band;
  if (inside) return Verdict::Same;
  return same == SameMeans::NotWorse && not_worse ? Verdict::NotWorse : Verdict::CannotTell;
}

std::optional<int> rounds_to_decide(const std::vector<double>& log_ratios, double alpha, double band, SameMeans same,
                                    Better better) {
  const std::size_t n = log_ratios.size();
  if (n < 2 || !(alpha > 0.0 && alpha < 1.0)) return std::nullopt;
  double mean = 0;
  for (double r : log_ratios) mean += turned(r, better);
  mean /= static_cast<double>(n);
  double ss = 0;
  for (double r : log_ratios) ss += (turned(r, better) - mean) * (turned(r, better) - mean);
  const double sigma = std::sqrt(ss / static_cast<double>(n - 1));
  if (!(sigma > 0)) return std::nullopt;
  // The edge that would decide it: beyond the band, the edge it lies beyond (changed); inside,
  // +band for no-regress, else the nearer edge (the same).
  const double up = std::log1p(band), down = std::log1p(-band);
  double distance;
  if (mean > up)
    distance = mean - up;
  else if (mean < down)
    distance = down - mean;
  else
    distance = same == SameMeans::NotWorse ? up - mean : std::min(up - mean, mean - down);
  if (!(distance > 1e-12)) return std::nullopt;
  const double z = boost::math::quantile(boost::math::normal_distribution<double>(), 1 - alpha / 2);
  const double need = std::pow(z * sigma * std::sqrt(kPi / 3) / distance, 2);
  if (!std::isfinite(need) || need > 1e7) return std::nullopt;
  // Never fewer than the exact rank test needs to reject at all, however wide the margin, nor
  // than one more than were run: these did not decide it, whatever the approximation says.
  return std::max({static_cast<int>(std::ceil(need)), min_rank_rounds(alpha), static_cast<int>(n) + 1});
}

bool meets_factor(const PairedRatio& r, double factor, Better better) {
  if (!(factor > 0.0) || std::isinf(factor)) throw std::invalid_argument("claimed factor must be a positive number");
  return better == Better::Lower ? r.ci.hi <= 1.0 / factor : r.ci.lo >= factor;
}

bool misses_factor(const PairedRatio& r, double factor, Better better) {
  if (!(factor > 0.0) || std::isinf(factor)) throw std::invalid_argument("claimed factor must be a positive number");
  return better == Better::Lower ? r.ci.lo > 1.0 / factor : r.ci.hi < factor;
}

}  // namespace perfgate::stats
