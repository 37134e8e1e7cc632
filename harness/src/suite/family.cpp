#include "suite/family.hpp"

#include <algorithm>

#include "common/errors.hpp"
#include "gate/scenario_stats.hpp"

namespace perfgate::suite {

void decide_family(std::vector<model::Comparison*> gated, int family_total, double alpha_per_look, double noise) {
  std::vector<model::Comparison> others(
      static_cast<std::size_t>(std::max(0, family_total - static_cast<int>(gated.size()))));
  for (auto& c : others) {
    c.r.p_wilcoxon = 1;
    c.r.ci = {1, 1};
    c.better = Better::Lower;
    gated.push_back(&c);
  }
  gate::decide_family(gated, alpha_per_look, noise);
}

}  // namespace perfgate::suite
