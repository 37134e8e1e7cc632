// The three answers and how they are earned (stats/verdict.hpp): intervals against the band,
// states from rounds, error rates by simulation, a family's "the same" and the level each verdict
// was decided at.
#include "stats/verdict.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "perfgate/enum_names.hpp"
#include "stats/paired.hpp"

namespace ps = perfgate::stats;

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

TEST(Verdict, IntervalInsideTheBandIsTheSame) {
  const auto eq = ps::SameMeans::Equivalent;
  // A 1% change, however significant, is inside the +-2% band: the same.
  EXPECT_EQ(ps::decide_interval(with_ci(0.985, 0.995), 0.001, 0.05, 0.02, ps::Better::Lower, eq), ps::Verdict::Same);
  // Reaching across the band's edge is neither outside nor inside it: cannot tell.
  EXPECT_EQ(ps::decide_interval(with_ci(0.95, 0.99), 0.001, 0.05, 0.02, ps::Better::Lower, eq),
            ps::Verdict::CannotTell);
  // No-regress asks only "not worse beyond the band": an interval reaching -5% is not worse, and
  // not "the same", which is inside the band on both sides.
  EXPECT_EQ(ps::decide_interval(with_ci(0.95, 0.99), 0.001, 0.05, 0.02, ps::Better::Lower, ps::SameMeans::NotWorse),
            ps::Verdict::NotWorse);
  EXPECT_EQ(ps::decide_interval(with_ci(0.985, 0.995), 0.001, 0.05, 0.02, ps::Better::Lower, ps::SameMeans::NotWorse),
            ps::Verdict::Same);
}

TEST(Verdict, OutsideBandButNotSignificantCannotTell) {
  const auto eq = ps::SameMeans::Equivalent;
  EXPECT_EQ(ps::decide_interval(with_ci(0.80, 0.90), 0.20, 0.05, 0.02, ps::Better::Lower, eq), ps::Verdict::CannotTell);
  EXPECT_EQ(ps::decide_interval(with_ci(0.80, 0.90), 0.05, 0.05, 0.02, ps::Better::Lower, eq), ps::Verdict::CannotTell);
}

TEST(Verdict, EachDirection) {
  // Smaller AFTER: better when lower is better, worse when higher is better; and vice versa.
  const auto eq = ps::SameMeans::Equivalent;
  EXPECT_EQ(ps::decide_interval(with_ci(0.80, 0.90), 0.001, 0.05, 0.02, ps::Better::Lower, eq), ps::Verdict::Better);
  EXPECT_EQ(ps::decide_interval(with_ci(0.80, 0.90), 0.001, 0.05, 0.02, ps::Better::Higher, eq), ps::Verdict::Worse);
  EXPECT_EQ(ps::decide_interval(with_ci(1.10, 1.30), 0.001, 0.05, 0.02, ps::Better::Lower, eq), ps::Verdict::Worse);
  EXPECT_EQ(ps::decide_interval(with_ci(1.10, 1.30), 0.001, 0.05, 0.02, ps::Better::Higher, eq), ps::Verdict::Better);
}

TEST(Verdict, Names) {
  EXPECT_EQ(perfgate::name_of(ps::Verdict::Better), "better");
  EXPECT_EQ(perfgate::name_of(ps::Verdict::Worse), "worse");
  EXPECT_EQ(perfgate::name_of(ps::Verdict::Same), "the same");
  EXPECT_EQ(perfgate::name_of(ps::Verdict::CannotTell), "cannot tell");
}

namespace {
// Per-round log-ratios: `shift` plus normal noise of sd `sigma`, from one seeded stream.
std::vector<double> rounds(std::mt19937_64& rng, int n, double shift, double sigma) {
  std::normal_distribution<double> noise(shift, sigma);
  std::vector<double> out;
  for (int i = 0; i < n; ++i) out.push_back(noise(rng));
  return out;
}

ps::Verdict verdict_of_rounds(const std::vector<double>& logs, ps::SameMeans same, double alpha = 0.05) {
  ps::PairedRatio r;
  r.log_scale = true;
  r.log_ratios = logs;
  r.n = logs.size();
  return ps::decide_verdicts({ps::state_tests(r, 0.02, ps::Better::Lower, same)}, alpha)[0].verdict;
}
}  // namespace

