#include "gate/work_counts.hpp"

#include <map>

#include "common/number_format.hpp"

namespace perfgate::gate {

model::GateResult work_count_gate(const std::vector<run::Sample>& samples, const std::string& metric) {
  model::GateResult g{model::GateKind::Equivalence, "work count: " + metric};
  std::map<int, std::map<std::string, double>> rounds;  // round → variant → count
  for (const auto& s : samples) {
    if (s.warmup || (s.variant != "before" && s.variant != "after")) continue;
    if (const auto it = s.metrics.find(metric); it != s.metrics.end()) rounds[s.round][s.variant] = it->second.value;
  }
  int compared = 0;
  for (const auto& [round, by_variant] : rounds) {
    if (by_variant.size() < 2) continue;
    const double before = by_variant.at("before"), after = by_variant.at("after");
    ++compared;
    if (after != before) {
      g.outcome = model::GateOutcome::Failed;
      g.detail = "AFTER's " + metric + " was " + format_quantity(after, "count") + " where BEFORE's was " +
                 format_quantity(before, "count") + " (round " + std::to_string(round) +
                 "): a count of the work done must be equal";
      return g;
    }
  }
  if (compared == 0) {
    g.detail = "not judged: no round measured " + metric + " on both sides";
    return g;
  }
  g.outcome = model::GateOutcome::Passed;
  g.detail = "equal in " + std::to_string(compared) + " rounds (" +
             format_quantity(rounds.rbegin()->second.begin()->second, "count") + ")";
  return g;
}

std::optional<std::string> beyond_claim_note(const model::Comparison* c, const catalog::Claim& claim) {
  if (!c || !c->exact.value_or(false) || !(c->r.ratio > 0)) return std::nullopt;
  const double improvement = c->better == Better::Lower ? 1 / c->r.ratio : c->r.ratio;
  if (improvement <= kBeyondClaim * claim.factor) return std::nullopt;
  return claim.metric + " improved " + format_number(improvement) + "x where the claim explains " +
         format_number(claim.factor) + "x: a count of the cost falling far beyond what the change is said to save " +
         "is what a skipped piece of work looks like too; check AFTER does the same work";
}

}  // namespace perfgate::gate
