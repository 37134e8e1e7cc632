// The Hodges–Lehmann estimate of a paired shift and its exact Walsh-average interval: the
// interval that inverts the Wilcoxon signed-rank test, so the interval and the test the gate
// uses always agree, and its coverage holds at small n (the percentile bootstrap of the median
// covered 91–93% at n = 6–13).
#pragma once

#include <cstddef>
#include <vector>

namespace perfgate::stats {

struct ShiftEstimate {
  double estimate = 0;    // median of the n(n+1)/2 Walsh averages (x_i + x_j) / 2, i <= j
  double lo = 0, hi = 0;  // Walsh averages of order k and M + 1 - k
  double confidence = 0;  // achieved: 1 - 2 P(W+ <= k - 1); the nearest level >= the one asked
  std::size_t k = 1;      // the order statistic used
};

// P(W+ <= c) for the signed-rank statistic of n untied non-zero differences: exact (by
// counting sign patterns) up to n = 200, normal with continuity correction beyond.
double signed_rank_cdf(std::size_t n, long long c);

// The largest k with 2 P(W+ <= k - 1) <= 1 - confidence, so the achieved level is the nearest
// one at or above `confidence`; 1 (the whole range, level 1 - 2^(1-n)) when no k reaches it.
std::size_t walsh_order(std::size_t n, double confidence);

// Throws std::invalid_argument on fewer than 2 values, a non-finite value, or a confidence
// outside (0, 1).
ShiftEstimate hodges_lehmann(const std::vector<double>& values, double confidence = 0.95);

}  // namespace perfgate::stats