TEST(Verdict, FiveRoundsOfTwiceTheCostCannotPass) {
  // The case: 2.2x the CPU in five rounds. The exact one-sided test cannot reach 0.025
  // with five rounds (1/32 > 0.025), so it is not "worse" — and never "the same".
  const std::vector<double> logs(5, std::log(2.2));
  std::vector<double> jittered;
  for (std::size_t i = 0; i < logs.size(); ++i) jittered.push_back(logs[i] + 0.01 * static_cast<double>(i));
  EXPECT_EQ(verdict_of_rounds(jittered, ps::SameMeans::NotWorse), ps::Verdict::CannotTell);
  // Six rounds reach it (1/64 < 0.025).
  jittered.push_back(std::log(2.2) + 0.05);
  EXPECT_EQ(verdict_of_rounds(jittered, ps::SameMeans::NotWorse), ps::Verdict::Worse);
}

TEST(Verdict, StatesFromRounds) {
  std::mt19937_64 rng(7);
  EXPECT_EQ(verdict_of_rounds(rounds(rng, 40, 0.0, 0.005), ps::SameMeans::Equivalent), ps::Verdict::Same);
  EXPECT_EQ(verdict_of_rounds(rounds(rng, 40, 0.10, 0.01), ps::SameMeans::Equivalent), ps::Verdict::Worse);
  EXPECT_EQ(verdict_of_rounds(rounds(rng, 40, -0.10, 0.01), ps::SameMeans::Equivalent), ps::Verdict::Better);
  // Noise far wider than the band over few rounds: neither.
  EXPECT_EQ(verdict_of_rounds(rounds(rng, 8, 0.0, 0.2), ps::SameMeans::Equivalent), ps::Verdict::CannotTell);
}

// The rule's error rates by simulation (2,000 runs of 30 rounds each, sd 3% per round, band 2%,
// alpha 0.05): nothing moved → "worse" at most alpha/2 of the time; a true +4% (beyond the band)
// → "the same" at most alpha/2 of the time (coverage of the same); a true +10% caught nearly
// always.
TEST(Verdict, SimulatedErrorRatesStayUnderAlpha) {
  std::mt19937_64 rng(20261205);
  const int runs = 2000;
  int aa_worse = 0, beyond_same = 0, big_caught = 0, aa_same = 0;
  for (int i = 0; i < runs; ++i) {
    const auto aa = verdict_of_rounds(rounds(rng, 30, 0.0, 0.03), ps::SameMeans::NotWorse);
    aa_worse += aa == ps::Verdict::Worse;
    aa_same += aa == ps::Verdict::Same;
    beyond_same +=
        verdict_of_rounds(rounds(rng, 30, std::log(1.04), 0.03), ps::SameMeans::NotWorse) == ps::Verdict::Same;
    big_caught +=
        verdict_of_rounds(rounds(rng, 30, std::log(1.10), 0.03), ps::SameMeans::NotWorse) == ps::Verdict::Worse;
  }
  EXPECT_LE(aa_worse, runs * 0.025);
  EXPECT_LE(beyond_same, runs * 0.025);
  EXPECT_GE(big_caught, runs * 0.95);
  EXPECT_GE(aa_same, runs * 0.5);  // and "the same" is usually earned when nothing moved
}

TEST(Verdict, RoundsToDecideGrowWithTheSpread) {
  std::mt19937_64 rng(3);
  const auto narrow = rounds(rng, 10, 0.0, 0.02), wide = rounds(rng, 10, 0.0, 0.08);
  const auto a = ps::rounds_to_decide(narrow, 0.05, 0.02, ps::SameMeans::NotWorse, ps::Better::Lower);
  const auto b = ps::rounds_to_decide(wide, 0.05, 0.02, ps::SameMeans::NotWorse, ps::Better::Lower);
  ASSERT_TRUE(a && b);
  EXPECT_LT(*a, *b);
}

