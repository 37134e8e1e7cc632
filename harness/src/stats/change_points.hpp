// Change points of a history series (`perfgate history show`): a penalised step fit.
//
// Method (docs/history.md): the series (log values by default, so a step is a ratio) is cut
// into segments of constant mean minimising
//     sum over segments of the squared deviations from the segment's mean + beta per cut,
// solved exactly by dynamic programming (optimal partitioning, O(n²)), with each segment at
// least `min_segment` points long. beta = penalty · σ² · ln n (a BIC-style penalty; penalty 2
// by default: a cut adds a location and a mean), σ estimated robustly from successive
// differences, σ = MAD(x[i+1] − x[i]) / (0.6745 · √2), so the steps themselves do not inflate
// it. Cuts whose step between the adjacent segment means is below `min_step` (relative) are
// dropped afterwards, smallest first, re-fitting the means each time.
#pragma once

#include <cstddef>
#include <vector>

namespace perfgate::stats {

struct StepFitOptions {
  double penalty = 2.0;
  std::size_t min_segment = 2;
  double min_step = 0.05;  // relative change between adjacent segment means
  bool log_scale = true;   // fit log(values); needs every value > 0 (else the values themselves)
};

struct ChangePoint {
  std::size_t index;               // the first point of the new segment
  double mean_before, mean_after;  // in the values' own scale (geometric means on the log scale)
  double change;                   // mean_after / mean_before
};

struct StepFit {
  std::vector<ChangePoint> points;
  double sigma = 0, beta = 0;
  bool log_scale = true;
  bool too_short = false;  // fewer than 2 · min_segment values: no cut could be placed
};

StepFit fit_steps(const std::vector<double>& values, const StepFitOptions& options = {});

}  // namespace perfgate::stats
