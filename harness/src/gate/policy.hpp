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

// "0.43x [0.41, 0.45]": how a ratio and its interval are printed everywhere. A comparison's
// 95% interval says its level when too few rounds reached 95% ("... at 93.8%").
std::string format_ratio(const model::Comparison& c);
std::string format_ratio(double ratio, const std::array<double, 2>& ci);

// A gated comparison as its verdict was decided: the ratio with the interval the band was held
// against, and its level unless 95% ("1.15x [1.08, 1.25] at 99.96%"). An ungated one: format_ratio.
std::string format_decided(const model::Comparison& c);

// "95%", "99.3%", "99.964%": a confidence level with the digits that tell it from 100%.
std::string format_level(double confidence);

}  // namespace perfgate::gate
