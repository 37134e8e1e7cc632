// From a scenario's samples to its summaries and paired comparisons: the "stats" stage of the
// data flow, over run::Sample values, built on the plain functions of this folder.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "run/sample.hpp"
#include "stats/paired.hpp"
#include "stats/summary.hpp"
#include "stats/verdict.hpp"

namespace perfgate::stats {

struct MetricSummary {
  Summary s;
  std::string unit, better, source;
};
// variant → metric → summary, over measured (non-warm-up) samples.
using Summaries = std::map<std::string, std::map<std::string, MetricSummary>>;

Summaries summarize_samples(const std::vector<run::Sample>& samples);

struct Comparison {
  std::string variant, baseline, metric, unit, better;
  bool gated = false;
  PairedRatio r;
  double p_adjusted = 1;
  Verdict verdict = Verdict::NoChange;
  // The smallest slowdown this comparison would have flagged with 80% power (power.hpp) at
  // alpha_corrected, noise band included; null when its rounds cannot decide at all.
  double alpha_corrected = 0.05;
  std::optional<double> detectable_effect;
};

struct VariantPair {
  std::string variant, baseline;
  bool gated;  // after vs before
};

// Every metric both variants of a pair report, paired by round. `gated_metrics` are the ones
// the policy decides on (for the gated pair only).
std::vector<Comparison> compare_samples(const std::vector<run::Sample>& samples, const std::vector<VariantPair>& pairs,
                                        const std::set<std::string>& gated_metrics, std::uint64_t seed);

// Holm across `family`, then the verdict rule at `alpha` with the noise band. The detectable
// effect is computed at alpha / |family| (Holm's first, strictest step: conservative).
void decide_family(const std::vector<Comparison*>& family, double alpha, double noise);
// Comparisons that gate nothing (every other metric, every sweep variant): the verdict rule on
// the unadjusted p. Exploratory by design — correcting hundreds of descriptive comparisons
// would hide every effect — and the results say so (p_wilcoxon_adjusted == p_wilcoxon).
void decide_exploratory(const std::vector<Comparison*>& comparisons, double alpha, double noise);

Better better_of(const std::string& s);
nlohmann::json to_json(const Summaries&);
nlohmann::json to_json(const Comparison&, double confidence);

}  // namespace perfgate::stats
