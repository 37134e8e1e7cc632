#include "suite/family.hpp"

#include <algorithm>

#include "common/errors.hpp"
#include "gate/scenario_stats.hpp"

namespace perfgate::suite {

void decide_family(std::vector<model::Comparison*> gated, int family_total, double alpha_per_look, double noise) {
  gate::decide_family(gated, alpha_per_look, noise, std::max(0, family_total - static_cast<int>(gated.size())));
}

}  // namespace perfgate::suite
