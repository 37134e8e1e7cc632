// GitHub Actions outputs of a run: workflow-command annotations (::error:: for a failed gate or
// a scenario that could not run, ::warning:: for "no comparable baseline" and for absolute
// figures that moved on the baseline's host) and the markdown summary that is appended to
// $GITHUB_STEP_SUMMARY. Used when GITHUB_ACTIONS=true.
#pragma once

#include <filesystem>
#include <ostream>
#include <string>

#include "model/results_model.hpp"

namespace perfgate::exports {

// GitHub's runner sets GITHUB_ACTIONS=true in every step: annotations and a job summary there.
bool on_github_actions();

// The markdown summary: outcome, one row per gated metric, the baseline comparison, failures.
std::string markdown_summary(const model::ResultsDoc& results);

// One workflow command per line (GitHub reads them from stdout; export/exports.hpp prints them).
std::string annotations(const model::ResultsDoc& results);

// Escapes a workflow command's message (%, CR, LF) or property value (also : and ,).
std::string github_escape(const std::string& text, bool property = false);

}  // namespace perfgate::exports
