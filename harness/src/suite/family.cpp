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

RunEnding run_ending(int exit_code, bool interrupted) {
  RunEnding e;
  e.status = interrupted ? "interrupted" : exit_code == kExitOk ? "passed" : exit_code == kExitRun ? "error" : "failed";
  e.exit_code = interrupted ? static_cast<int>(kExitInterrupted) : exit_code;
  e.stop_reason = interrupted               ? "interrupted"
                  : e.exit_code == kExitOk  ? "completed"
                  : e.exit_code == kExitRun ? "error"
                                            : "gate failed";
  return e;
}

}  // namespace perfgate::suite
