// This run's figures shaped as baseline entries: what `perfgate baseline update` accepts and
// what the baseline gate checks against the accepted ones.
#pragma once

#include <string>
#include <vector>

#include "model/results_model.hpp"

namespace perfgate::gate {

// One entry per gated comparison (after vs before) of `scenario` with a finite ratio and
// interval, its medians' intervals bootstrapped from the raw samples. `skipped` gets
// "KEY: why" for gated comparisons that cannot be used.
std::vector<model::BaselineEntry> entries_from_scenario(const model::ResultsDoc& results,
                                                        const model::ScenarioResult& scenario,
                                                        std::vector<std::string>* skipped = nullptr);

}  // namespace perfgate::gate
