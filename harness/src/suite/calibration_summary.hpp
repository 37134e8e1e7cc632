// What calibration pairs say: per workload and metric, the per-sample CV, the per-round
// log-ratio spread, false alarms and catches, the smallest detectable effect and the harness's
// wall perturbation; and duet rounds set against sequential ones. Plain functions over the
// pairs' results documents: nothing here runs a program.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "model/results_model.hpp"

namespace perfgate::suite {

// One `ab` run of the calibration program: its exit code, the results' scenario, how long it
// took and the program's own wall time of every sample (warm-up included).
struct CalibrationPair {
  int exit_code = 0;
  model::ScenarioResult scenario;
  double seconds = 0;
  std::vector<double> self_ms;
};

struct WorkloadPairs {
  std::string name;
  std::vector<std::string> command;
  std::vector<CalibrationPair> aa;                          // A/A pairs
  std::map<double, std::vector<CalibrationPair>> injected;  // extra work → its pairs
};

// The workload's entry of the calibration document. `alpha_per_look` and `noise`: ab's. Its
// detectable_effect_80/95 are stats::detectable_effect_of_spread of the pooled A/A spread at
// the median round count: the same figure a results file's comparisons carry.
nlohmann::json summarize_workload(const WorkloadPairs& pairs, double alpha_per_look, double noise);

// Duet against sequential rounds of the CPU-bound program (workloads "cpu-duet" and "cpu"):
// per-round log-ratio sd of cpu_ms and wall_ms and their false alarms. Duet "wins" only with
// a smaller sd and no more false alarms. Null when either workload was not calibrated.
nlohmann::json duet_against_sequential(const nlohmann::json& workloads);

}  // namespace perfgate::suite
