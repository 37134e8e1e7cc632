// Outside over self-report: a figure the program computes about itself (its own stopwatch around
// a query, its own count of requests) can be wrong in AFTER's favour, and the equivalence gate
// cannot see it, since the answers are the same. Each `self_reported` entry of a manifest holds
// that figure to one perfgate measures from outside the program (wall or cgroup CPU time, the
// kernel's syscall counts): AFTER may not say it saved more than perfgate saw it save.
#pragma once

#include <nlohmann/json.hpp>
#include <vector>

#include "catalog/manifest.hpp"
#include "model/results_model.hpp"
#include "run/sample.hpp"

namespace perfgate::gate {

// Per measured round, what the program says AFTER saved (BEFORE's `metrics` summed, times
// `scale`, less AFTER's) beyond what the outside metric shows it saved. Failed — a lie, exit 3,
// naming both figures — when the median of that excess is above `slack` × BEFORE's median
// figure with 99.9% confidence (the median's order-statistic interval lies wholly above it: at 12 rounds, every round),
// so a noisy outside figure does not call an honest AFTER a liar. Not judged (passed empty) when fewer than two
// rounds measured both figures on both sides.
model::GateResult self_report_gate(const std::vector<run::Sample>& samples, const catalog::SelfReport& check);

// Every check of a manifest, each `scale_param` read from the run's `params` (UsageError when it
// is not a number there).
std::vector<model::GateResult> self_report_gates(const std::vector<run::Sample>& samples,
                                                 const std::vector<catalog::SelfReport>& checks,
                                                 const nlohmann::json& params);

}  // namespace perfgate::gate