TEST(Verdict, ClaimMissedWhenEvenTheBestEndFallsShort) {
  EXPECT_TRUE(ps::misses_factor(with_ci(0.2, 0.3), 10, ps::Better::Lower));
  EXPECT_FALSE(ps::misses_factor(with_ci(0.05, 0.3), 10, ps::Better::Lower));
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

namespace {
// One run of a family of `m` gated comparisons, each `rounds` rounds at sd `sigma`, the first
// shifted by `first_shift`: the verdicts at alpha over `looks` looks.
std::vector<ps::Decided> family_run(std::mt19937_64& rng, int m, int n, double sigma, double first_shift,
                                    double alpha) {
  std::vector<ps::StateTests> tests;
  for (int i = 0; i < m; ++i) {
    ps::PairedRatio r;
    r.log_scale = true;
    r.log_ratios = rounds(rng, n, i == 0 ? first_shift : 0.0, sigma);
    r.n = r.log_ratios.size();
    tests.push_back(ps::state_tests(r, 0.02, ps::Better::Lower, ps::SameMeans::NotWorse));
  }
  return ps::decide_verdicts(tests, alpha);
}
bool passes(const std::vector<ps::Decided>& d) {
  return std::all_of(d.begin(), d.end(),
                     [](const auto& x) { return x.verdict == ps::Verdict::Same || x.verdict == ps::Verdict::Better; });
}
}  // namespace

// "the same" is an intersection-union test (stats/verdict.hpp): a family of 20 unchanged
// benchmarks, 10 rounds each at sd 1% per round, tested at one look of 7 (alpha 0.05 / 7), is
// "the same" on nearly every benchmark, where Holm across the 20 left it unreachable before
// round 13 — while a run whose one benchmark moved +4% (beyond the 2% band) still passes at
// most alpha / 7 / 2 of the time, and 20 unchanged benchmarks give a false "worse" at most
// that often too (Holm stays on "worse"). 1,000 seeded runs each.
TEST(Verdict, AFamilyOfTwentySaysTheSameWithoutDividingItsAlpha) {
  std::mt19937_64 rng(48);
  const int runs = 1000, m = 20, n = 10;
  const double alpha = 0.05 / 7;
  int same = 0, false_worse = 0, passed_regression = 0;
  for (int i = 0; i < runs; ++i) {
    for (const auto& d : family_run(rng, m, n, 0.01, 0.0, alpha)) {
      same += d.verdict == ps::Verdict::Same;
      false_worse += d.verdict == ps::Verdict::Worse;
    }
    passed_regression += passes(family_run(rng, m, n, 0.01, std::log(1.04), alpha));
  }
  EXPECT_GE(same, runs * m * 0.9);
  EXPECT_LE(false_worse, runs * alpha);  // at most one false "worse" in any run, in alpha of runs
  EXPECT_LE(passed_regression, runs * alpha / 2 + 3);
}

// The interval shown beside a verdict is the one it was decided on: "the same" at the look's
// level, two one-sided tests at alpha (the interval at 1 - 2 alpha), "worse" at Holm's
// multiplier for its place.
TEST(Verdict, TheDecidingLevelFollowsTheVerdict) {
  std::mt19937_64 rng(5);
  std::vector<ps::StateTests> tests;
  for (double shift : {0.0, std::log(1.3), 0.0}) {
    ps::PairedRatio r;
    r.log_scale = true;
    r.log_ratios = rounds(rng, 30, shift, 0.005);
    r.n = 30;
    tests.push_back(ps::state_tests(r, 0.02, ps::Better::Lower, ps::SameMeans::NotWorse));
  }
  const auto d = ps::decide_verdicts(tests, 0.01);
  EXPECT_EQ(d[0].verdict, ps::Verdict::Same);
  EXPECT_DOUBLE_EQ(d[0].confidence, 0.98);
  EXPECT_EQ(d[1].verdict, ps::Verdict::Worse);
  EXPECT_DOUBLE_EQ(d[1].confidence, 1 - 0.01 / 3);  // the smallest p_worse: Holm's first step, x3
  EXPECT_EQ(d[2].verdict, ps::Verdict::Same);
}
