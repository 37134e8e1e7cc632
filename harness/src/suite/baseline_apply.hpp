// The run against the committed baseline.json: which baseline a run compares with (read
// before anything runs, so a malformed one is exit 2 with nothing written), and the baseline
// gate of every scenario that ran to a verdict — Holm across the run's baseline comparisons;
// a significant regression beyond the tolerance fails the scenario (exit 1).
#pragma once

#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "gate/baseline_gate.hpp"
#include "history/history_db.hpp"
#include "plan/plan.hpp"
#include "store/baseline_file.hpp"
#include "suite/scenario_run.hpp"

namespace perfgate::suite {

// baseline.json in a --catalog run's catalog folder: a user's project keeps its accepted figures
// in its own tree, never in perfgate's bundled file.
std::filesystem::path catalog_baseline_path(const std::filesystem::path& catalog_dir);

// The baseline a results file is checked against or recorded into without --baseline: its
// catalog's (run.catalog), the one an ab run was given, else the bundled one. Throws UsageError
// when the catalog is not on this machine or an ab run compared with none.
std::filesystem::path results_baseline_path(const model::ResultsDoc& doc, const std::string& results_file);

// The plan's baseline, read; null when there is none to compare with (--baseline none, `ab`
// without --baseline, --against). A named one that is missing or malformed is exit 2.
std::optional<store::Baseline> load_run_baseline(const plan::BaselinePlan& plan);

// The results' run.baseline: the file compared with, or why none was.
model::BaselineRef baseline_header(const std::optional<store::Baseline>& baseline, const plan::BaselinePlan& plan);

struct BaselineCounts {
  int compared = 0;  // entries with a comparable baseline entry
  int missing = 0;   // entries with none (new scenario, other host, other profile)
};

// Adds a baseline gate and a `baseline` entry to every scenario that reached a verdict;
// a failed baseline gate turns a passing scenario's exit code into 1.
BaselineCounts apply_baseline(std::vector<std::unique_ptr<ScenarioRun>>& runs, const store::Baseline& baseline,
                              const model::ResultsDoc& results, double alpha, double tolerance);

// `perfgate baseline update`: every results file read and checked first (an --against run is
// refused), then the entries of each gated metric (of `only` scenarios, when named) put into
// the baseline at `file`. Nothing is written here: the caller saves unless it is a dry run.
// No changes: nothing could be recorded (`skipped` says why).
struct BaselineUpdate {
  store::Baseline baseline;
  std::vector<store::BaselineChange> changes;
  std::vector<std::string> skipped;  // "KEY: why"
  std::vector<std::string> dirty;    // results files made from a dirty work tree
  std::string from;                  // where the runs came from, for messages (a DSN without its password)
};
// An empty `file`: the results files' own (results_baseline_path), which must agree.
BaselineUpdate update_baseline(const std::vector<std::string>& results_files, const std::filesystem::path& file,
                               const std::vector<std::string>& only, bool append);

// `perfgate baseline update --from-history DB`: the accepted runs of `query` (clean, every gate
// passed, of a branch, since a time, the newest N per host class) put into the baseline as results
// files would be. Throws UsageError when DB is a SQLite file that does not exist.
BaselineUpdate update_baseline_from_history(const std::string& db, const history::AcceptedQuery& query,
                                            const std::filesystem::path& file, bool append);

// `perfgate baseline check`: a results file's gated figures against the baseline at `file`
// (empty: the results' own, results_baseline_path).
struct ResultsCheck {
  std::filesystem::path baseline;  // the file compared with
  std::vector<gate::BaselineCheck> checks;
  std::vector<std::string> not_compared;  // "KEY: why" of each gated figure that could not be compared
};
ResultsCheck check_results_against(const std::string& results_file, const std::filesystem::path& file, double alpha,
                                   double tolerance);

}  // namespace perfgate::suite
