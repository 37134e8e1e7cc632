// From a scenario's samples to its summaries and paired comparisons, and their verdicts: the
// plain functions of stats/ applied to run::Sample values, into model:: results.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "model/results_model.hpp"
#include "run/sample.hpp"
#include "stats/verdict.hpp"

namespace perfgate::gate {

model::Summaries summarize_samples(const std::vector<run::Sample>& samples);

struct VariantPair {
  std::string variant, baseline;
  bool gated;  // after vs before
};

// Every metric both variants of a pair report, paired by round, or only those `wanted` names
// (a look needs its gated metrics and the guard's; each keeps the interval it gets in the full
// analysis). `gated_metrics` are the ones the policy decides on (for the gated pair only).
std::vector<model::Comparison> compare_samples(const std::vector<run::Sample>& samples,
                                               const std::vector<VariantPair>& pairs,
                                               const std::set<std::string>& gated_metrics, std::uint64_t seed,
                                               const std::optional<std::set<std::string>>& wanted = std::nullopt);

// Holm across `family` (plus `decided_elsewhere` members other shards decide), then each
// comparison's verdict — better, worse, the same or cannot tell (stats/verdict.hpp) — at
// `alpha` with the noise band. The detectable effect is computed at alpha / |family| (Holm's
// first, strictest step: conservative).
void decide_family(const std::vector<model::Comparison*>& family, double alpha, double noise,
                   int decided_elsewhere = 0);
// Comparisons that gate nothing (every other metric, every sweep variant): the verdict rule on
// the unadjusted p. Exploratory by design — correcting hundreds of descriptive comparisons
// would hide every effect — and the results say so (p_wilcoxon_adjusted == p_wilcoxon).
void decide_exploratory(const std::vector<model::Comparison*>& comparisons, double alpha, double noise);

// A metric declared exact must take one value over a variant's measured rounds. One that does
// not is a bug in the program or in its declaration: it is named (the returned notes) and its
// comparisons lose exactness for this run, so no baseline compares it across host classes.
std::vector<std::string> check_declared_exact(model::Summaries& summaries, std::vector<model::Comparison>& comparisons);

// The summary of every series of `series` (variant → series name → {unit, values}) with a
// finite value: the figures `series_summaries` holds. Values that are not finite numbers are
// left out; a series with none has no summary.
model::SeriesSummaries summarize_series(const std::map<std::string, nlohmann::json>& series);

}  // namespace perfgate::gate
