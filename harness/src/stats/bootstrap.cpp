#include "stats/bootstrap.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>

#include "perfgate/percentile.hpp"

namespace perfgate::stats {

namespace {

// std::uniform_int_distribution's algorithm is left to each standard library, so the same seed
// would give other intervals under libc++ or MSVC. The engine's output is fully specified, so
// draw from it directly: reject the lowest 2^64 mod n outputs, leaving a multiple of n values
// for the modulo to split evenly.
std::size_t draw_index(std::mt19937_64& engine, std::uint64_t n) {
  const std::uint64_t reject_below = (std::uint64_t{0} - n) % n;
  std::uint64_t x = engine();
  while (x < reject_below) x = engine();
  return static_cast<std::size_t>(x % n);
}

// Type-7 percentile that tolerates infinities: percentile_sorted interpolates with
// lo + f * (hi - lo), which is NaN when an end is infinite. Infinities are stood in for by the
// largest finite double; any result beyond the largest finite statistic can only come from
// interpolating toward +infinity, and is that infinity (likewise below).
double percentile_with_infinities(std::vector<double> sorted, double p) {
  constexpr double inf = std::numeric_limits<double>::infinity();
  double finite_lo = inf;
  double finite_hi = -inf;
  bool plus_inf = false;
  bool minus_inf = false;
  for (double& v : sorted) {
    if (v == inf) {
      plus_inf = true;
      v = std::numeric_limits<double>::max();
    } else if (v == -inf) {
      minus_inf = true;
      v = std::numeric_limits<double>::lowest();
    } else {
      finite_lo = std::min(finite_lo, v);
      finite_hi = std::max(finite_hi, v);
    }
  }
  const double q = perfgate::percentile_sorted(sorted, p);
  if (plus_inf && q > finite_hi) return inf;
  if (minus_inf && q < finite_lo) return -inf;
  return q;
}

}  // namespace

Interval bootstrap_ci(std::size_t n, std::uint64_t seed, int resamples, double confidence,
                      const ResampleStatistic& statistic) {
  if (n == 0) throw std::invalid_argument("bootstrap of an empty sample");
  if (resamples < 1) throw std::invalid_argument("bootstrap needs at least one resample");
  if (!(confidence > 0.0 && confidence < 1.0)) {
    throw std::invalid_argument("bootstrap confidence must be in (0, 1), e.g. 0.95");
  }
  std::mt19937_64 engine(seed);
  std::vector<std::size_t> indices(n);
  std::vector<double> stats;
  stats.reserve(static_cast<std::size_t>(resamples));
  for (int b = 0; b < resamples; ++b) {
    for (auto& i : indices) i = draw_index(engine, n);
    const double s = statistic(indices);
    if (std::isnan(s)) throw std::logic_error("bootstrap statistic returned NaN");
    stats.push_back(s);
  }
  std::sort(stats.begin(), stats.end());
  return {percentile_with_infinities(stats, (1.0 - confidence) / 2.0),
          percentile_with_infinities(stats, (1.0 + confidence) / 2.0)};
}

Interval bootstrap_median_ci(const std::vector<double>& values, std::uint64_t seed, int resamples, double confidence) {
  for (double v : values) {
    if (!std::isfinite(v)) throw std::invalid_argument("bootstrap of a sample holding a non-finite value");
  }
  std::vector<double> resample(values.size());
  return bootstrap_ci(values.size(), seed, resamples, confidence, [&](const std::vector<std::size_t>& idx) {
    for (std::size_t k = 0; k < idx.size(); ++k) resample[k] = values[idx[k]];
    std::sort(resample.begin(), resample.end());
    return perfgate::percentile_sorted(resample, 0.5);
  });
}

}  // namespace perfgate::stats
