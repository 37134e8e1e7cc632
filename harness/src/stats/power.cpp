#include "stats/power.hpp"

#include <algorithm>
#include <boost/math/distributions/normal.hpp>
#include <cmath>
#include <numbers>
#include <numeric>
#include <stdexcept>

namespace perfgate::stats {

bool zero_spread(const std::vector<double>& values) {
  return !values.empty() && std::all_of(values.begin(), values.end(), [&](double v) { return v == values[0]; });
}

int min_rank_rounds(double alpha) {
  if (!(alpha > 0 && alpha < 1)) throw std::invalid_argument("alpha must be in (0, 1)");
  int n = 1;
  while (std::ldexp(2.0, -n) >= alpha) ++n;
  return n;
}

static void check_power_arguments(double alpha, double noise, double power) {
  if (!(alpha > 0 && alpha < 1) || !(power > 0 && power < 1) || !(noise >= 0 && noise < 1))
    throw std::invalid_argument("detectable effect: alpha and power in (0, 1), noise in [0, 1)");
}

std::optional<double> detectable_effect(const std::vector<double>& log_ratios, double alpha, double noise,
                                        double power) {
  check_power_arguments(alpha, noise, power);
  const std::size_t n = log_ratios.size();
  if (n < 2) return std::nullopt;
  if (zero_spread(log_ratios)) return noise;
  const double mean = std::accumulate(log_ratios.begin(), log_ratios.end(), 0.0) / static_cast<double>(n);
  double ss = 0;
  for (double r : log_ratios) ss += (r - mean) * (r - mean);
  return detectable_effect_of_spread(std::sqrt(ss / static_cast<double>(n - 1)), n, alpha, noise, power);
}

std::optional<double> detectable_effect_of_spread(double sigma, std::size_t n, double alpha, double noise,
                                                  double power) {
  check_power_arguments(alpha, noise, power);
  if (!std::isfinite(sigma) || n < 2 || static_cast<int>(n) < min_rank_rounds(alpha)) return std::nullopt;
  const boost::math::normal z;
  const double shift = (boost::math::quantile(z, 1 - alpha / 2) + boost::math::quantile(z, power)) * sigma *
                       std::sqrt(std::numbers::pi / 3) / std::sqrt(static_cast<double>(n));
  return std::expm1(std::log1p(noise) + shift);
}

}  // namespace perfgate::stats
