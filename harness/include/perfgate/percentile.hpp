// The one percentile definition of perfgate, shared by the statistics library and by
// scenario programs that report distributions (p50/p99 of pages, requests).
//
// Definition: linear interpolation between closest ranks, Hyndman & Fan (1996) type 7 —
// the default of R's quantile(), numpy.percentile and Excel's PERCENTILE.INC:
//   h = (n - 1) * p,  q = x[floor(h)] + (h - floor(h)) * (x[floor(h) + 1] - x[floor(h)])
// over the sorted sample, p in [0, 1].
#pragma once

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

namespace perfgate {

inline double percentile_sorted(const std::vector<double>& sorted, double p) {
  if (sorted.empty()) throw std::invalid_argument("percentile of an empty sample");
  if (p <= 0.0) return sorted.front();
  if (p >= 1.0) return sorted.back();
  const double h = static_cast<double>(sorted.size() - 1) * p;
  const auto lo = static_cast<std::size_t>(std::floor(h));
  const std::size_t hi = std::min(lo + 1, sorted.size() - 1);
  return sorted[lo] + (h - static_cast<double>(lo)) * (sorted[hi] - sorted[lo]);
}

inline double percentile(std::vector<double> values, double p) {
  std::sort(values.begin(), values.end());
  return percentile_sorted(values, p);
}

}  // namespace perfgate
