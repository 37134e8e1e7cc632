// Descriptive summaries of one variant's samples.
#pragma once

#include <cstddef>
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
};

// Throws std::invalid_argument on an empty sample or a non-finite value.
Summary summarize(const std::vector<double>& values);

// Type-7 median (mean of the two middle values for even n). Same errors as summarize.
double median(std::vector<double> values);

}  // namespace perfgate::stats
