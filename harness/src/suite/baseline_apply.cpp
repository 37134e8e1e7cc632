#include "suite/baseline_apply.hpp"

#include <algorithm>

#include "catalog/catalog.hpp"
#include "common/errors.hpp"
#include "gate/baseline_entries.hpp"
#include "gate/baseline_gate.hpp"
#include "store/results_codec.hpp"
#include "store/results_complete.hpp"
#include "suite/run_document.hpp"

namespace perfgate::suite {

std::filesystem::path catalog_baseline_path(const std::filesystem::path& catalog_dir) {
  return plan::catalog_folder(catalog_dir.string()) / "baseline.json";
}

namespace {

bool is_ab_run(const model::ResultsDoc& doc) {
  return !doc.scenarios.empty() && std::all_of(doc.scenarios.begin(), doc.scenarios.end(),
                                               [](const auto& s) { return s.kind == catalog::ScenarioKind::Ab; });
}

// A baseline the user named must be there: a typo would otherwise compare with nothing and
// pass with a warning. (The default one may be absent: no runs accepted yet.)
store::Baseline load_named_baseline(const std::filesystem::path& file, const std::string& flag) {
  store::Baseline b = store::load_baseline(file);
  if (!b.exists)
    throw UsageError(flag + " " + file.string() +
                     ": no such file (perfgate baseline update RESULTS.json --baseline FILE starts one; "
                     "--baseline none compares with nothing)");
  return b;
}

}  // namespace

std::filesystem::path results_baseline_path(const model::ResultsDoc& doc, const std::string& results_file) {
  if (doc.run.catalog) {
    if (!std::filesystem::is_directory(*doc.run.catalog))
      throw UsageError(results_file + ": its catalog " + *doc.run.catalog +
                       " is not here, nor its baseline.json: name the baseline with --baseline FILE");
    return catalog_baseline_path(*doc.run.catalog);
  }
  if (!is_ab_run(doc)) return catalog::bundled_baseline();
  // A command pair has no home of its own: only the baseline the run was given is its.
  if (doc.run.baseline && doc.run.baseline->file) return *doc.run.baseline->file;
  throw UsageError(results_file +
                   ": an ab run has no default baseline (it compared with none): name one with "
                   "--baseline FILE");
}

namespace {

// Every results file of one `baseline update` must default to the same baseline: entries of two
// projects never share a file unless --baseline says so.
std::filesystem::path common_baseline_path(const std::vector<model::ResultsDoc>& docs,
                                           const std::vector<std::string>& files) {
  const std::filesystem::path first = results_baseline_path(docs.at(0), files.at(0));
  for (std::size_t k = 1; k < docs.size(); ++k)
    if (const auto other = results_baseline_path(docs[k], files[k]); other != first)
      throw UsageError(files[k] + ": defaults to baseline " + other.string() + ", " + files[0] + " to " +
                       first.string() + ": name one with --baseline FILE");
  return first;
}

}  // namespace

std::optional<store::Baseline> load_run_baseline(const plan::BaselinePlan& b) {
  if (!b.file) return std::nullopt;
  if (b.named) return load_named_baseline(*b.file, "--baseline");
  return store::load_baseline(*b.file);
}

model::BaselineRef baseline_header(const std::optional<store::Baseline>& baseline, const plan::BaselinePlan& b) {
  if (baseline) return {baseline->file.string(), baseline->exists, b.tolerance, ""};
  return {std::nullopt, false, 0, b.why_none};
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
    // A failed baseline gate outranks a policy gate that could not tell (exit 5 would pass under
    // --cannot-tell pass); it never hides an equivalence or run failure.
    if (g.failed()) r.exit_code = worse_exit_code(r.exit_code, kExitPerformance);
  }
  return counts;
}

BaselineUpdate update_baseline(const std::vector<std::string>& results_files, const std::filesystem::path& file,
                               const std::vector<std::string>& only, bool append) {
  std::vector<model::ResultsDoc> docs;
  for (const auto& path : results_files) {
    docs.push_back(store::read_results(path));
    store::require_complete(docs.back(), path);
    store::require_measured(docs.back(), path);
    if (docs.back().run.against)
      throw UsageError(path + ": an --against run compares two builds; its ratios are not a baseline");
  }
  BaselineUpdate u;
  u.from = results_files.empty() ? "" : results_files[0];
  u.baseline = store::load_baseline(file.empty() ? common_baseline_path(docs, results_files) : file);
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

BaselineUpdate update_baseline_from_history(const std::string& db, const history::AcceptedQuery& query,
                                            const std::filesystem::path& file, bool append) {
  BaselineUpdate u;
  u.baseline = store::load_baseline(file);  // a malformed baseline is refused before the database is opened
  if (!history::is_postgres_dsn(db) && !std::filesystem::exists(db))
    throw UsageError("no history at " + db + " (perfgate history add RESULTS.json records runs)");
  auto history = history::open_history(db);
  u.from = history->describe();
  history::AcceptedRuns accepted = history->accepted_runs(query);
  for (const auto& n : query.scenarios) {
    auto named = [&](const std::string& line) { return line.rfind(n + "/", 0) == 0; };
    if (std::none_of(accepted.entries.begin(), accepted.entries.end(),
                     [&](const auto& e) { return e.scenario == n; }) &&
        std::none_of(accepted.skipped.begin(), accepted.skipped.end(), named))
      throw UsageError(history->describe() + ": no accepted run of scenario '" + n + "'");
  }
  u.skipped = std::move(accepted.skipped);
  if (!accepted.entries.empty()) u.changes = store::refresh_entries(u.baseline, accepted.entries, append);
  return u;
}

ResultsCheck check_results_against(const std::string& results_file, const std::filesystem::path& file, double alpha,
                                   double tolerance) {
  const model::ResultsDoc doc = store::read_results(results_file);
  ResultsCheck out;
  const store::Baseline b = file.empty() ? store::load_baseline(results_baseline_path(doc, results_file))
                                         : load_named_baseline(file, "--baseline");
  out.baseline = b.file;
  std::vector<store::BaselineEntry> now;
  for (const auto& s : doc.scenarios) {
    auto e = gate::entries_from_scenario(doc, s, &out.not_compared);
    now.insert(now.end(), e.begin(), e.end());
  }
  out.checks = gate::check_against_baseline(now, b, {alpha, tolerance});
  return out;
}

}  // namespace perfgate::suite
