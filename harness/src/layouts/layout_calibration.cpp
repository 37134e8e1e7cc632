#include "layouts/layout_calibration.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "common/errors.hpp"
#include "common/shell_words.hpp"
#include "common/time_stamp.hpp"
#include "measure/host.hpp"
#include "stats/summary.hpp"

namespace perfgate::layouts {

store::LayoutSpread spread_of(const std::vector<LayoutRun>& runs) {
  if (runs.size() < 2) throw std::invalid_argument("a layout spread needs 2 layouts or more");
  store::LayoutSpread s;
  // Per layout, the mean of ln(value) over both sides' rounds (one build) and the rounds' own
  // variance around it; the layouts' variance is what the means vary by beyond that noise.
  std::vector<double> means;
  double within = 0, within_df = 0, per_layout = 0;
  for (const auto& run : runs) {
    std::vector<double> logs;
    for (const auto* side : {&run.before, &run.after})
      for (double v : *side) logs.push_back(std::log(v));
    const stats::Summary of_layout = stats::summarize(logs);
    const double m = of_layout.mean, n = static_cast<double>(logs.size());
    within += of_layout.stddev * of_layout.stddev * (n - 1);
    within_df += n - 1;
    per_layout = static_cast<double>(logs.size());
    means.push_back(m);
    s.medians.push_back(std::exp(m));
  }
  const stats::Summary of_means = stats::summarize(means);
  const double grand = of_means.mean, between = of_means.stddev * of_means.stddev;
  s.noise_sd = within_df > 0 ? std::sqrt(within / within_df) : 0;
  s.layout_sd = std::sqrt(std::max(0.0, between - s.noise_sd * s.noise_sd / per_layout));
  const auto [lo, hi] = std::minmax_element(means.begin(), means.end());
  s.spread = (std::exp(*hi - grand) - std::exp(*lo - grand)) / 2;
  s.trusted_change = std::exp(1.96 * std::sqrt(2.0) * s.layout_sd) - 1;
  return s;
}

store::LayoutSpread measure_layout_spread(const LayoutRequest& r, const suite::RunSink& sink) {
  const auto outcome = run_layouts(r, sink);
  if (!outcome.failure.empty()) throw RunError("calibrate --layouts: " + outcome.failure);
  store::LayoutSpread s = spread_of(outcome.runs);
  s.program = std::filesystem::path(r.before_argv.at(0)).filename().string();
  s.command = join_command(r.before_argv);
  s.cpu_model = measure::host_info().cpu_model;
  s.measured_at = now_iso8601();
  s.metric = outcome.metric;
  s.unit = outcome.unit;
  s.layouts = r.layouts;
  s.rounds = r.rounds;
  return s;
}

}  // namespace perfgate::layouts
