#include "suite/baseline_apply.hpp"

#include "catalog/catalog.hpp"
#include "gate/baseline_entries.hpp"
#include "gate/baseline_gate.hpp"
#include "store/results_codec.hpp"

namespace perfgate::suite {

std::filesystem::path default_baseline_path() { return catalog::share_dir() / "baseline.json"; }

std::optional<store::Baseline> load_run_baseline(const plan::RunPlan& rp, const plan::RunOptions& o) {
  if (o.baseline_path == "none" || !o.against_dir.empty()) return std::nullopt;
  const bool ab = !rp.scenarios.empty() && rp.scenarios.front().ab;
  if (ab && !o.baseline_given) return std::nullopt;
  return store::load_baseline(o.baseline_path.empty() ? default_baseline_path()
                                                      : std::filesystem::path(o.baseline_path));
}

nlohmann::json baseline_header(const std::optional<store::Baseline>& baseline, const plan::RunOptions& o) {
  if (baseline)
    return {{"file", baseline->file.string()}, {"exists", baseline->exists}, {"tolerance", o.baseline_tolerance}};
  return {{"file", nullptr},
          {"why", o.baseline_path == "none" ? "--baseline none"
                  : !o.against_dir.empty()  ? "--against compares builds, not a change"
                                            : "ab: no --baseline given"}};
}

BaselineCounts apply_baseline(std::vector<std::unique_ptr<ScenarioRun>>& runs, const store::Baseline& baseline,
                              const nlohmann::json& results, double alpha, double tolerance) {
  std::vector<model::BaselineEntry> now;
  std::vector<std::size_t> owner;
  const model::ResultsDoc header = store::results_from_json(results);
  for (std::size_t i = 0; i < runs.size(); ++i) {
    auto& r = *runs[i];
    // Equivalence failed or the run broke: its figures say nothing about speed.
    if (r.exit_code == kExitEquivalence || r.exit_code == kExitRun || !r.error_message.empty()) continue;
    for (auto& e : gate::entries_from_scenario(header, store::scenario_from_json(r.doc))) {
      now.push_back(std::move(e));
      owner.push_back(i);
    }
  }
  auto checks = gate::check_against_baseline(now, baseline, {alpha, tolerance});
  BaselineCounts counts;
  for (std::size_t k = 0; k < checks.size(); ++k) {
    auto& r = *runs[owner[k]];
    const model::GateResult g = gate::baseline_gate(checks[k]);
    r.doc["gates"].push_back(store::to_json(g));
    if (!r.doc.contains("baseline")) r.doc["baseline"] = json::array();
    r.doc["baseline"].push_back(store::to_json(checks[k]));
    ++(checks[k].comparable ? counts.compared : counts.missing);
    if (g.failed() && r.exit_code == kExitOk) r.exit_code = kExitPerformance;
  }
  return counts;
}

}  // namespace perfgate::suite
