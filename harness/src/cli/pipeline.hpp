// Runs a plan through every stage — fixture → runner → measure → stats → gates → store — and
// returns the exit code. The results file is rewritten after every scenario and at every exit.
#pragma once

#include <string>
#include <vector>

#include "plan/plan.hpp"

namespace perfgate::cli {

int execute_plan(const plan::RunPlan& plan, const plan::RunOptions& options, const std::vector<std::string>& argv);

}  // namespace perfgate::cli
