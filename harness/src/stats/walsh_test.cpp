// The Hodges-Lehmann estimate, its exact Walsh-average interval, the zero-spread rule and the
// detectable effect: against published critical values and by seeded simulation of coverage.
#include "stats/walsh.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>

#include "stats/paired.hpp"
#include "stats/power.hpp"
#include "stats/verdict.hpp"

using namespace perfgate::stats;

// Critical values of the two-sided 5% signed-rank test (e.g. Siegel's table): T <= 8 at n = 10,
// T <= 52 at n = 20, T <= 0 at n = 6; the Walsh interval uses order T + 1.
TEST(Walsh, OrderMatchesTheSignedRankCriticalValues) {
  EXPECT_EQ(walsh_order(6, 0.95), 1u);
  EXPECT_EQ(walsh_order(10, 0.95), 9u);
  EXPECT_EQ(walsh_order(20, 0.95), 53u);
  EXPECT_NEAR(signed_rank_cdf(6, 0), 1.0 / 64, 1e-15);
  EXPECT_NEAR(signed_rank_cdf(10, 8), 0.02441, 1e-4);
}

TEST(Walsh, EstimateIsTheMedianOfWalshAveragesAndTheLevelIsAtLeastTheOneAsked) {
  auto e = hodges_lehmann({1, 2, 3});  // Walsh averages 1, 1.5, 2, 2, 2.5, 3
  EXPECT_DOUBLE_EQ(e.estimate, 2);
  for (std::size_t n = 6; n <= 60; ++n) {
    std::vector<double> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<double>(i);
    auto h = hodges_lehmann(v);
    EXPECT_GE(h.confidence, 0.95) << n;
    EXPECT_LT(h.confidence, 0.97) << n;  // the nearest level above, not a far one
    EXPECT_LE(h.lo, h.estimate);
    EXPECT_GE(h.hi, h.estimate);
  }
  // Five rounds cannot reach 95%: the whole range, at its own level, said.
  auto five = hodges_lehmann({1, 2, 3, 4, 5});
  EXPECT_DOUBLE_EQ(five.lo, 1);
  EXPECT_DOUBLE_EQ(five.hi, 5);
  EXPECT_NEAR(five.confidence, 1 - 2.0 / 32, 1e-12);
}

namespace {

// Coverage of ln(theta) by the paired ratio's interval over seeded replications. `noise` draws
// one sample's multiplicative noise; `round_to` > 0 rounds every raw value (ties).
template <class Noise>
double coverage(std::size_t n, double theta, Noise noise, double round_to, int reps, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  int covered = 0;
  for (int k = 0; k < reps; ++k) {
    std::vector<double> before(n), after(n);
    for (std::size_t i = 0; i < n; ++i) {
      before[i] = 20 * noise(rng);
      after[i] = 20 * theta * noise(rng);
      if (round_to > 0) {
        before[i] = std::round(before[i] / round_to) * round_to;
        after[i] = std::round(after[i] / round_to) * round_to;
      }
    }
    // paired_ratio's interval is exp of this one; calling it directly skips the Mann-Whitney
    // test paired_ratio also runs, which would dominate the test's time.
    std::vector<double> r(n);
    for (std::size_t i = 0; i < n; ++i) r[i] = std::log(after[i] / before[i]);
    const ShiftEstimate h = hodges_lehmann(r);
    covered += h.lo <= std::log(theta) && std::log(theta) <= h.hi;
  }
  const double share = static_cast<double>(covered) / reps;
  std::printf("coverage %.4f at n %zu\n", share, n);
  return share;
}

}  // namespace

TEST(Walsh, CoverageIsAtLeast94PercentOnSkewedHeavyTailedAndTiedData) {
  const int reps = 4000;
  for (std::size_t n : {6, 7, 8, 10, 13, 16, 20, 25, 30}) {
    std::lognormal_distribution<double> skewed(0, 0.1);
    std::student_t_distribution<double> t3(3);
    auto heavy = [&](std::mt19937_64& g) { return std::exp(0.02 * t3(g)); };
    std::normal_distribution<double> z(0, 0.05);
    auto grain = [&](std::mt19937_64& g) { return std::exp(z(g)); };
    EXPECT_GE(coverage(n, 0.8, skewed, 0, reps, 11 + n), 0.94) << "log-normal, n " << n;
    EXPECT_GE(coverage(n, 1.1, heavy, 0, reps, 23 + n), 0.94) << "t(3), n " << n;
    // Rounded to whole units of ~20: most rounds tie, many differences are zero.
    EXPECT_GE(coverage(n, 1.0, grain, 1.0, reps, 37 + n), 0.94) << "rounded, n " << n;
  }
}

// upload_spool's syscalls (issue 11): 0.0438x in every round. Six rounds decide it.
TEST(ZeroSpread, IdenticalRoundsDecideWithoutARankTest) {
  std::vector<double> before(6, 2992), after(6, 131);
  auto r = paired_ratio(before, after, 1);
  EXPECT_TRUE(r.zero_spread);
  EXPECT_EQ(r.p_wilcoxon, 0.0);
  EXPECT_EQ(r.wilcoxon_method, "zero-spread");
  EXPECT_DOUBLE_EQ(r.ci.lo, r.ci.hi);
  const auto eq = SameMeans::Equivalent;
  EXPECT_EQ(decide_verdicts({state_tests(r, 0.02, Better::Lower, eq)}, 0.05 / 36)[0].verdict, Verdict::Better);
  auto same = paired_ratio(before, before, 1);
  EXPECT_EQ(same.p_wilcoxon, 1.0);
  EXPECT_EQ(decide_verdicts({state_tests(same, 0.02, Better::Lower, eq)}, 0.05)[0].verdict, Verdict::Same);
  // One round that differs brings the rank test back.
  after[3] = 132;
  EXPECT_FALSE(paired_ratio(before, after, 1).zero_spread);
}

TEST(Power, MinimumRoundsFollowTheFloorInTheArchitecture) {
  EXPECT_EQ(min_rank_rounds(0.05), 6);
  EXPECT_EQ(min_rank_rounds(0.05 / (4 * 9)), 11);  // 4 looks, 9 gated comparisons
  EXPECT_EQ(min_rank_rounds(0.05 / 4), 8);
}

TEST(Power, DetectableEffectGrowsWithSpreadAndShrinksWithRounds) {
  std::mt19937_64 g(5);
  std::normal_distribution<double> z(0, 0.02);
  std::vector<double> r10(10), r30(30);
  for (auto& v : r10) v = z(g);
  for (auto& v : r30) v = z(g);
  auto d10 = detectable_effect(r10, 0.05, 0.02), d30 = detectable_effect(r30, 0.05, 0.02);
  ASSERT_TRUE(d10 && d30);
  EXPECT_GT(*d10, *d30);
  EXPECT_GT(*d30, 0.02);  // never below the band
  EXPECT_LT(*d10, 0.10);
  std::vector<double> wide = r10;
  for (auto& v : wide) v *= 3;
  EXPECT_GT(*detectable_effect(wide, 0.05, 0.02), *d10);
  // Six rounds at a family's level cannot reject: no resolution at all, said as null.
  EXPECT_FALSE(detectable_effect(std::vector<double>(r10.begin(), r10.begin() + 6), 0.05 / 36, 0.02));
  // Exact counts: the band is the resolution.
  EXPECT_DOUBLE_EQ(*detectable_effect(std::vector<double>(6, -3.1), 0.05 / 36, 0.02), 0.02);
}
