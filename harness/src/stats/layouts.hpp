// A change's effect over layouts (docs/layout.md, "Verdicts over layouts"). Each side is built
// in K layouts; layout k of BEFORE and layout k of AFTER share a seed (the same padding of each
// translation unit, the same object order) and are measured in paired rounds. Layout is a
// random factor nested in side: which layout a build got is chance, so the effect of the change
// is the difference between the sides averaged over layouts, and its uncertainty must include
// how far the layouts themselves move the program.
//
// The model is the balanced mixed model's, solved exactly rather than by bootstrap: per layout,
// d_k = the mean of its rounds' log-ratios (AFTER / BEFORE); the effect is mean(d_k) and its
// interval Student's t over the K values with K - 1 degrees of freedom. Var(d_k) is the
// between-layout variance plus the within-layout noise over the rounds, so the interval holds
// both, in the proportions the data show, and a two-level bootstrap of so few layouts (4 to 8)
// would be too narrow (its percentiles of K means under-cover at small K). Pairing by seed
// removes what a layout does to both sides alike. When the layouts' own F test finds nothing
// (p >= 0.25), the rounds are pooled (below): K - 1 degrees of freedom would spend the program's
// indifference to layout as if it were a spread.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "stats/bootstrap.hpp"  // Interval
#include "stats/verdict.hpp"

namespace perfgate::stats {

// One layout's rounds: before[i] and after[i] measured in the same round, every value > 0.
struct LayoutPair {
  std::vector<double> before, after;
};

struct LayoutEffect {
  double ratio = 1;                   // exp(mean d_k): AFTER / BEFORE over layouts
  Interval ci{1, 1};                  // exp of the t interval at `confidence`
  double confidence = 0.95;           // the deciding test's two-sided level (Decided::confidence)
  std::vector<double> layout_ratios;  // exp(d_k), per layout
  // "Layout alone moves this program ±X": half the range of a side's per-layout medians over
  // their geometric mean (0.021 = ±2.1%).
  double spread_before = 0, spread_after = 0;
  // The share of Var(d_k) the layouts explain beyond the rounds' own noise (0..1): above a half,
  // more layouts, not more rounds, narrow the interval.
  double layout_share = 0;
  StateTests tests;
  Decided decided;
  bool more_layouts = false;             // cannot tell, and the layouts dominate the variance
  std::optional<int> layouts_to_decide;  // cannot tell: about how many layouts would decide it
  std::size_t layouts = 0, rounds = 0;   // K, and the rounds of each side in all
  double log_mean = 0, log_se = 0;       // mean(d_k) and its standard error, for intervals at other levels
  double df = 1;                         // the t distribution's degrees of freedom: K - 1, or N - 1 pooled
  // The layouts' F test (MS between layout pairs over MS within): its p-value, none without two
  // rounds in every layout. At p >= 0.25 the layouts moved nothing the rounds could see, and the
  // rounds are pooled: every round a unit, N - 1 degrees of freedom (Paull's rule for a random
  // factor). Below, the K pair means decide alone, on K - 1.
  std::optional<double> layout_p;
  bool pooled = false;
  // The smallest slowdown this design would have called worse with 80% power: the band plus
  // (t at 1 - alpha/2 + t at 0.8) standard errors, the between-layout variance included (0.061 = 6.1%).
  double detectable = 0;
};

// The effect's two-sided t interval at `confidence` (ratio scale).
Interval layout_interval(const LayoutEffect& e, double confidence);

// Throws std::invalid_argument with fewer than 2 layouts, a layout without rounds, before and
// after of different lengths, a value <= 0 or non-finite, or a band or alpha out of range.
LayoutEffect layout_effect(const std::vector<LayoutPair>& layouts, double band, Better better, SameMeans same,
                           double alpha);

}  // namespace perfgate::stats
