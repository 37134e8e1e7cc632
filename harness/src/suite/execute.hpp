// A plan through every stage — fixture → runner → measure → stats → gates → store — for every
// scenario, then the run's Holm family, the baseline, and the run's exit code. The results
// file is rewritten after every scenario and at every exit. What the user sees at the end
// (verdict table, CI outputs) is the CLI's: cli/pipeline.hpp.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "model/results_model.hpp"
#include "plan/plan.hpp"
#include "suite/status_line.hpp"

namespace perfgate::suite {

struct RunOutcome {
  int exit_code = 0;
  bool interrupted = false;
  model::ResultsDoc document;          // the finished results
  nlohmann::json results;              // the same as written (store::to_json)
  std::filesystem::path results_path;  // empty: not written to a file
  std::vector<std::string> failures;   // "scenario: why", most severe first in run order
};

// `run_extra`: fields added to the results' `run` object (shard, against, batch); `lie_args`:
// `perfgate lies`'s, recorded as run.lies. A malformed baseline is exit 2 (UsageError) before
// anything runs or is written.
RunOutcome execute_plan(const plan::RunPlan& plan, const plan::RunOptions& options,
                        const std::vector<std::string>& argv, const nlohmann::json& run_extra, const StatusLine& status,
                        const std::optional<std::vector<std::string>>& lie_args = std::nullopt);

}  // namespace perfgate::suite
