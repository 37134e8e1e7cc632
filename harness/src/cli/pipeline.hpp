// `run`, `ab`, `gbench` and `batch` end here: the plan's notes, then the plan through the suite
// layer (suite/execute.hpp) with the progress line and log on stderr, then the verdict table,
// ab's per-command summary and the exports (export/exports.hpp).
#pragma once

#include "model/results_model.hpp"
#include "plan/plan.hpp"

namespace perfgate::cli {

struct Shown {
  int exit_code = 0;
  model::ResultsDoc document;
};

// Runs `plan` and shows what came back. A malformed baseline or script is exit 2 before
// anything runs or is written.
Shown run_plan(const plan::RunPlan& plan);

}  // namespace perfgate::cli
