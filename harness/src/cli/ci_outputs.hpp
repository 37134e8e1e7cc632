// What a run writes for CI besides the results file: --junit FILE, --export-gbench FILE, and,
// when GITHUB_ACTIONS=true, workflow annotations on stdout and the markdown summary appended to
// $GITHUB_STEP_SUMMARY. Each is a view of the finished results document.
#pragma once

#include "model/results_model.hpp"
#include "plan/options.hpp"

namespace perfgate::cli {

void write_ci_outputs(const model::ResultsDoc& results, const plan::RunOptions& options);

}  // namespace perfgate::cli
