#include "stats/change_points.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "stats/summary.hpp"

namespace perfgate::stats {
StepFit fit_steps(const std::vector<double>& values, const StepFitOptions& o) {
  StepFit fit;
  const std::size_t n = values.size();
  fit.log_scale = o.log_scale && std::all_of(values.begin(), values.end(), [](double v) { return v > 0; });
  std::vector<double> x(values);
  if (fit.log_scale)
    for (auto& v : x) v = std::log(v);
  const std::size_t m = std::max<std::size_t>(1, o.min_segment);
  if (n < 2 * m) {
    fit.too_short = true;
    return fit;
  }

  std::vector<double> diffs;
  for (std::size_t i = 1; i < n; ++i) diffs.push_back(x[i] - x[i - 1]);
  const double med = median(diffs);
  std::vector<double> dev;
  for (double d : diffs) dev.push_back(std::fabs(d - med));
  fit.sigma = median(dev) / (0.6745 * std::sqrt(2.0));
  // A series without noise still needs a positive penalty, or every point would be a segment.
  double scale = 0;
  for (double v : x) scale = std::max(scale, std::fabs(v));
  fit.sigma = std::max(fit.sigma, 1e-9 * std::max(scale, 1.0));
  fit.beta = o.penalty * fit.sigma * fit.sigma * std::log(static_cast<double>(n));

  // Prefix sums: the cost of x[s..t) is sum x² − (sum x)² / (t − s).
  std::vector<double> s1(n + 1, 0), s2(n + 1, 0);
  for (std::size_t i = 0; i < n; ++i) {
    s1[i + 1] = s1[i] + x[i];
    s2[i + 1] = s2[i] + x[i] * x[i];
  }
  auto cost = [&](std::size_t s, std::size_t t) {
    const double a = s1[t] - s1[s], b = s2[t] - s2[s];
    return std::max(0.0, b - a * a / static_cast<double>(t - s));
  };
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<double> best(n + 1, inf);
  std::vector<std::size_t> prev(n + 1, 0);
  best[0] = -fit.beta;
  for (std::size_t t = m; t <= n; ++t)
    for (std::size_t s = 0; s + m <= t; ++s) {
      if (best[s] == inf) continue;
      const double c = best[s] + cost(s, t) + fit.beta;
      if (c < best[t]) {
        best[t] = c;
        prev[t] = s;
      }
    }
  std::vector<std::size_t> cuts;  // segment starts after the first
  for (std::size_t t = n; t > 0; t = prev[t])
    if (prev[t] > 0) cuts.push_back(prev[t]);
  std::reverse(cuts.begin(), cuts.end());

  auto mean = [&](std::size_t s, std::size_t t) { return (s1[t] - s1[s]) / static_cast<double>(t - s); };
  auto back = [&](double v) { return fit.log_scale ? std::exp(v) : v; };
  auto relative = [&](double a, double b) {  // b over a, in the values' scale
    const double va = back(a), vb = back(b);
    return va != 0 ? vb / va : (vb == 0 ? 1.0 : std::numeric_limits<double>::infinity());
  };
  // Drop steps smaller than min_step, smallest first.
  while (!cuts.empty()) {
    std::size_t worst = cuts.size();
    double smallest = inf;
    for (std::size_t k = 0; k < cuts.size(); ++k) {
      const std::size_t s = k == 0 ? 0 : cuts[k - 1], e = k + 1 < cuts.size() ? cuts[k + 1] : n;
      const double step = std::fabs(relative(mean(s, cuts[k]), mean(cuts[k], e)) - 1);
      if (step < o.min_step && step < smallest) {
        smallest = step;
        worst = k;
      }
    }
    if (worst == cuts.size()) break;
    cuts.erase(cuts.begin() + static_cast<long>(worst));
  }
  for (std::size_t k = 0; k < cuts.size(); ++k) {
    const std::size_t s = k == 0 ? 0 : cuts[k - 1], e = k + 1 < cuts.size() ? cuts[k + 1] : n;
    const double a = mean(s, cuts[k]), b = mean(cuts[k], e);
    fit.points.push_back({cuts[k], back(a), back(b), relative(a, b)});
  }
  return fit;
}

}  // namespace perfgate::stats
