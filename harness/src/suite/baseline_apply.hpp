// The run against the committed baseline.json: which baseline a run compares with (read
// before anything runs, so a malformed one is exit 2 with nothing written), and the baseline
// gate of every scenario that ran to a verdict — Holm across the run's baseline comparisons;
// a significant regression beyond the tolerance fails the scenario (exit 1).
#pragma once

#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "gate/baseline_gate.hpp"
#include "plan/plan.hpp"
#include "store/baseline_file.hpp"
#include "suite/scenario_run.hpp"

namespace perfgate::suite {

// share/perfgate/baseline.json beside the catalog: in the build tree a link to the committed
// baseline.json at the root of the source tree, after `cmake --install` a copy of it.
std::filesystem::path default_baseline_path();

// Null when there is none to compare with (--baseline none, `ab` without --baseline, --against).
std::optional<store::Baseline> load_run_baseline(const plan::RunPlan& rp, const plan::RunOptions& o);

// The results' run.baseline: the file compared with, or why none was.
model::BaselineRef baseline_header(const std::optional<store::Baseline>& baseline, const plan::RunOptions& o);

struct BaselineCounts {
  int compared = 0;  // entries with a comparable baseline entry
  int missing = 0;   // entries with none (new scenario, other host, other profile)
};

// Adds a baseline gate and a `baseline` entry to every scenario that reached a verdict;
// a failed baseline gate turns a passing scenario's exit code into 1.
BaselineCounts apply_baseline(std::vector<std::unique_ptr<ScenarioRun>>& runs, const store::Baseline& baseline,
                              const model::ResultsDoc& results, double alpha, double tolerance);

// `perfgate baseline update`: every results file read and checked first (an --against run is
// refused), then the entries of each gated metric (of `only` scenarios, when named) put into
// the baseline at `file`. Nothing is written here: the caller saves unless it is a dry run.
// No changes: nothing could be recorded (`skipped` says why).
struct BaselineUpdate {
  store::Baseline baseline;
  std::vector<store::BaselineChange> changes;
  std::vector<std::string> skipped;  // "KEY: why"
  std::vector<std::string> dirty;    // results files made from a dirty work tree
};
BaselineUpdate update_baseline(const std::vector<std::string>& results_files, const std::filesystem::path& file,
                               const std::vector<std::string>& only, bool append);

// `perfgate baseline check`: a results file's gated figures against the baseline at `file`.
std::vector<gate::BaselineCheck> check_results_against(const std::string& results_file,
                                                       const std::filesystem::path& file, double alpha,
                                                       double tolerance);

}  // namespace perfgate::suite
