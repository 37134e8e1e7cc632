// Two-sided rank tests: Wilcoxon signed-rank (paired) and Mann-Whitney U (unpaired).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace perfgate::stats {

struct TestResult {
  double statistic;
  double p_value;      // two-sided: min(1, 2 * min(P(S <= s), P(S >= s)))
  std::string method;  // "exact" or "normal"
  std::size_t n;
  // Wilcoxon only, one-sided: P(W+ <= w+) ("the differences lie below 0") and P(W+ >= w+)
  // ("above 0"); the tests the three answers of verdict.hpp are made of.
  double p_less = 1, p_greater = 1;
};

// Up to this many non-zero differences (Wilcoxon) or observations per group (Mann-Whitney),
// p-values come from the exact permutation distribution; beyond it, from the normal
// approximation.
inline constexpr std::size_t exact_max_n = 50;

// Wilcoxon signed-rank test of "the differences are symmetric about 0".
// Zero differences are dropped (Wilcoxon's own zero method); n counts the non-zero ones, and
// with none left p = 1. |d| is ranked with midranks for ties.
// statistic: T = min(W+, W-), the figure printed in critical-value tables (Siegel's T), so it
// carries no direction; the direction is the ratio's job.
// exact: the distribution of W+ over all 2^n sign patterns conditional on the observed
// (mid)ranks, so it stays exact with ties. normal: mean n(n+1)/4, variance
// n(n+1)(2n+1)/24 - sum(t^3 - t)/48 over tie groups, continuity correction 0.5.
// Throws std::invalid_argument on a non-finite difference.
TestResult wilcoxon_signed_rank(const std::vector<double>& differences);

// Mann-Whitney U test of "x and y come from the same distribution".
// statistic: U of x = #{(i, j): x_i > y_j} + 0.5 #{(i, j): x_i == y_j}; U of y = n1 n2 - U.
// n = n1 + n2.
// exact: no ties and both groups <= exact_max_n, by counting all C(n1 + n2, n1) orderings.
// normal otherwise: mean n1 n2 / 2, variance n1 n2 / 12 * ((N + 1) - sum(t^3 - t) / (N(N - 1))),
// continuity correction 0.5.
// Throws std::invalid_argument on an empty group or a non-finite value.
TestResult mann_whitney_u(const std::vector<double>& x, const std::vector<double>& y);

}  // namespace perfgate::stats
