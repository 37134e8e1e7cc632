#include "suite/paired_rounds.hpp"

#include <map>
#include <optional>

namespace perfgate::suite {

PairedRounds paired_rounds(const model::ScenarioResult& s, const std::string& metric) {
  PairedRounds out;
  std::map<int, std::pair<std::optional<double>, std::optional<double>>> rounds;
  for (const auto& sample : s.samples) {
    if (sample.warmup) continue;
    auto m = sample.metrics.find(metric);
    if (m == sample.metrics.end()) continue;
    out.better = m->second.better;
    out.unit = m->second.unit;
    auto& slot = rounds[sample.round];
    (sample.variant == "after" ? slot.second : slot.first) = m->second.value;
  }
  for (const auto& [round, pair] : rounds)
    if (pair.first && pair.second) {
      out.before.push_back(*pair.first);
      out.after.push_back(*pair.second);
    }
  return out;
}

std::string gated_metric(const model::ScenarioResult& s) {
  for (const auto& c : s.comparisons)
    if (c.gated) return c.metric;
  return s.primary_metric;
}

}  // namespace perfgate::suite
