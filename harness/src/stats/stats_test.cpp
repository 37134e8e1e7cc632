// Reference values come from published tables and worked examples, or from a computation shown
// beside the check (by hand, or by brute-force enumeration written out in this file): never
// from running the code under test.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <stdexcept>
#include <vector>

#include "perfgate/percentile.hpp"
#include "stats/multiple.hpp"
#include "stats/paired.hpp"
#include "stats/power.hpp"
#include "stats/rank_tests.hpp"
#include "stats/sequential.hpp"
#include "stats/summary.hpp"
#include "stats/verdict.hpp"

namespace ps = perfgate::stats;

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
  EXPECT_TRUE(std::isnan(s.median_ci[0]) && std::isnan(s.median_ci_coverage));  // one value: no interval
}

// The relative spread is mad / |median|, what `perfgate compare` prints as ±; none for a median of 0.
TEST(Summary, RelativeSpreadIsMadOverTheMedian) {
  EXPECT_DOUBLE_EQ(ps::summarize({8, 10, 11, 12, 20}).spread, 1.0 / 11);
  EXPECT_DOUBLE_EQ(ps::summarize({-8, -10, -11, -12, -20}).spread, 1.0 / 11);
  EXPECT_TRUE(std::isnan(ps::summarize({-1, 0, 1}).spread));
  EXPECT_DOUBLE_EQ(ps::summarize({7.5}).spread, 0.0);
}

TEST(Summary, MedianIntervalFromOrderStatistics) {
  // n = 5: only [min, max] is possible, covering 1 - 2/32 = 93.75%.
  const ps::Summary five = ps::summarize({5, 1, 4, 2, 3});
  EXPECT_EQ(five.median_ci, (std::array<double, 2>{1, 5}));
  EXPECT_DOUBLE_EQ(five.median_ci_coverage, 0.9375);
  // n = 20: the 6th and 15th values cover 95.86% (the textbook pair: 1 - 2 * 21700 / 2^20).
  std::vector<double> twenty;
  for (int i = 20; i >= 1; --i) twenty.push_back(i);
  const ps::Summary s = ps::summarize(twenty);
  EXPECT_EQ(s.median_ci, (std::array<double, 2>{6, 15}));
  EXPECT_NEAR(s.median_ci_coverage, 1 - 2 * 21700.0 / 1048576, 1e-12);
  // Thousands of values: the binomial terms do not underflow; the pair closes in around the median.
  std::vector<double> many(5000);
  for (std::size_t i = 0; i < many.size(); ++i) many[i] = static_cast<double>(i);
  const auto iv = ps::median_interval_sorted(many);
  EXPECT_GE(iv.coverage, 0.95);
  EXPECT_LT(iv.coverage, 0.952);
  EXPECT_NEAR(iv.lo, 2430, 3);
  EXPECT_NEAR(iv.hi, 2569, 3);
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

TEST(PairedRatio, ZeroCountsGiveTheIntervalOfSortedMediansOverTheSameResamples) {
  // The resampled medians are taken by selection; the interval must be the one a full sort of
  // each resample gives, at odd and even round counts.
  for (const std::size_t n : {7u, 8u}) {
    std::vector<double> before, after;
    for (std::size_t i = 0; i < n; ++i) {
      before.push_back(static_cast<double>((i * 5) % 7));
      after.push_back(static_cast<double>((i * 3) % 6));
    }
    const ps::PairedRatio r = ps::paired_ratio(before, after, 21, 500, 0.9);
    const auto sorted_median = [](const std::vector<double>& v, const std::vector<std::size_t>& idx) {
      std::vector<double> x;
      for (auto i : idx) x.push_back(v[i]);
      return perfgate::percentile(x, 0.5);
    };
    const ps::Interval expected = ps::bootstrap_ci(n, 21, 500, 0.9, [&](const std::vector<std::size_t>& idx) {
      const double b = sorted_median(before, idx), a = sorted_median(after, idx);
      return b == 0.0 ? (a == 0.0 ? 1.0 : std::numeric_limits<double>::infinity()) : a / b;
    });
    EXPECT_EQ(r.ci.lo, expected.lo) << n;
    EXPECT_EQ(r.ci.hi, expected.hi) << n;
  }
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

TEST(Sequential, LookSchedule) {
  // 8 + 22k/3 for k = 0..3 = 8, 15.33, 22.67, 30 -> 8, 15, 23, 30.
  EXPECT_EQ(ps::look_schedule(8, 30, 4), (std::vector<int>{8, 15, 23, 30}));
  EXPECT_EQ(ps::look_schedule(10, 10, 4), (std::vector<int>{10}));
  // 5, 5.67, 6.33, 7 -> 5, 6, 6, 7 -> duplicates removed.
  EXPECT_EQ(ps::look_schedule(5, 7, 4), (std::vector<int>{5, 6, 7}));
  EXPECT_EQ(ps::look_schedule(5, 20, 2), (std::vector<int>{5, 20}));
  EXPECT_THROW(ps::look_schedule(10, 5, 4), std::invalid_argument);
}

TEST(Sequential, NextLookFitsProjectsTheRoundsToComeAtTheirPace) {
  EXPECT_TRUE(ps::next_look_fits(10.0, 0.25, 40, 80, 20.0));   // exactly the budget
  EXPECT_FALSE(ps::next_look_fits(10.0, 0.25, 40, 80, 19.9));  // a hair over
  EXPECT_TRUE(ps::next_look_fits(1000.0, 25, 40, 80, 0));      // no budget
  EXPECT_THROW(ps::next_look_fits(1.0, 0.1, 0, 10, 5.0), std::invalid_argument);
  // Rounds that got cheaper (a Google Benchmark pair running only its undecided benchmarks):
  // 40 more at 0.01 s fit where the pace so far (0.25 s) would not.
  EXPECT_TRUE(ps::next_look_fits(10.0, 0.01, 40, 80, 11.0));
  EXPECT_FALSE(ps::next_look_fits(10.0, 0.25, 40, 80, 11.0));
}

TEST(Sequential, BudgetCheckpointsGrowFivePercentFromFirstToLastLook) {
  const auto c = ps::budget_checkpoints({10, 20, 40});
  EXPECT_EQ(c.front(), 10);
  EXPECT_EQ(c.back(), 40);
  for (std::size_t i = 1; i < c.size(); ++i) {
    EXPECT_GT(c[i], c[i - 1]);
    EXPECT_LE(c[i], std::max(c[i - 1] + 1, c[i - 1] * 21 / 20));
  }
  EXPECT_THROW(ps::budget_checkpoints({}), std::invalid_argument);
}

TEST(Sequential, BonferroniAlphaPerLook) {
  EXPECT_DOUBLE_EQ(ps::alpha_per_look(0.05, 4), 0.0125);
  EXPECT_DOUBLE_EQ(ps::alpha_per_look(0.05, 1), 0.05);
  EXPECT_THROW(ps::alpha_per_look(0.05, 0), std::invalid_argument);
}
