// Performance gates: AFTER against BEFORE under the scenario's policy, and the manifest's
// claims ("after at least 5x faster on M at profile P"), both judged on the statistics of the
// gated comparison.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "catalog/manifest.hpp"
#include "stats/scenario_stats.hpp"

namespace perfgate::gate {

// `primary` is null when the metric was never measured (a crash before two rounds).
nlohmann::json policy_gate(const stats::Comparison* primary, const std::string& metric, const std::string& policy);

nlohmann::json claim_gate(const stats::Comparison* c, const catalog::Claim& claim);

// "0.43x [0.41, 0.45]": how a ratio and its interval are printed everywhere.
std::string format_ratio(const stats::Comparison& c);

}  // namespace perfgate::gate
