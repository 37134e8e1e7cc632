// Descriptive summaries of one variant's samples.
#pragma once

#include <array>
#include <cstddef>
#include <limits>
#include <vector>

namespace perfgate::stats {

struct Summary {
  std::size_t n;
  double median;
  double mean;
  double stddev;  // sample standard deviation (n - 1); 0 when n == 1 (see summary.cpp)
  double mad;     // raw median absolute deviation from the median, unscaled (no 1.4826)
  double min;
  double max;
  double p50;  // percentiles: perfgate::percentile_sorted (type 7)
  double p90;
  double p95;
  double p99;
  // The median's distribution-free interval (order statistics, below) and its exact coverage;
  // NaN when there is none (one value, or a results file written before it was recorded).
  std::array<double, 2> median_ci{kNone, kNone};
  double median_ci_coverage = kNone;
  // The relative spread, mad / |median|, as `perfgate compare` prints it (gate/run_diff.cpp);
  // NaN when the median is 0 (no relative spread) or in a results file written before it.
  double spread = kNone;

  static constexpr double kNone = std::numeric_limits<double>::quiet_NaN();
};

// [x(k), x(n-k+1)] of the sorted values with the largest k whose coverage P(k <= B <= n-k),
// B ~ Binomial(n, 1/2), is at least `confidence` — an interval of the median that assumes no
// distribution; when even [min, max] covers less (n < 6 at 95%), [min, max] with its coverage.
struct MedianInterval {
  double lo, hi, coverage;
};
MedianInterval median_interval_sorted(const std::vector<double>& sorted, double confidence = 0.95);

// Throws std::invalid_argument on an empty sample or a non-finite value.
Summary summarize(const std::vector<double>& values);

// Type-7 median (mean of the two middle values for even n). Same errors as summarize.
double median(std::vector<double> values);

}  // namespace perfgate::stats
