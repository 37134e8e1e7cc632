// Runs a plan through every stage — fixture → runner → measure → stats → gates → store — and
// returns the exit code. The results file is rewritten after every scenario and at every exit.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "plan/plan.hpp"

namespace perfgate::cli {

// `run_extra`: fields added to the results' `run` object (shard, against, batch). A malformed
// baseline is exit 2 before anything runs or is written.
int execute_plan(const plan::RunPlan& plan, const plan::RunOptions& options, const std::vector<std::string>& argv,
                 const nlohmann::json& run_extra = nlohmann::json::object());

// share/perfgate/baseline.json beside the catalog: in the build tree a link to the committed
// baseline.json at the root of the source tree, after `cmake --install` a copy of it.
std::filesystem::path default_baseline_path();

}  // namespace perfgate::cli
