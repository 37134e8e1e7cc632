// The ratio AFTER / BEFORE of one metric over paired rounds, with its interval and tests.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "stats/bootstrap.hpp"  // Interval, bootstrap_median_ci

namespace perfgate::stats {

struct PairedRatio {
  double ratio = 1;   // AFTER / BEFORE; below 1 means AFTER is smaller
  Interval ci{1, 1};  // log scale: exact Walsh-average interval; otherwise percentile bootstrap over rounds
  double p_wilcoxon = 1;
  std::string wilcoxon_method;     // "exact", "normal", or "zero-spread" (every round the same ratio)
  double p_mann_whitney = 1;       // unpaired, reported for comparison with compare.py and benchstat
  std::size_t n = 0;               // rounds
  bool log_scale = false;          // true: from per-round log-ratios; false: ratio of medians
  double ci_confidence = 0.95;     // the interval's achieved level (Walsh: the nearest >= the one asked)
  bool zero_spread = false;        // every round gave the same ratio: one round decides, no rank test
  std::vector<double> log_ratios;  // per round, log scale only: the spread the detectable effect uses
};

// before[i] and after[i] were measured in the same round.
// Every value > 0 (log_scale): r_i = log(after_i / before_i); ratio = exp(HL(r)), the
// Hodges-Lehmann estimate; the CI is exp of its exact Walsh-average interval (walsh.hpp), the
// one that inverts the Wilcoxon test on r; Mann-Whitney on before vs after.
// Zero spread (every r_i equal, or on the count path every before and every after equal): the
// ratio is known exactly, so p = 0 when it differs from 1 and 1 when it does not
// (wilcoxon_method "zero-spread") — a rank test of identical values can never reach the level a
// family of comparisons needs, and there is nothing left to test.
// Some value == 0 (counts): ratio = median(after) / median(before), with 0/0 = 1 and x/0 = +inf;
// the CI bootstraps rounds and takes that ratio of medians (an end may be +inf); Wilcoxon on
// after - before.
// Throws std::invalid_argument on a size mismatch, fewer than 2 rounds, a negative or
// non-finite value, resamples < 1 or confidence outside (0, 1).
PairedRatio paired_ratio(const std::vector<double>& before, const std::vector<double>& after, std::uint64_t seed,
                         int resamples = 10000, double confidence = 0.95);

// Whether the interval holds at the level `asked`: with fewer rounds than the level needs the
// Walsh interval is the rounds' whole range at a lower level (3 rounds: 75%), which decides
// nothing at `asked`. A zero-spread ratio is exact.
bool reaches_level(const PairedRatio& r, double asked);

}  // namespace perfgate::stats
