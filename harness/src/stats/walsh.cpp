#include "stats/walsh.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace perfgate::stats {

namespace {

constexpr std::size_t kExactMax = 200;

// P(W+ <= c) for c = 0 .. n(n+1)/2, by counting sign patterns; probabilities rather than counts
// because 2^n overflows any integer long before n = 200.
std::vector<double> signed_rank_cumulative(std::size_t n) {
  const std::size_t total = n * (n + 1) / 2;
  std::vector<double> p(total + 1, 0.0);
  p[0] = 1;
  std::size_t reach = 0;
  for (std::size_t r = 1; r <= n; ++r) {
    reach += r;
    for (std::size_t s = reach + 1; s-- > 0;) p[s] = 0.5 * (p[s] + (s >= r ? p[s - r] : 0.0));
  }
  for (std::size_t s = 1; s <= total; ++s) p[s] = std::min(1.0, p[s] + p[s - 1]);
  return p;
}

double normal_signed_rank_cdf(std::size_t n, long long c) {
  const double nd = static_cast<double>(n);
  const double mean = nd * (nd + 1) / 4, sd = std::sqrt(nd * (nd + 1) * (2 * nd + 1) / 24);
  return 0.5 * std::erfc(-((static_cast<double>(c) + 0.5 - mean) / sd) / std::sqrt(2.0));
}

}  // namespace

double signed_rank_cdf(std::size_t n, long long c) {
  const long long total = static_cast<long long>(n * (n + 1) / 2);
  if (c < 0) return 0;
  if (c >= total) return 1;
  if (n > kExactMax) return normal_signed_rank_cdf(n, c);
  return signed_rank_cumulative(n)[static_cast<std::size_t>(c)];
}

std::size_t walsh_order(std::size_t n, double confidence) {
  const double tail = (1 - confidence) / 2;
  const long long total = static_cast<long long>(n * (n + 1) / 2);
  const std::vector<double> cdf = n <= kExactMax ? signed_rank_cumulative(n) : std::vector<double>{};
  auto at = [&](long long c) {
    return n <= kExactMax ? cdf[static_cast<std::size_t>(c)] : normal_signed_rank_cdf(n, c);
  };
  std::size_t k = 1;
  // P(W+ <= k - 1) grows with k: walk up while the next order still keeps the tail within bounds.
  while (static_cast<long long>(k) < total / 2 && at(static_cast<long long>(k)) <= tail) ++k;
  return k;
}

ShiftEstimate hodges_lehmann(const std::vector<double>& values, double confidence) {
  if (values.size() < 2) throw std::invalid_argument("Hodges-Lehmann needs at least 2 values");
  if (!(confidence > 0 && confidence < 1)) throw std::invalid_argument("confidence must be in (0, 1)");
  for (double v : values)
    if (!std::isfinite(v)) throw std::invalid_argument("Hodges-Lehmann: non-finite value");
  const std::size_t n = values.size();
  std::vector<double> walsh;
  walsh.reserve(n * (n + 1) / 2);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = i; j < n; ++j) walsh.push_back((values[i] + values[j]) / 2);
  std::sort(walsh.begin(), walsh.end());
  const std::size_t m = walsh.size();
  ShiftEstimate out;
  out.estimate = m % 2 ? walsh[m / 2] : (walsh[m / 2 - 1] + walsh[m / 2]) / 2;
  out.k = walsh_order(n, confidence);
  out.lo = walsh[out.k - 1];
  out.hi = walsh[m - out.k];
  out.confidence = 1 - 2 * signed_rank_cdf(n, static_cast<long long>(out.k) - 1);
  return out;
}

}  // namespace perfgate::stats
