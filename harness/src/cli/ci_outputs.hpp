// What a run writes for CI besides the results file: --junit FILE, --export-gbench FILE, and,
// when GITHUB_ACTIONS=true, workflow annotations on stdout and the markdown summary appended to
// $GITHUB_STEP_SUMMARY. Each is a view of the finished results document; one that cannot be
// written is returned as a message, so it never replaces the gates' exit code (README's order).
#pragma once

#include <string>
#include <vector>

#include "model/results_model.hpp"
#include "plan/options.hpp"

namespace perfgate::cli {

std::vector<std::string> write_ci_outputs(const model::ResultsDoc& results, const plan::RunOptions& options);

}  // namespace perfgate::cli
