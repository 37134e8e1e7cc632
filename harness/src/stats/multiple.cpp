#include "stats/multiple.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>

namespace perfgate::stats {

std::vector<double> holm(const std::vector<double>& p) {
  for (double v : p) {
    if (!(v >= 0.0 && v <= 1.0)) throw std::invalid_argument("Holm correction: p-value outside [0, 1]");
  }
  const std::size_t m = p.size();
  std::vector<std::size_t> order(m);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return p[a] < p[b]; });

  std::vector<double> adjusted(m);
  double running = 0.0;  // the running maximum keeps adjusted p monotone in the raw p
  for (std::size_t k = 0; k < m; ++k) {
    const double scaled = static_cast<double>(m - k) * p[order[k]];
    running = std::max(running, std::min(1.0, scaled));
    adjusted[order[k]] = running;
  }
  return adjusted;
}

}  // namespace perfgate::stats
