// The ratio AFTER / BEFORE of one metric over paired rounds, with its interval and tests.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "stats/bootstrap.hpp"  // Interval, bootstrap_median_ci

namespace perfgate::stats {

struct PairedRatio {
  double ratio;  // AFTER / BEFORE; below 1 means AFTER is smaller
  Interval ci;   // percentile bootstrap over rounds
  double p_wilcoxon;
  std::string wilcoxon_method;  // "exact" or "normal"
  double p_mann_whitney;        // unpaired, reported for comparison with compare.py and benchstat
  std::size_t n;                // rounds
  bool log_scale;               // true: from per-round log-ratios; false: ratio of medians
};

// before[i] and after[i] were measured in the same round.
// Every value > 0 (log_scale): r_i = log(after_i / before_i); ratio = exp(median r); the CI is
// exp of bootstrap_median_ci(r); Wilcoxon on r; Mann-Whitney on before vs after.
// Some value == 0 (counts): ratio = median(after) / median(before), with 0/0 = 1 and x/0 = +inf;
// the CI bootstraps rounds and takes that ratio of medians (an end may be +inf); Wilcoxon on
// after - before.
// Throws std::invalid_argument on a size mismatch, fewer than 2 rounds, a negative or
// non-finite value, resamples < 1 or confidence outside (0, 1).
PairedRatio paired_ratio(const std::vector<double>& before, const std::vector<double>& after, std::uint64_t seed,
                         int resamples = 10000, double confidence = 0.95);

}  // namespace perfgate::stats
