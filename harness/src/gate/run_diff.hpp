// Two runs compared, benchstat-style (`perfgate compare OLD.json NEW.json`): for each scenario,
// variant and metric both runs measured, the medians, the change NEW/OLD with a percentile
// bootstrap interval (each run's samples resampled on their own: the runs are not paired), the
// unpaired Mann-Whitney U p-value, Holm-corrected across every row shown; a row is a change only
// when the corrected p is below alpha and the interval lies wholly outside the noise band,
// otherwise "~". The geometric mean of the changes over scenarios closes each metric's table.
//
// The regression gate (`--fail-on-regression`) judges only the gated variants' rows (AFTER by
// default), and each against its scenario's BEFORE: a machine that drifted between the runs
// moves BEFORE and AFTER alike, so the figure gated is the drift-corrected change
// (new AFTER / old AFTER) / (new BEFORE / old BEFORE). Its test compares the per-round
// AFTER/BEFORE ratios of the two runs (Mann-Whitney), its interval bootstraps each run's rounds
// (BEFORE and AFTER of a round kept together), Holm-corrected over the gate's rows alone: they
// are the family the exit code answers for.
#pragma once

#include <array>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "common/defaults.hpp"
#include "model/results_model.hpp"

namespace perfgate::gate {

struct DiffOptions {
  double alpha = defaults::kAlpha, noise = defaults::kNoise;
  std::set<std::string> metrics;  // empty: each scenario's gated metric, wall_ms and cpu_ms
  bool all_metrics = false;
  std::set<std::string> gate_variants;  // empty: each scenario's "after", or its only variant
  std::uint64_t seed = 1;
  int resamples = 2000;
};

// A change between the two runs, as a row shows it and the gate judges it: a gate row judged
// raw is its row's change.
struct TwoRunChange {
  std::size_t n_old = 0, n_new = 0;  // a drift-corrected gate row's: rounds that measured both variants
  double change = 1;                 // a row's: new / old median
  std::array<double, 2> ci{1, 1};
  double p = 1, p_adjusted = 1;  // Holm over the rows shown, or over the gate's rows
  stats::Verdict verdict = stats::Verdict::CannotTell;
};

struct DiffRow : TwoRunChange {
  std::string scenario, profile, variant, metric, unit;
  Better better = Better::Lower;
  bool gated = false;                                                     // the scenario's primary metric
  double old_median = 0, new_median = 0, old_spread = 0, new_spread = 0;  // spread: MAD / median
};

// One row the regression gate judges: a gated variant's row, corrected by its reference's.
struct GateRow : TwoRunChange {
  std::size_t row = 0;                   // the gated variant's row in RunDiff::rows
  std::optional<std::size_t> reference;  // its scenario's BEFORE row (same metric); none: judged raw
  bool drift_corrected = false;          // false: the row's own change, p and interval are judged
  std::string basis;                     // "corrected by before", or why the row is judged raw
};

// A verdict in compare's words (its JSON and tables): benchstat's "~" for cannot tell, "same".
std::string compare_word(stats::Verdict v);

struct RunOutcome {
  std::string status, message;
  int exit_code = 0;
};

struct GeoMean {
  std::string metric, variant;
  std::size_t count = 0;
  double old_value = 0, new_value = 0, change = 1;
};

struct RunDiff {
  std::vector<DiffRow> rows;
  std::vector<GeoMean> geomeans;  // per metric and variant, over scenarios
  std::vector<GateRow> gate;
  bool same_host = true;
  std::string old_host, new_host, old_commit, new_commit;
  bool old_dirty = false, new_dirty = false;
  RunOutcome old_outcome, new_outcome;
  std::vector<std::string> only_old, only_new;  // scenario/profile in one run only
  std::size_t common_scenarios = 0;             // scenario/profile in both runs
  int regressions() const;                      // gate rows judged worse
};

RunDiff diff_runs(const model::ResultsDoc& old_results, const model::ResultsDoc& new_results,
                  const DiffOptions& options);

// The variants of `scenario` the gate judges: those of `named` it has; with none named, "after",
// else its only variant (a single-variant run has nothing else to judge).
std::vector<std::string> gated_variants(const model::ScenarioResult& scenario, const std::set<std::string>& named);

// The variant whose move between the runs is the drift `variant`'s is corrected by: the one its
// run compared it to (compare_to), else "before"; none for a reference variant itself.
std::optional<std::string> drift_reference(const model::ScenarioResult& scenario, const std::string& variant);

// Empty when the gate has rows to judge; otherwise why there is nothing to compare (exit 2).
std::string nothing_comparable(const RunDiff& diff, const DiffOptions& options);

// What the regression gate concluded: the exit code --fail-on-regression gives (0, 1, or 2 when
// nothing is comparable or `not_gateable` says a run cannot be gated) and the line that says why.
struct GateDecision {
  int exit_code = 0;
  std::string headline;
};
GateDecision decide_gate(const RunDiff& diff, const DiffOptions& options, const std::string& not_gateable);

nlohmann::json to_json(const RunDiff& diff);

}  // namespace perfgate::gate
