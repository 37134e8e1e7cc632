#include "stats/spending.hpp"

#include <algorithm>
#include <boost/math/distributions/normal.hpp>
#include <cmath>
#include <stdexcept>

namespace perfgate::stats {

namespace {

// Points of the integration grid: Simpson's rule over an odd count; 301 keeps the boundary's
// level within 1e-4 of its own value against a 1201-point grid (spending_test).
constexpr int kGrid = 301;

double upper_tail(double z) { return 0.5 * std::erfc(z / std::sqrt(2.0)); }

double normal_density(double z) { return std::exp(-0.5 * z * z) / std::sqrt(2 * M_PI); }

std::vector<double> even_grid(double half_width) {
  std::vector<double> g(kGrid);
  for (int i = 0; i < kGrid; ++i) g[i] = -half_width + 2 * half_width * i / (kGrid - 1);
  return g;
}

double simpson_weight(int i, double step) {
  if (i == 0 || i == kGrid - 1) return step / 3;
  return (i % 2 ? 4 : 2) * step / 3;
}

}  // namespace

double pocock_spending(double alpha, double t) {
  return alpha * std::log1p((std::exp(1.0) - 1) * std::clamp(t, 0.0, 1.0));
}

double budgeted_spending(double alpha, double t) { return 0.16 * alpha + 0.56 * pocock_spending(alpha, t); }

SpendingBoundary::SpendingBoundary(double alpha) : alpha_(alpha) {
  if (!(alpha > 0 && alpha < 1)) throw std::invalid_argument("alpha must be in (0, 1)");
}

double SpendingBoundary::look(int rounds, double spent) {
  if (rounds <= rounds_) throw std::invalid_argument("a look needs more rounds than the last one");
  const double target = std::clamp(spent, spent_, alpha_);
  const double spend = target - spent_;
  const double sd_here = std::sqrt(static_cast<double>(rounds));
  boost::math::normal_distribution<double> z;
  double edge;                   // the boundary on B(rounds): a crossing is |B| >= edge
  std::vector<double> weighted;  // prior sub-density times quadrature weights
  double step_sd = sd_here;
  if (rounds_ == 0) {
    edge = spend > 0 ? boost::math::quantile(boost::math::complement(z, spend / 2)) * sd_here : 40 * sd_here;
  } else {
    step_sd = std::sqrt(static_cast<double>(rounds - rounds_));
    const double step = grid_[1] - grid_[0];
    weighted.resize(grid_.size());
    for (std::size_t i = 0; i < grid_.size(); ++i)
      weighted[i] = density_[i] * simpson_weight(static_cast<int>(i), step);
    const auto crossing = [&](double c) {
      double p = 0;
      for (std::size_t i = 0; i < grid_.size(); ++i)
        p += weighted[i] * (upper_tail((c - grid_[i]) / step_sd) + upper_tail((c + grid_[i]) / step_sd));
      return p;
    };
    double lo = 0, hi = grid_.back() + 40 * step_sd;
    if (spend <= 0) {
      edge = hi;
    } else {
      for (int it = 0; it < 60; ++it) {
        const double mid = (lo + hi) / 2;
        (crossing(mid) > spend ? lo : hi) = mid;
      }
      edge = hi;
    }
  }
  // The sub-density of B(rounds) inside the boundary, for the next look. Past 8 sd of either
  // the whole walk or this step there is nothing left to keep.
  const double half = std::min(edge, (rounds_ == 0 ? 8 * sd_here : grid_.back() + 8 * step_sd));
  std::vector<double> grid = even_grid(half), density(kGrid);
  for (int j = 0; j < kGrid; ++j) {
    if (rounds_ == 0) {
      density[j] = normal_density(grid[j] / sd_here) / sd_here;
    } else {
      double d = 0;
      for (std::size_t i = 0; i < grid_.size(); ++i) d += weighted[i] * normal_density((grid[j] - grid_[i]) / step_sd);
      density[j] = d / step_sd;
    }
  }
  grid_ = std::move(grid);
  density_ = std::move(density);
  rounds_ = rounds;
  spent_ = target;
  return std::min(1.0, 2 * upper_tail(edge / sd_here));
}

}  // namespace perfgate::stats
