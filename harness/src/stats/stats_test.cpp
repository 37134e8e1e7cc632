// Reference values come from published tables and worked examples, or from a computation shown
// beside the check (by hand, or by brute-force enumeration written out in this file): never
// from running the code under test.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <vector>

#include "perfgate/percentile.hpp"
#include "stats/multiple.hpp"
#include "stats/paired.hpp"
#include "stats/rank_tests.hpp"
#include "stats/sequential.hpp"
#include "stats/summary.hpp"
#include "stats/verdict.hpp"

namespace ps = perfgate::stats;

namespace {

// Differences +1..+n with the ranks listed in `negative` made negative: no ties, so the rank of
// |d| = k is k and T = min(W+, W-) is under our control.
std::vector<double> signed_ranks(int n, const std::vector<int>& negative) {
  std::vector<double> d;
  for (int k = 1; k <= n; ++k) d.push_back(k);
  for (int k : negative) d[static_cast<std::size_t>(k - 1)] = -k;
  return d;
}

// y = 1..n2 and x_i = beats[i] + a distinct fraction in (0, 1), so x_i exceeds exactly beats[i]
// of the y's, U of x = sum(beats), and no two values tie.
struct Groups {
  std::vector<double> x, y;
};
Groups with_u(const std::vector<int>& beats, int n2) {
  Groups g;
  const double step = 1.0 / static_cast<double>(beats.size() + 1);
  for (std::size_t i = 0; i < beats.size(); ++i) g.x.push_back(beats[i] + step * static_cast<double>(i + 1));
  for (int k = 1; k <= n2; ++k) g.y.push_back(k);
  return g;
}

// Exact two-sided p of the signed-rank test by enumerating all 2^n sign patterns of the given
// (mid)ranks: the definition, independent of the dynamic programme under test.
double enumerate_signed_rank_p(const std::vector<double>& ranks, double w_plus) {
  const std::size_t n = ranks.size();
  std::uint64_t le = 0, ge = 0;
  for (std::uint64_t mask = 0; mask < (std::uint64_t{1} << n); ++mask) {
    double w = 0;
    for (std::size_t i = 0; i < n; ++i) {
      if (mask >> i & 1U) w += ranks[i];
    }
    le += w <= w_plus;
    ge += w >= w_plus;
  }
  const double total = static_cast<double>(std::uint64_t{1} << n);
  return std::min(1.0, 2.0 * std::min(le, ge) / total);
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Percentiles and summaries

TEST(Percentile, Type7WorkedValues) {
  // numpy.percentile([1, 2, 3, 4], 25) == 1.75 and (..., 90) == 3.7; R quantile(1:4, c(.25, .9),
  // type = 7) gives the same: h = 3p, 1 + 0.75 and 3 + 0.7.
  EXPECT_DOUBLE_EQ(perfgate::percentile({1, 2, 3, 4}, 0.25), 1.75);
  EXPECT_DOUBLE_EQ(perfgate::percentile({4, 3, 2, 1}, 0.90), 3.7);
}

TEST(Summary, UsesType7Percentiles) {
  // numpy.percentile([1, 2, 3, 4], [50, 90, 95, 99]) == [2.5, 3.7, 3.85, 3.97].
  const ps::Summary s = ps::summarize({4, 1, 3, 2});
  EXPECT_EQ(s.n, 4U);
  EXPECT_DOUBLE_EQ(s.p50, 2.5);
  EXPECT_DOUBLE_EQ(s.median, 2.5);
  EXPECT_NEAR(s.p90, 3.7, 1e-12);
  EXPECT_NEAR(s.p95, 3.85, 1e-12);
  EXPECT_NEAR(s.p99, 3.97, 1e-12);
  EXPECT_DOUBLE_EQ(s.min, 1.0);
  EXPECT_DOUBLE_EQ(s.max, 4.0);
}

TEST(Summary, WikipediaStandardDeviationExample) {
  // Wikipedia, "Standard deviation", basic example: {2, 4, 4, 4, 5, 5, 7, 9} has mean 5,
  // population SD 2 and sample SD sqrt(32 / 7) ~ 2.138.
  const ps::Summary s = ps::summarize({2, 4, 4, 4, 5, 5, 7, 9});
  EXPECT_DOUBLE_EQ(s.mean, 5.0);
  EXPECT_NEAR(s.stddev, std::sqrt(32.0 / 7.0), 1e-12);
  EXPECT_DOUBLE_EQ(s.median, 4.5);
}

TEST(Summary, WikipediaMedianAbsoluteDeviationExample) {
  // Wikipedia, "Median absolute deviation", example: {1, 1, 2, 2, 4, 6, 9} has median 2,
  // absolute deviations {1, 1, 0, 0, 2, 4, 7} and MAD 1 (raw, unscaled).
  const ps::Summary s = ps::summarize({1, 1, 2, 2, 4, 6, 9});
  EXPECT_DOUBLE_EQ(s.median, 2.0);
  EXPECT_DOUBLE_EQ(s.mad, 1.0);
}

TEST(Summary, MedianOddAndEven) {
  // By definition: the middle value, or the mean of the two middle values.
  EXPECT_DOUBLE_EQ(ps::median({3, 1, 2}), 2.0);
  EXPECT_DOUBLE_EQ(ps::median({4, 1, 3, 2}), 2.5);
}

TEST(Summary, SingleSampleAndBadInput) {
  const ps::Summary s = ps::summarize({7.5});
  EXPECT_DOUBLE_EQ(s.stddev, 0.0);
  EXPECT_DOUBLE_EQ(s.mad, 0.0);
  EXPECT_DOUBLE_EQ(s.p99, 7.5);
  EXPECT_THROW(ps::summarize({}), std::invalid_argument);
  EXPECT_THROW(ps::median({}), std::invalid_argument);
  EXPECT_THROW(ps::summarize({1.0, std::nan("")}), std::invalid_argument);
}

// ---------------------------------------------------------------------------------------------
// Wilcoxon signed-rank

TEST(Wilcoxon, CriticalValueTableN10) {
  // Published two-sided alpha = 0.05 critical values of T (e.g. the table reproduced at
  // scistatcalc.blogspot.com/2013/09/table.html and in Siegel's textbook): n = 10 -> T = 8,
  // so T = 8 is significant and T = 9 is not.
  const ps::TestResult t8 = ps::wilcoxon_signed_rank(signed_ranks(10, {8}));
  EXPECT_DOUBLE_EQ(t8.statistic, 8.0);
  EXPECT_EQ(t8.method, "exact");
  EXPECT_EQ(t8.n, 10U);
  EXPECT_LE(t8.p_value, 0.05);
  // 25 of the 1024 sign patterns have W+ <= 8 (count the subsets of {1..10} summing to <= 8):
  // p = 2 * 25 / 1024.
  EXPECT_DOUBLE_EQ(t8.p_value, 50.0 / 1024.0);

  const ps::TestResult t9 = ps::wilcoxon_signed_rank(signed_ranks(10, {9}));
  EXPECT_DOUBLE_EQ(t9.statistic, 9.0);
  EXPECT_GT(t9.p_value, 0.05);
}

TEST(Wilcoxon, CriticalValueTableN20) {
  // Same table: n = 20 -> T = 52 (52 = 20 + 19 + 13; 53 = 20 + 19 + 14).
  const ps::TestResult t52 = ps::wilcoxon_signed_rank(signed_ranks(20, {20, 19, 13}));
  EXPECT_DOUBLE_EQ(t52.statistic, 52.0);
  EXPECT_LE(t52.p_value, 0.05);
  const ps::TestResult t53 = ps::wilcoxon_signed_rank(signed_ranks(20, {20, 19, 14}));
  EXPECT_DOUBLE_EQ(t53.statistic, 53.0);
  EXPECT_GT(t53.p_value, 0.05);
}

TEST(Wilcoxon, AllPositiveN6) {
  // Only 1 of 2^6 sign patterns gives W+ = 21 (and 1 gives W+ = 0): p = 2 / 64 = 0.03125, the
  // smallest n for which the table lists a critical value (T = 0).
  const ps::TestResult r = ps::wilcoxon_signed_rank({1.5, 2.5, 3.5, 4.5, 5.5, 6.5});
  EXPECT_DOUBLE_EQ(r.statistic, 0.0);
  EXPECT_DOUBLE_EQ(r.p_value, 0.03125);
}

TEST(Wilcoxon, ZerosAreDroppedAndSignIsIrrelevant) {
  // Wilcoxon's zero method: the two zeros go, n = 6, and the all-positive case above remains.
  const ps::TestResult r = ps::wilcoxon_signed_rank({0, 1, 0, 2, 3, 4, 5, 6});
  EXPECT_EQ(r.n, 6U);
  EXPECT_DOUBLE_EQ(r.p_value, 0.03125);
  const ps::TestResult mirrored = ps::wilcoxon_signed_rank({0, -1, 0, -2, -3, -4, -5, -6});
  EXPECT_DOUBLE_EQ(mirrored.p_value, 0.03125);
  EXPECT_DOUBLE_EQ(mirrored.statistic, 0.0);
}

TEST(Wilcoxon, AllZeroGivesPOne) {
  const ps::TestResult r = ps::wilcoxon_signed_rank({0, 0, 0});
  EXPECT_EQ(r.n, 0U);
  EXPECT_DOUBLE_EQ(r.p_value, 1.0);
}

TEST(Wilcoxon, WikipediaWorkedExampleWithTies) {
  // Wikipedia, "Wilcoxon signed-rank test", section Example (the 10-pair version):
  // x2 - x1 = 15, -7, 5, 20, 0, -9, 17, -12, 5, -10. The zero is dropped (N_r = 9), the two 5s
  // share rank 1.5, and the article finds W = sum of signed ranks = 9, i.e. W+ = 27, W- = 18
  // (27 + 18 = 45 = 9 * 10 / 2), not significant (|W| < W_crit = 35).
  const std::vector<double> x2 = {125, 115, 130, 140, 140, 115, 140, 125, 140, 135};
  const std::vector<double> x1 = {110, 122, 125, 120, 140, 124, 123, 137, 135, 145};
  std::vector<double> d;
  for (std::size_t i = 0; i < x1.size(); ++i) d.push_back(x2[i] - x1[i]);
  const ps::TestResult r = ps::wilcoxon_signed_rank(d);
  EXPECT_EQ(r.n, 9U);
  EXPECT_DOUBLE_EQ(r.statistic, 18.0);
  EXPECT_EQ(r.method, "exact");
  EXPECT_GT(r.p_value, 0.05);
  // Enumerating the 512 sign patterns of ranks {7, 3, 1.5, 9, 4, 8, 6, 1.5, 5}: 162 give
  // W+ >= 27, so p = 2 * 162 / 512 = 0.6328125 exactly. The enumeration is redone here.
  const std::vector<double> midranks = {7, 3, 1.5, 9, 4, 8, 6, 1.5, 5};
  EXPECT_DOUBLE_EQ(enumerate_signed_rank_p(midranks, 27.0), 0.6328125);
  EXPECT_DOUBLE_EQ(r.p_value, 0.6328125);
}

TEST(Wilcoxon, ExactWithHeavyTiesMatchesEnumeration) {
  // |d| = {1, 1, 1, 2, 2, 3, 3, 3, 3, 4}: midranks 2, 2, 2, 4.5, 4.5, 7.5 x4, 10. Negatives are
  // the first 1 and one 3, so W- = 2 + 7.5 = 9.5 and W+ = 55 - 9.5 = 45.5.
  const std::vector<double> d = {-1, 1, 1, 2, 2, -3, 3, 3, 3, 4};
  const std::vector<double> midranks = {2, 2, 2, 4.5, 4.5, 7.5, 7.5, 7.5, 7.5, 10};
  const ps::TestResult r = ps::wilcoxon_signed_rank(d);
  EXPECT_DOUBLE_EQ(r.statistic, 9.5);
  EXPECT_DOUBLE_EQ(r.p_value, enumerate_signed_rank_p(midranks, 45.5));
}

TEST(Wilcoxon, NormalApproximationBeyond50WithTies) {
  // n = 60 with |d| = 1, 1, 2, 2, ..., 30, 30 (30 tie pairs, midranks 2j - 0.5). Both members
  // of pairs j = 1..19 are negative: W- = sum_{j<=19} (4j - 1) = 741, W+ = 1830 - 741 = 1089.
  // By hand: mean = 60 * 61 / 4 = 915; variance = 60 * 61 * 121 / 24 - 30 * (8 - 2) / 48
  // = 18452.5 - 3.75 = 18448.75; sd = 135.826176;
  // z = (1089 - 0.5 - 915) / 135.826176 = 1.277368; p = 2 * (1 - Phi(1.277368)) = 0.2014724.
  std::vector<double> d;
  for (int j = 1; j <= 30; ++j) {
    const double sign = j <= 19 ? -1.0 : 1.0;
    d.push_back(sign * j);
    d.push_back(sign * j);
  }
  const ps::TestResult r = ps::wilcoxon_signed_rank(d);
  EXPECT_EQ(r.method, "normal");
  EXPECT_EQ(r.n, 60U);
  EXPECT_DOUBLE_EQ(r.statistic, 741.0);
  EXPECT_NEAR(r.p_value, 0.2014724, 1e-6);
}

// ---------------------------------------------------------------------------------------------
// Mann-Whitney U

TEST(MannWhitney, CriticalValueTable10x10) {
  // Published two-sided alpha = 0.05 critical values of U: n1 = n2 = 10 -> 23.
  const Groups g23 = with_u({0, 0, 0, 0, 0, 3, 5, 5, 5, 5}, 10);
  const ps::TestResult u23 = ps::mann_whitney_u(g23.x, g23.y);
  EXPECT_DOUBLE_EQ(u23.statistic, 23.0);
  EXPECT_EQ(u23.method, "exact");
  EXPECT_EQ(u23.n, 20U);
  EXPECT_LE(u23.p_value, 0.05);
  const Groups g24 = with_u({0, 0, 0, 0, 0, 4, 5, 5, 5, 5}, 10);
  const ps::TestResult u24 = ps::mann_whitney_u(g24.x, g24.y);
  EXPECT_DOUBLE_EQ(u24.statistic, 24.0);
  EXPECT_GT(u24.p_value, 0.05);
}

TEST(MannWhitney, CriticalValueTable5x5) {
  // Same table: n1 = n2 = 5 -> 2. By counting: U <= 2 in 4 of the C(10, 5) = 252 orderings
  // (p = 8/252), U <= 3 in 7 (p = 14/252 > 0.05).
  const Groups g2 = with_u({0, 0, 0, 1, 1}, 5);
  const ps::TestResult u2 = ps::mann_whitney_u(g2.x, g2.y);
  EXPECT_DOUBLE_EQ(u2.statistic, 2.0);
  EXPECT_LE(u2.p_value, 0.05);
  EXPECT_NEAR(u2.p_value, 8.0 / 252.0, 1e-14);
  const Groups g3 = with_u({0, 0, 1, 1, 1}, 5);
  const ps::TestResult u3 = ps::mann_whitney_u(g3.x, g3.y);
  EXPECT_GT(u3.p_value, 0.05);
  EXPECT_NEAR(u3.p_value, 14.0 / 252.0, 1e-14);
}

TEST(MannWhitney, ExactSmallestTail3x3) {
  // P(U <= 0) for n1 = n2 = 3 is 1 / C(6, 3) = 1/20 (only x all below y); two-sided 0.1.
  const ps::TestResult r = ps::mann_whitney_u({1, 2, 3}, {4, 5, 6});
  EXPECT_DOUBLE_EQ(r.statistic, 0.0);
  EXPECT_NEAR(r.p_value, 2.0 / 20.0, 1e-15);
  // U of y is the complement n1 n2 - U = 9; p is symmetric.
  const ps::TestResult swapped = ps::mann_whitney_u({4, 5, 6}, {1, 2, 3});
  EXPECT_DOUBLE_EQ(swapped.statistic, 9.0);
  EXPECT_NEAR(swapped.p_value, 0.1, 1e-15);
}

TEST(MannWhitney, WikipediaTortoiseAndHare) {
  // Wikipedia, "Mann-Whitney U test", Illustration of calculation methods: finishing order
  // T H H H H H T T T T T H gives U_T = 11 and U_H = 25; with the critical value 5 for 6 x 6 it
  // is not significant. Score = 13 - finishing position, so a larger value beats a smaller one.
  const std::vector<double> tortoises = {12, 6, 5, 4, 3, 2};
  const std::vector<double> hares = {11, 10, 9, 8, 7, 1};
  const ps::TestResult t = ps::mann_whitney_u(tortoises, hares);
  EXPECT_DOUBLE_EQ(t.statistic, 11.0);
  EXPECT_DOUBLE_EQ(ps::mann_whitney_u(hares, tortoises).statistic, 25.0);
  EXPECT_GT(t.p_value, 0.05);
  // Enumerating the C(12, 6) = 924 orderings: 143 have U <= 11, so p = 286 / 924.
  EXPECT_NEAR(t.p_value, 286.0 / 924.0, 1e-14);
}

TEST(MannWhitney, NormalApproximationWithTies) {
  // x = {95.1, 110.5, 122.1, 135, 116.2}, y = five 100s. Pooled ranks: 95.1 -> 1, the 100s
  // share 2..6 (midrank 4), the rest 7..10. R_x = 1 + 7 + 8 + 9 + 10 = 35, U_x = 35 - 15 = 20.
  // By hand: mean = 12.5; variance = 25/12 * (11 - (125 - 5) / 90) = 20.138889; sd = 4.487637;
  // z = (20 - 0.5 - 12.5) / 4.487637 = 1.559841; p = 2 * (1 - Phi(1.559841)) = 0.1187975.
  const ps::TestResult r = ps::mann_whitney_u({95.1, 110.5, 122.1, 135, 116.2}, {100, 100, 100, 100, 100});
  EXPECT_EQ(r.method, "normal");
  EXPECT_DOUBLE_EQ(r.statistic, 20.0);
  EXPECT_NEAR(r.p_value, 0.1187975, 1e-6);
}

TEST(MannWhitney, NormalApproximationBeyond50) {
  // x = 2, 4, ..., 120 and y = 1, 3, ..., 119: the i-th x beats i y's, U_x = 1830.
  // By hand: mean = 1800; variance = 3600 * 121 / 12 = 36300; sd = 190.525589;
  // z = (1830 - 0.5 - 1800) / 190.525589 = 0.154835; p = 2 * (1 - Phi(0.154835)) = 0.8769515.
  std::vector<double> x, y;
  for (int i = 1; i <= 60; ++i) {
    x.push_back(2 * i);
    y.push_back(2 * i - 1);
  }
  const ps::TestResult r = ps::mann_whitney_u(x, y);
  EXPECT_EQ(r.method, "normal");
  EXPECT_DOUBLE_EQ(r.statistic, 1830.0);
  EXPECT_NEAR(r.p_value, 0.8769515, 1e-6);
}

TEST(MannWhitney, AllEqualGivesPOneAndEmptyThrows) {
  EXPECT_DOUBLE_EQ(ps::mann_whitney_u({3, 3, 3}, {3, 3}).p_value, 1.0);
  EXPECT_THROW(ps::mann_whitney_u({}, {1.0}), std::invalid_argument);
}

// ---------------------------------------------------------------------------------------------
// Holm

TEST(Holm, WorkedExample) {
  // By hand: sorted 0.005, 0.01, 0.03, 0.04 times 4, 3, 2, 1 = 0.02, 0.03, 0.06, 0.04; the
  // running maximum makes the last 0.06. Back in input order: 0.03, 0.06, 0.06, 0.02 (as R's
  // p.adjust(c(0.01, 0.04, 0.03, 0.005), "holm")).
  const std::vector<double> adj = ps::holm({0.01, 0.04, 0.03, 0.005});
  ASSERT_EQ(adj.size(), 4U);
  EXPECT_NEAR(adj[0], 0.03, 1e-15);
  EXPECT_NEAR(adj[1], 0.06, 1e-15);
  EXPECT_NEAR(adj[2], 0.06, 1e-15);
  EXPECT_NEAR(adj[3], 0.02, 1e-15);
}

TEST(Holm, CappedAtOneAndEdgeCases) {
  // 0.5 * 2 = 1 and max(1, 0.6) = 1.
  const std::vector<double> adj = ps::holm({0.6, 0.5});
  EXPECT_DOUBLE_EQ(adj[0], 1.0);
  EXPECT_DOUBLE_EQ(adj[1], 1.0);
  EXPECT_DOUBLE_EQ(ps::holm({0.7})[0], 0.7);  // one comparison: nothing to correct
  EXPECT_TRUE(ps::holm({}).empty());
  EXPECT_THROW(ps::holm({0.1, 1.5}), std::invalid_argument);
}

// ---------------------------------------------------------------------------------------------
// Bootstrap and paired ratios

TEST(Bootstrap, MedianOfThreeMatchesItsExactDistribution) {
  // The bootstrap median of {1, 2, 3} is 1 when at least two of three draws are 1:
  // P = 3 (1/3)^2 (2/3) + (1/3)^3 = 7/27 ~ 0.26; likewise 3, so 2 has P = 13/27. The 2.5% and
  // 97.5% points are therefore 1 and 3, while the 40% and 60% points (confidence 0.2) are 2.
  const ps::Interval wide = ps::bootstrap_median_ci({3, 1, 2}, 42, 10000, 0.95);
  EXPECT_DOUBLE_EQ(wide.lo, 1.0);
  EXPECT_DOUBLE_EQ(wide.hi, 3.0);
  const ps::Interval narrow = ps::bootstrap_median_ci({3, 1, 2}, 42, 10000, 0.2);
  EXPECT_DOUBLE_EQ(narrow.lo, 2.0);
  EXPECT_DOUBLE_EQ(narrow.hi, 2.0);
  EXPECT_THROW(ps::bootstrap_median_ci({1, 2}, 1, 0, 0.95), std::invalid_argument);
  EXPECT_THROW(ps::bootstrap_median_ci({1, 2}, 1, 100, 1.0), std::invalid_argument);
}

TEST(PairedRatio, ExactlyTwiceSlower) {
  // after = 2 * before in every round: every log-ratio is log 2, so ratio, both interval ends
  // and every Walsh average are exactly 2. Zero spread: the ratio is known exactly, p = 0 without
  // a rank test (whose smallest p at five rounds, 2/32, could never reject).
  const std::vector<double> before = {10, 11, 12, 13, 14};
  const std::vector<double> after = {20, 22, 24, 26, 28};
  const ps::PairedRatio r = ps::paired_ratio(before, after, 7);
  EXPECT_TRUE(r.log_scale);
  EXPECT_EQ(r.n, 5U);
  EXPECT_DOUBLE_EQ(r.ratio, 2.0);
  EXPECT_DOUBLE_EQ(r.ci.lo, 2.0);
  EXPECT_DOUBLE_EQ(r.ci.hi, 2.0);
  EXPECT_DOUBLE_EQ(r.p_wilcoxon, 0.0);
  EXPECT_EQ(r.wilcoxon_method, "zero-spread");
}

TEST(PairedRatio, KnownLogRatios) {
  // Log-ratios r = {0.1, 0.2, -0.05, 0.3, 0.15}: median 0.15, ratio e^0.15 = 1.1618342.
  // Signed-rank on r: only the smallest |r| is negative, T = 1, and W+ >= 14 in 2 of 32
  // patterns: p = 4/32 = 0.125. Mann-Whitney: after = 100 e^r = {110.52, 122.14, 95.12, 134.99,
  // 116.18} against five 100s is the tied case computed by hand above: p = 0.1187975.
  const std::vector<double> r = {0.1, 0.2, -0.05, 0.3, 0.15};
  std::vector<double> before, after;
  for (double v : r) {
    before.push_back(100.0);
    after.push_back(100.0 * std::exp(v));
  }
  const ps::PairedRatio p = ps::paired_ratio(before, after, 2024);
  EXPECT_TRUE(p.log_scale);
  EXPECT_NEAR(p.ratio, 1.1618342, 1e-6);
  EXPECT_DOUBLE_EQ(p.p_wilcoxon, 0.125);
  EXPECT_NEAR(p.p_mann_whitney, 0.1187975, 1e-6);
  // With 5 rounds a resample's median is the smallest log-ratio when at least 3 of its 5 draws
  // are that round: P = C(5,3) .2^3 .8^2 + C(5,4) .2^4 .8 + .2^5 = 0.05792 > 0.025, and the same
  // for the largest. So the 95% interval is exactly [e^-0.05, e^0.3].
  EXPECT_NEAR(p.ci.lo, std::exp(-0.05), 1e-12);
  EXPECT_NEAR(p.ci.hi, std::exp(0.3), 1e-12);
}

TEST(PairedRatio, ZeroCountsUseRatioOfMedians) {
  // before = {2, 4, 0, 3, 5} (median 3), after = {1, 2, 0, 1, 2} (median 1): ratio 1/3.
  // Differences -1, -2, 0, -2, -3: the zero goes, |d| midranks 1, 2.5, 2.5, 4, all negative,
  // so W+ = 0 is reached by 1 of 16 patterns: p = 2/16.
  const ps::PairedRatio r = ps::paired_ratio({2, 4, 0, 3, 5}, {1, 2, 0, 1, 2}, 11);
  EXPECT_FALSE(r.log_scale);
  EXPECT_DOUBLE_EQ(r.ratio, 1.0 / 3.0);
  EXPECT_DOUBLE_EQ(r.p_wilcoxon, 0.125);
  EXPECT_LE(r.ci.lo, r.ratio);
  EXPECT_GE(r.ci.hi, r.ratio);
  EXPECT_TRUE(std::isfinite(r.ci.lo));
}

TEST(PairedRatio, ZeroBeforeMedian) {
  // median(before) = 0: 0/0 reads as "no change" and x/0 as unbounded growth.
  const ps::PairedRatio both_zero = ps::paired_ratio({0, 0, 0, 0}, {0, 0, 0, 0}, 3);
  EXPECT_DOUBLE_EQ(both_zero.ratio, 1.0);
  EXPECT_DOUBLE_EQ(both_zero.ci.lo, 1.0);
  EXPECT_DOUBLE_EQ(both_zero.ci.hi, 1.0);
  EXPECT_DOUBLE_EQ(both_zero.p_wilcoxon, 1.0);

  const ps::PairedRatio grew = ps::paired_ratio({0, 0, 0, 0, 0}, {1, 1, 1, 1, 1}, 3);
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(grew.ratio, inf);
  EXPECT_EQ(grew.ci.lo, inf);
  EXPECT_EQ(grew.ci.hi, inf);
  EXPECT_DOUBLE_EQ(grew.p_wilcoxon, 0.0);  // exact counts, the same every round: zero spread
}

TEST(PairedRatio, IdenticalInputsShowNoChange) {
  for (const std::vector<double>& v : {std::vector<double>{5, 7, 6, 9, 8}, std::vector<double>{0, 3, 0, 2, 1}}) {
    const ps::PairedRatio r = ps::paired_ratio(v, v, 99);
    EXPECT_DOUBLE_EQ(r.ratio, 1.0);
    EXPECT_DOUBLE_EQ(r.ci.lo, 1.0);
    EXPECT_DOUBLE_EQ(r.ci.hi, 1.0);
    EXPECT_DOUBLE_EQ(r.p_wilcoxon, 1.0);
    EXPECT_DOUBLE_EQ(r.p_mann_whitney, 1.0);
  }
}

TEST(PairedRatio, DeterministicUnderSeed) {
  // Counts with zeros take the bootstrap path (the log path's Walsh interval needs no seed).
  std::vector<double> before, after;
  for (int i = 0; i < 30; ++i) {
    before.push_back(i % 7 == 0 ? 0.0 : 100.0 + 10 * std::sin(i));
    after.push_back(95.0 + 30.0 * std::cos(1.7 * i));
  }
  const ps::PairedRatio a = ps::paired_ratio(before, after, 12345);
  const ps::PairedRatio b = ps::paired_ratio(before, after, 12345);
  EXPECT_EQ(a.ci.lo, b.ci.lo);
  EXPECT_EQ(a.ci.hi, b.ci.hi);
  EXPECT_LT(a.ci.lo, a.ci.hi);
  // The seed is really used: with few resamples the interpolated percentiles of two different
  // streams differ, while the point estimate does not depend on the seed at all.
  const ps::PairedRatio few1 = ps::paired_ratio(before, after, 1, 40);
  const ps::PairedRatio few2 = ps::paired_ratio(before, after, 2, 40);
  EXPECT_EQ(few1.ratio, few2.ratio);
  EXPECT_TRUE(few1.ci.lo != few2.ci.lo || few1.ci.hi != few2.ci.hi);
}

TEST(PairedRatio, RejectsBadInput) {
  EXPECT_THROW(ps::paired_ratio({1, 2, 3}, {1, 2}, 1), std::invalid_argument);
  EXPECT_THROW(ps::paired_ratio({1}, {1}, 1), std::invalid_argument);
  EXPECT_THROW(ps::paired_ratio({1, -2}, {1, 2}, 1), std::invalid_argument);
}

// ---------------------------------------------------------------------------------------------
// Verdicts

namespace {
ps::PairedRatio with_ci(double lo, double hi) {
  ps::PairedRatio r{};
  r.ratio = (lo + hi) / 2;
  r.ci = {lo, hi};
  r.n = 10;
  r.log_scale = true;
  return r;
}
}  // namespace

TEST(Verdict, SignificantInsideNoiseBandIsNoChange) {
  // A 1% change, however significant, is inside the +-2% band.
  EXPECT_EQ(ps::decide(with_ci(0.985, 0.995), 0.001, 0.05, 0.02, ps::Better::Lower), ps::Verdict::NoChange);
  // Reaching into the band is not "wholly outside" it.
  EXPECT_EQ(ps::decide(with_ci(0.95, 0.99), 0.001, 0.05, 0.02, ps::Better::Lower), ps::Verdict::NoChange);
}

TEST(Verdict, OutsideBandButNotSignificantIsNoChange) {
  EXPECT_EQ(ps::decide(with_ci(0.80, 0.90), 0.20, 0.05, 0.02, ps::Better::Lower), ps::Verdict::NoChange);
  EXPECT_EQ(ps::decide(with_ci(0.80, 0.90), 0.05, 0.05, 0.02, ps::Better::Lower), ps::Verdict::NoChange);
}

TEST(Verdict, EachDirection) {
  // Smaller AFTER: better when lower is better, worse when higher is better; and vice versa.
  EXPECT_EQ(ps::decide(with_ci(0.80, 0.90), 0.001, 0.05, 0.02, ps::Better::Lower), ps::Verdict::Better);
  EXPECT_EQ(ps::decide(with_ci(0.80, 0.90), 0.001, 0.05, 0.02, ps::Better::Higher), ps::Verdict::Worse);
  EXPECT_EQ(ps::decide(with_ci(1.10, 1.30), 0.001, 0.05, 0.02, ps::Better::Lower), ps::Verdict::Worse);
  EXPECT_EQ(ps::decide(with_ci(1.10, 1.30), 0.001, 0.05, 0.02, ps::Better::Higher), ps::Verdict::Better);
}

TEST(Verdict, Names) {
  EXPECT_EQ(ps::to_string(ps::Verdict::Better), "better");
  EXPECT_EQ(ps::to_string(ps::Verdict::Worse), "worse");
  EXPECT_EQ(ps::to_string(ps::Verdict::NoChange), "no significant change");
}

TEST(Verdict, MeetsFactorOnTheWholeInterval) {
  // "At least 10x faster" (lower is better) needs ci.hi <= 0.1, whatever the point estimate.
  EXPECT_TRUE(ps::meets_factor(with_ci(0.05, 0.09), 10, ps::Better::Lower));
  EXPECT_FALSE(ps::meets_factor(with_ci(0.02, 0.11), 10, ps::Better::Lower));
  // "At least 2x the throughput" needs ci.lo >= 2.
  EXPECT_TRUE(ps::meets_factor(with_ci(2.1, 2.6), 2, ps::Better::Higher));
  EXPECT_FALSE(ps::meets_factor(with_ci(1.9, 3.0), 2, ps::Better::Higher));
}

// ---------------------------------------------------------------------------------------------
// Sequential design

TEST(Sequential, LookSchedule) {
  // 8 + 22k/3 for k = 0..3 = 8, 15.33, 22.67, 30 -> 8, 15, 23, 30.
  EXPECT_EQ(ps::look_schedule(8, 30, 4), (std::vector<int>{8, 15, 23, 30}));
  EXPECT_EQ(ps::look_schedule(10, 10, 4), (std::vector<int>{10}));
  // 5, 5.67, 6.33, 7 -> 5, 6, 6, 7 -> duplicates removed.
  EXPECT_EQ(ps::look_schedule(5, 7, 4), (std::vector<int>{5, 6, 7}));
  EXPECT_EQ(ps::look_schedule(5, 20, 2), (std::vector<int>{5, 20}));
  EXPECT_THROW(ps::look_schedule(10, 5, 4), std::invalid_argument);
}

TEST(Sequential, BonferroniAlphaPerLook) {
  EXPECT_DOUBLE_EQ(ps::alpha_per_look(0.05, 4), 0.0125);
  EXPECT_DOUBLE_EQ(ps::alpha_per_look(0.05, 1), 0.05);
  EXPECT_THROW(ps::alpha_per_look(0.05, 0), std::invalid_argument);
}
