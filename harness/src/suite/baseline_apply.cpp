#include "suite/baseline_apply.hpp"

#include <algorithm>

#include "catalog/catalog.hpp"
#include "common/errors.hpp"
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

model::BaselineRef baseline_header(const std::optional<store::Baseline>& baseline, const plan::RunOptions& o) {
  if (baseline) return {baseline->file.string(), baseline->exists, o.baseline_tolerance, ""};
  return {std::nullopt, false, 0,
          o.baseline_path == "none" ? "--baseline none"
          : !o.against_dir.empty()  ? "--against compares builds, not a change"
                                    : "ab: no --baseline given"};
}

BaselineCounts apply_baseline(std::vector<std::unique_ptr<ScenarioRun>>& runs, const store::Baseline& baseline,
                              const model::ResultsDoc& results, double alpha, double tolerance) {
  std::vector<model::BaselineEntry> now;
  std::vector<std::size_t> owner;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    auto& r = *runs[i];
    // Equivalence failed or the run broke: its figures say nothing about speed.
    if (r.exit_code == kExitEquivalence || r.exit_code == kExitRun || !r.error_message.empty()) continue;
    for (auto& e : gate::entries_from_scenario(results, r.result)) {
      now.push_back(std::move(e));
      owner.push_back(i);
    }
  }
  auto checks = gate::check_against_baseline(now, baseline, {alpha, tolerance});
  BaselineCounts counts;
  for (std::size_t k = 0; k < checks.size(); ++k) {
    auto& r = *runs[owner[k]];
    const model::GateResult g = gate::baseline_gate(checks[k]);
    r.result.gates.push_back(g);
    r.result.baseline.push_back(store::baseline_view(checks[k]));
    ++(checks[k].comparable ? counts.compared : counts.missing);
    if (g.failed() && r.exit_code == kExitOk) r.exit_code = kExitPerformance;
  }
  return counts;
}

BaselineUpdate update_baseline(const std::vector<std::string>& results_files, const std::filesystem::path& file,
                               const std::vector<std::string>& only, bool append) {
  std::vector<model::ResultsDoc> docs;
  for (const auto& path : results_files) {
    docs.push_back(store::read_results(path));
    if (docs.back().run.other.contains("against"))
      throw UsageError(path + ": an --against run compares two builds; its ratios are not a baseline");
  }
  BaselineUpdate u;
  u.baseline = store::load_baseline(file);
  std::vector<store::BaselineEntry> fresh;
  for (std::size_t k = 0; k < docs.size(); ++k) {
    for (const auto& s : docs[k].scenarios)
      if (only.empty() || std::find(only.begin(), only.end(), s.name) != only.end()) {
        auto e = gate::entries_from_scenario(docs[k], s, &u.skipped);
        fresh.insert(fresh.end(), e.begin(), e.end());
      }
    for (const auto& n : only)
      if (std::none_of(docs[k].scenarios.begin(), docs[k].scenarios.end(), [&](const auto& s) { return s.name == n; }))
        throw UsageError(results_files[k] + ": no scenario '" + n + "' in these results");
    if (docs[k].run.dirty) u.dirty.push_back(results_files[k]);
  }
  if (fresh.empty()) return u;  // no change: the caller says why (the skipped lines)
  u.changes = store::refresh_entries(u.baseline, fresh, append);
  return u;
}

std::vector<gate::BaselineCheck> check_results_against(const std::string& results_file,
                                                       const std::filesystem::path& file, double alpha,
                                                       double tolerance) {
  const model::ResultsDoc doc = store::read_results(results_file);
  const store::Baseline b = store::load_baseline(file);
  std::vector<store::BaselineEntry> now;
  for (const auto& s : doc.scenarios) {
    auto e = gate::entries_from_scenario(doc, s);
    now.insert(now.end(), e.begin(), e.end());
  }
  return gate::check_against_baseline(now, b, {alpha, tolerance});
}

}  // namespace perfgate::suite
