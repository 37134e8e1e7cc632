// Two runs compared, benchstat-style (`perfgate compare OLD.json NEW.json`): for each scenario,
// variant and metric both runs measured, the medians, the change NEW/OLD with a percentile
// bootstrap interval (each run's samples resampled on their own: the runs are not paired), the
// unpaired Mann-Whitney U p-value, Holm-corrected across every row shown; a row is a change only
// when the corrected p is below alpha and the interval lies wholly outside the noise band,
// otherwise "~". The geometric mean of the changes over scenarios closes each metric's table.
#pragma once

#include <array>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "model/results_model.hpp"

namespace perfgate::gate {

struct DiffOptions {
  double alpha = 0.05, noise = 0.02;
  std::set<std::string> metrics;  // empty: each scenario's gated metric, wall_ms and cpu_ms
  bool all_metrics = false;
  std::uint64_t seed = 1;
  int resamples = 2000;
};

struct DiffRow {
  std::string scenario, profile, variant, metric, unit, better;
  bool gated = false;  // the scenario's primary metric
  std::size_t n_old = 0, n_new = 0;
  double old_median = 0, new_median = 0, old_spread = 0, new_spread = 0;  // spread: MAD / median
  double change = 1;                                                      // new / old median
  std::array<double, 2> ci{1, 1};
  double p = 1, p_adjusted = 1;
  std::string verdict = "~";  // better, worse, ~ (no significant change)
};

struct GeoMean {
  std::string metric, variant;
  std::size_t count = 0;
  double old_value = 0, new_value = 0, change = 1;
};

struct RunDiff {
  std::vector<DiffRow> rows;
  std::vector<GeoMean> geomeans;  // per metric and variant, over scenarios
  bool same_host = true;
  std::string old_host, new_host, old_commit, new_commit;
  std::vector<std::string> only_old, only_new;  // scenario/profile in one run only
};

RunDiff diff_runs(const model::ResultsDoc& old_results, const model::ResultsDoc& new_results,
                  const DiffOptions& options);

nlohmann::json to_json(const RunDiff& diff);

}  // namespace perfgate::gate
