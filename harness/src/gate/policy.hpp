// Performance gates: AFTER against BEFORE under the scenario's policy, and the manifest's
// claims ("after at least 5x faster on M at profile P"), both judged on the statistics of the
// gated comparison.
#pragma once

#include <array>
#include <optional>
#include <string>

#include "catalog/manifest.hpp"
#include "model/results_model.hpp"

namespace perfgate::gate {

// `primary` is null when the metric was never measured (a crash before two rounds).
model::GateResult policy_gate(const model::Comparison* primary, const std::string& metric, catalog::Policy policy);

// For a comparison that cannot tell: what would decide it, in a phrase.
std::string what_would_decide(const model::Comparison& c);

// Met when the whole interval clears the factor, missed when none of it reaches it, else
// cannot tell.
model::GateResult claim_gate(const model::Comparison* c, const catalog::Claim& claim);

// "0.43x [0.41, 0.45]": how a ratio and its interval are printed everywhere.
std::string format_ratio(const model::Comparison& c);
std::string format_ratio(double ratio, const std::array<double, 2>& ci);

}  // namespace perfgate::gate
