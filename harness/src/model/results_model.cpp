#include "model/results_model.hpp"

#include <algorithm>

namespace perfgate::model {

std::vector<double> ScenarioResult::measured_values(const std::string& variant, const std::string& metric) const {
  std::vector<std::pair<int, double>> rows;
  for (const auto& s : samples) {
    if (s.warmup || s.variant != variant) continue;
    auto m = s.metrics.find(metric);
    if (m != s.metrics.end()) rows.emplace_back(s.round, m->second.value);
  }
  std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<double> out;
  for (const auto& r : rows) out.push_back(r.second);
  return out;
}

}  // namespace perfgate::model
