// What a run can resolve: the smallest change it would have flagged, and the fewest rounds a
// rank test needs before it can reject at all.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

namespace perfgate::stats {

// The smallest slowdown (a fraction: 0.05 = +5%) this comparison would have flagged with
// `power` at the two-sided level `alpha` (already corrected), noise band included, from the
// per-round log-ratios:
//   ln(1 + effect) = ln(1 + noise) + (z_{1-alpha/2} + z_{power}) * sigma * sqrt(pi/3) / sqrt(n)
// sigma is the sd of the per-round log-ratios; sqrt(pi/3) turns the t-test's figure into the
// signed-rank test's (its efficiency against the t-test is 3/pi for normal data, higher for
// heavier tails, so the figure is conservative there). With no spread at all the band alone
// decides (the zero-spread rule). Null when the rank test cannot reject at this n at all
// (2 / 2^n >= alpha) and the rounds do have spread.
std::optional<double> detectable_effect(const std::vector<double>& log_ratios, double alpha, double noise,
                                        double power = 0.8);

// The same figure from the spread alone: `sigma`, the sd of per-round log-ratios (or a pooled
// one, as calibrate has), over `n` rounds. The signed-rank test is what the gates decide with
// (the Walsh interval inverts it), so sqrt(pi/3) (ARE 3/pi) is its factor; sqrt(pi/2) (ARE
// 2/pi) would be the sign test's, or the sample median's, which no gate uses. Null when sigma
// is not finite or the rank test cannot reject at this n.
std::optional<double> detectable_effect_of_spread(double sigma, std::size_t n, double alpha, double noise,
                                                  double power = 0.8);

// The fewest rounds at which the exact two-sided signed-rank test can reject at `alpha`: the
// smallest n with 2 / 2^n < alpha, i.e. n > log2(2 / alpha). For a family of m comparisons
// over `looks` looks (Bonferroni per look, Holm's first step) alpha is alpha / (looks * m).
int min_rank_rounds(double alpha);

// True when every value is the same: an exact count measured identically in every round.
bool zero_spread(const std::vector<double>& values);

}  // namespace perfgate::stats
