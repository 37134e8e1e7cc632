#include "suite/family.hpp"

#include <algorithm>
#include <set>
#include <stdexcept>

#include "common/errors.hpp"
#include "gate/scenario_stats.hpp"

namespace perfgate::suite {

void decide_family(std::vector<model::Comparison*> gated, int family_total, double alpha_per_look, double noise) {
  gate::decide_family(gated, alpha_per_look, noise, std::max(0, family_total - static_cast<int>(gated.size())));
}

void decide_family(const std::vector<model::Comparison*>& gated, const std::vector<double>& level, int family_total,
                   double noise) {
  if (level.size() != gated.size()) throw std::logic_error("decide_family: one level per member");
  std::vector<model::Comparison> decided(gated.size());
  for (double alpha : std::set<double>(level.begin(), level.end())) {
    decide_family(gated, family_total, alpha, noise);
    for (std::size_t i = 0; i < gated.size(); ++i)
      if (level[i] == alpha) decided[i] = *gated[i];
  }
  for (std::size_t i = 0; i < gated.size(); ++i) *gated[i] = decided[i];
}

}  // namespace perfgate::suite
