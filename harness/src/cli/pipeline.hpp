// `run`, `ab` and `batch` end here: the plan goes through the suite layer (suite/execute.hpp)
// with the progress line on stderr, then the verdict table and the CI outputs are written.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "model/results_model.hpp"
#include "plan/plan.hpp"

namespace perfgate::cli {

// Returns the run's exit code. `run_extra`: fields added to the results' `run` object (shard,
// against, batch). A malformed baseline is exit 2 before anything runs or is written.
// `after_table` shows more of the results right after the verdict table (ab's summary).
int execute_plan(const plan::RunPlan& plan, const plan::RunOptions& options, const std::vector<std::string>& argv,
                 const nlohmann::json& run_extra = nlohmann::json::object(),
                 const std::function<void(const model::ResultsDoc&)>& after_table = {});

}  // namespace perfgate::cli
