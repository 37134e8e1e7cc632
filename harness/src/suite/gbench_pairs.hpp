// Before the rounds of a Google Benchmark pair (`perfgate gbench`, a gbench scenario under
// `run --against`): each binary lists its benchmarks, in the folder it will run in, and the plan
// gates one comparison per benchmark both have (plan/gbench_plan.hpp).
#pragma once

#include <string>
#include <vector>

#include "plan/plan.hpp"

namespace perfgate::suite {

// Lists both binaries of every gbench pair of `plan` and sets its benchmarks. Returns, for
// people, one line per benchmark only one binary has. Throws UsageError (exit 2) when a binary
// cannot list its benchmarks or the two share none.
std::vector<std::string> list_gbench_pairs(plan::RunPlan& plan, const plan::RunOptions& options);

// Those lines for one scenario ("warning: NAME is only in after (BIN): not compared"), also its
// notes in the results, which the verdict table prints.
std::vector<std::string> gbench_only_lines(const plan::ScenarioPlan& s);

}  // namespace perfgate::suite
