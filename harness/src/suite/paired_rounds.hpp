// One metric's values of a finished two-variant run, paired by round (warm-ups left out, a round
// kept only when both variants measured it): what a command that runs several plans and decides
// over them itself (a bisect step, a comparison over layouts) takes from each plan's result.
#pragma once

#include <string>
#include <vector>

#include "model/results_model.hpp"

namespace perfgate::suite {

struct PairedRounds {
  std::vector<double> before, after;
  Better better = Better::Lower;
  std::string unit;
};

PairedRounds paired_rounds(const model::ScenarioResult& s, const std::string& metric);

// The metric the run gated (an `ab --metric auto` run chooses it after its rounds), else its primary.
std::string gated_metric(const model::ScenarioResult& s);

}  // namespace perfgate::suite
