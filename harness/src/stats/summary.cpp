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
  return s;
}

}  // namespace perfgate::stats
