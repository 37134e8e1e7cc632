// `run`, `ab`, `gbench` and `batch` end here: the plan's notes, the out folder taken
// (common/command_opening.hpp), then the plan through execute_plan with the progress line and log
// on stderr (suite/progress.hpp), then the verdict table, ab's per-command summary and the
// exports (export/exports.hpp).
#pragma once

#include "model/results_model.hpp"
#include "plan/plan.hpp"

namespace perfgate::suite {

struct Shown {
  int exit_code = 0;
  model::ResultsDoc document;
};

// Runs `plan` and shows what came back. A malformed baseline or script is exit 2 before
// anything runs or is written.
Shown run_and_show(const plan::RunPlan& plan);

}  // namespace perfgate::suite
