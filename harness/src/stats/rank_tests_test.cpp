// The rank tests (Wilcoxon signed-rank, Mann-Whitney U) against published tables and worked
// examples, or against brute-force enumeration written out here: never against the code under test.
#include "stats/rank_tests.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <vector>

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
