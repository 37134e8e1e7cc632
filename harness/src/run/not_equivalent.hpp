// "Not the same work": the failure that makes perfgate exit 3, and how a program reports it
// itself (docs/scenario-contract.md, "Reporting a divergent answer"): its last stdout JSON line
// carries "equivalent": false and "equivalence_reason": "<what differed, first occurrence>".
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "common/errors.hpp"

namespace perfgate::run {

struct EquivalenceFailure : Error {
  explicit EquivalenceFailure(const std::string& m) : Error(kExitEquivalence, m) {}
};

// The reason a program gave for "not equivalent", or nullopt when its line says nothing of the
// kind (no field, or "equivalent": true). A non-boolean "equivalent" is the program's bug: it
// is reported as a divergence too, quoting the field, so it can never pass silently.
inline std::optional<std::string> reported_divergence(const nlohmann::json& line) {
  if (!line.is_object() || !line.contains("equivalent")) return std::nullopt;
  const auto& e = line["equivalent"];
  if (e.is_boolean() && e.get<bool>()) return std::nullopt;
  std::string reason = "no reason given";
  if (line.contains("equivalence_reason") && line["equivalence_reason"].is_string())
    reason = line["equivalence_reason"].get<std::string>();
  if (!e.is_boolean()) reason = "\"equivalent\" must be true or false, got " + e.dump() + " (" + reason + ")";
  return reason;
}

}  // namespace perfgate::run
