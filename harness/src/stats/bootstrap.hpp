// Percentile bootstrap over rounds.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

namespace perfgate::stats {

struct Interval {
  double lo;
  double hi;
};

// Computes a statistic of one resample, given the indices (drawn with replacement) of the
// rounds it holds.
using ResampleStatistic = std::function<double(const std::vector<std::size_t>& indices)>;

// Percentile bootstrap: `resamples` resamples of n indices drawn with replacement from
// std::mt19937_64 seeded with `seed`; returns the (1 - confidence)/2 and (1 + confidence)/2
// type-7 percentiles of the statistic. The statistic may return +-infinity (a ratio over a
// zero median); an interval end interpolated toward an infinity is that infinity.
// Same seed, same inputs: same interval, on every platform.
// Throws std::invalid_argument when n == 0, resamples < 1 or confidence is not in (0, 1).
Interval bootstrap_ci(std::size_t n, std::uint64_t seed, int resamples, double confidence,
                      const ResampleStatistic& statistic);

// bootstrap_ci of the median of `values`.
Interval bootstrap_median_ci(const std::vector<double>& values, std::uint64_t seed, int resamples, double confidence);

}  // namespace perfgate::stats
