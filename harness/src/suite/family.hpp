// The run's verdict family and its exit code. Every gated comparison of the run is one Holm
// family at the per-look level; a shard pads its family with the other shards' comparisons
// (as p = 1) so verdicts stay valid when shards are merged. Scenario exit codes combine by
// severity, not by number: equivalence (3) > could not run (4) > performance (1) > usage (2).
#pragma once

#include <string>
#include <vector>

#include "model/results_model.hpp"

namespace perfgate::suite {

// Holm across `gated` plus (family_total − gated.size()) absent comparisons at p = 1, each
// decided at alpha_per_look against the noise band. family_total ≤ gated.size(): no padding.
void decide_family(std::vector<model::Comparison*> gated, int family_total, double alpha_per_look, double noise);
// The same family with gated[i] decided at level[i], the level its own last look ran at (a
// scenario that stopped early, a benchmark settled at an earlier look): Holm stays over the whole
// family, run once per distinct level, and each member keeps what its own level gave it.
void decide_family(const std::vector<model::Comparison*>& gated, const std::vector<double>& level, int family_total,
                   double noise);

}  // namespace perfgate::suite
