// One step's question: is this commit slower than good by more than the band? From paired
// rounds of the gated metric, at the step's level: slower when the interval's lower end lies
// above 1 + band, not slower when its upper end lies below 1 + band, else cannot tell (more
// rounds, or a skip). The interval is the exact Walsh interval of the per-round log ratios at
// confidence 1 - 2·alpha, so each side is a one-sided test at alpha.
#pragma once

#include <cstdint>
#include <vector>

#include "bisect/search.hpp"
#include "stats/layouts.hpp"

namespace perfgate::bisect {

// `higher_is_better`: a rate (a slowdown is a lower ratio; the band is below 1 then).
StepResult decide_step(const std::vector<double>& good, const std::vector<double>& tested, double alpha, double band,
                       bool higher_is_better, std::uint64_t seed);

// The same question over layouts (--layouts): slower when the effect's one-sided t test against
// +band rejects at alpha, not slower when the one against being slower does; the interval shown
// is the t interval at 1 - 2·alpha. Undecided with the layouts dominating: more layouts would do.
StepResult decide_step_over_layouts(const stats::LayoutEffect& e, double alpha);

}  // namespace perfgate::bisect
