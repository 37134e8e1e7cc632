// Counts that are part of the work — what the caller receives or causes: rows returned, pages,
// messages fetched, files written — must be equal, AFTER against BEFORE, in every round (a
// manifest's `work_counts`). An upper bound alone would reward an AFTER that does less; the
// digest covers what is answered, this covers what is counted beside it. And a count that is the
// cost being improved (statements, syscalls, allocations) and is claimed: when it falls far
// beyond the claimed factor, that is said, since a skipped piece of work looks the same.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "catalog/manifest.hpp"
#include "model/results_model.hpp"
#include "run/sample.hpp"

namespace perfgate::gate {

// Failed (exit 3, naming the count, both values and the round) at the first round whose AFTER
// count differs from BEFORE's; not judged when no round measured the count on both sides.
model::GateResult work_count_gate(const std::vector<run::Sample>& samples, const std::string& metric);

// A claim whose metric is an exact count, met by more than `kBeyondClaim` times its factor:
// "syscw fell 41x where the claim explains 5x: ...". Nothing otherwise.
inline constexpr double kBeyondClaim = 2.0;
std::optional<std::string> beyond_claim_note(const model::Comparison* c, const catalog::Claim& claim);

}  // namespace perfgate::gate
