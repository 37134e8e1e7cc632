// `perfgate compare --markdown FILE`: the regression gate's verdict as a heading, both runs
// (file, commit, outcome, host), one row per compared scenario, variant and metric with the gate's
// drift-corrected figure beside it, and how the gate decides: a pull-request comment.
#pragma once

#include <string>

#include "gate/run_diff.hpp"

namespace perfgate::exports {

std::string compare_markdown(const gate::RunDiff& diff, const std::string& old_file, const std::string& new_file,
                             const gate::DiffOptions& options, const gate::GateDecision& decision);

}  // namespace perfgate::exports
