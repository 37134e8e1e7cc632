#include "stats/summary.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "perfgate/percentile.hpp"

namespace perfgate::stats {

namespace {

void require_sample(const std::vector<double>& values, const char* what) {
  if (values.empty()) {
    throw std::invalid_argument(std::string(what) + " of an empty sample: record at least one round");
  }
  // A NaN breaks sorting's ordering and an infinity poisons mean and stddev; both mean a
  // measurement failed upstream, which is better reported there than summarised here.
  for (double v : values) {
    if (!std::isfinite(v)) {
      throw std::invalid_argument(std::string(what) + " of a sample holding a non-finite value");
    }
  }
}

}  // namespace

double median(std::vector<double> values) {
  require_sample(values, "median");
  std::sort(values.begin(), values.end());
  return perfgate::percentile_sorted(values, 0.5);
}

Summary summarize(const std::vector<double>& values) {
  require_sample(values, "summary");
  std::vector<double> sorted = values;
  std::sort(sorted.begin(), sorted.end());
  const std::size_t n = sorted.size();

  double sum = 0.0;
  for (double v : sorted) sum += v;
  const double mean = sum / static_cast<double>(n);

  // Two passes (mean first, then squared deviations) rather than the one-pass sum of squares,
  // which cancels catastrophically for timings with a large mean and a small spread.
  double squares = 0.0;
  for (double v : sorted) squares += (v - mean) * (v - mean);
  // One sample has no spread to estimate; 0 rather than NaN keeps the results JSON numeric.
  const double stddev = n > 1 ? std::sqrt(squares / static_cast<double>(n - 1)) : 0.0;

  const double med = perfgate::percentile_sorted(sorted, 0.5);
  std::vector<double> deviations;
  deviations.reserve(n);
  for (double v : sorted) deviations.push_back(std::fabs(v - med));
  std::sort(deviations.begin(), deviations.end());

  Summary s{};
  s.n = n;
  s.median = med;
  s.mean = mean;
  s.stddev = stddev;
  s.mad = perfgate::percentile_sorted(deviations, 0.5);
  s.min = sorted.front();
  s.max = sorted.back();
  s.p50 = med;
  s.p90 = perfgate::percentile_sorted(sorted, 0.90);
  s.p95 = perfgate::percentile_sorted(sorted, 0.95);
  s.p99 = perfgate::percentile_sorted(sorted, 0.99);
  if (med != 0) s.spread = s.mad / std::fabs(med);
  if (n > 1) {
    const MedianInterval iv = median_interval_sorted(sorted);
    s.median_ci = {iv.lo, iv.hi};
    s.median_ci_coverage = iv.coverage;
  }
  return s;
}

MedianInterval median_interval_sorted(const std::vector<double>& sorted, double confidence) {
  require_sample(sorted, "median interval");
  const std::size_t n = sorted.size();
  // coverage(k) = 1 - 2 P(B < k); the binomial terms in logs, so thousands of values stay exact
  // enough (2^-n underflows a double beyond n = 1074).
  auto term = [n](std::size_t i) {
    return std::exp(std::lgamma(n + 1.0) - std::lgamma(i + 1.0) - std::lgamma(n - i + 1.0) - n * std::log(2.0));
  };
  std::size_t k = 1;
  double below = term(0);  // P(B < k)
  while (k + 1 <= n / 2 && 1 - 2 * (below + term(k)) >= confidence) below += term(k++);
  return {sorted[k - 1], sorted[n - k], 1 - 2 * below};
}

}  // namespace perfgate::stats
