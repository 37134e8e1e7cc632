// The budgeted design's looks and their levels: the spending boundary against published
// boundaries and against simulated walks, and the bookkeeping of tests at checkpoints.
#include "stats/spending.hpp"

#include <gtest/gtest.h>

#include <boost/math/distributions/normal.hpp>
#include <cmath>
#include <random>
#include <vector>

#include "stats/power.hpp"
#include "stats/sequential.hpp"

namespace ps = perfgate::stats;

namespace {

double z_of(double two_sided_level) {
  return boost::math::quantile(
      boost::math::complement(boost::math::normal_distribution<double>(), two_sided_level / 2));
}

}  // namespace

TEST(Spending, PocockSpendingSpendsAlphaOverTheBudget) {
  EXPECT_DOUBLE_EQ(ps::pocock_spending(0.05, 0), 0);
  EXPECT_DOUBLE_EQ(ps::pocock_spending(0.05, 1), 0.05);
  EXPECT_DOUBLE_EQ(ps::pocock_spending(0.05, 2), 0.05);       // a budget overrun spends no more
  EXPECT_NEAR(ps::budgeted_spending(0.05, 0), 0.008, 1e-15);  // 0.16 alpha at once
  EXPECT_NEAR(ps::budgeted_spending(0.05, 1), 0.036, 1e-15);  // 28% kept for the last test
  // ... so that ab's first look, at 8 rounds, can decide: 8 agreeing rounds reach 2 / 2^8.
  EXPECT_EQ(ps::min_rank_rounds(ps::budgeted_spending(0.05, 0)), 8);
  EXPECT_NEAR(ps::pocock_spending(0.05, 0.5), 0.05 * std::log1p((std::exp(1.0) - 1) / 2), 1e-15);
}

// Five equally spaced looks under Pocock-type spending at a two-sided 0.05: the boundaries
// 2.438, 2.427, 2.410, 2.397, 2.386 (Jennison & Turnbull, "Group Sequential Methods", 2000,
// table 7.6; R gsDesign sfLDPocock gives the same).
TEST(Spending, FiveEqualLooksMatchPublishedPocockTypeBoundaries) {
  ps::SpendingBoundary b(0.05);
  const double published[] = {2.438, 2.427, 2.410, 2.397, 2.386};
  for (int k = 1; k <= 5; ++k) {
    const double level = b.look(10 * k, ps::pocock_spending(0.05, k / 5.0));
    EXPECT_NEAR(z_of(level), published[k - 1], 0.003) << "look " << k;
  }
  EXPECT_DOUBLE_EQ(b.spent(), 0.05);
}

// The boundary's promise checked by brute force: Gaussian rounds with nothing changed, a test
// at each of the 27 growing looks, 20000 runs: a crossing at some look in about 5% of them.
TEST(Spending, SimulatedWalksCrossAtSomeLookInAlphaOfRuns) {
  const auto looks = ps::growing_schedule(ps::kBudgetedFirstLook, ps::kBudgetedLastLook);
  ASSERT_EQ(looks.size(), 27u);
  std::vector<double> levels;
  ps::SpendingBoundary b(0.05);
  for (std::size_t k = 0; k < looks.size(); ++k)
    levels.push_back(b.look(looks[k], k + 1 == looks.size()
                                          ? 0.05
                                          : ps::budgeted_spending(0.05, static_cast<double>(looks[k]) / looks.back())));
  std::vector<double> edges;
  for (double l : levels) edges.push_back(z_of(l));
  std::mt19937_64 rng(48);
  std::normal_distribution<double> round(0, 1);
  int crossed = 0;
  const int runs = 20000;
  for (int r = 0; r < runs; ++r) {
    double sum = 0;
    int n = 0;
    for (std::size_t k = 0; k < looks.size(); ++k) {
      for (; n < looks[k]; ++n) sum += round(rng);
      if (std::abs(sum) / std::sqrt(n) >= edges[k]) {
        ++crossed;
        break;
      }
    }
  }
  // Binomial sd at 0.05 of 20000: 0.0015; the band is three of them.
  EXPECT_NEAR(static_cast<double>(crossed) / runs, 0.05, 0.0046);
  // The looks share rounds, and the boundary does not pay for that twice: their levels add up to
  // more than alpha, where Bonferroni's could never exceed it.
  double sum = 0;
  for (double l : levels) sum += l;
  EXPECT_GT(sum, 0.05 * 1.5);
}

TEST(Spending, ALookNeedsNewRounds) {
  ps::SpendingBoundary b(0.05);
  b.look(10, 0.01);
  EXPECT_THROW(b.look(10, 0.02), std::invalid_argument);
  EXPECT_THROW(ps::SpendingBoundary(0), std::invalid_argument);
}

TEST(Sequential, GrowingScheduleLooksEveryFifth) {
  EXPECT_EQ(ps::growing_schedule(10, 30), (std::vector<int>{10, 12, 14, 16, 19, 22, 26, 30}));
  EXPECT_EQ(ps::growing_schedule(3, 6), (std::vector<int>{3, 4, 5, 6}));  // at least a round each
  EXPECT_EQ(ps::growing_schedule(5, 5), (std::vector<int>{5}));
  EXPECT_THROW(ps::growing_schedule(0, 7), std::invalid_argument);
  EXPECT_THROW(ps::growing_schedule(10, 9), std::invalid_argument);
}

TEST(Sequential, BudgetedLooksTestAtEachLookAndOnceMoreWhereTheBudgetEnds) {
  ps::BudgetedLooks b({10, 20, 40, 80}, 100.0, 0.05);
  using S = ps::BudgetedLooks::Step;
  EXPECT_EQ(b.level_of_last_test(), 0.05);                                      // before any test
  EXPECT_EQ(b.at(10, 11, 20.0), S::Test);                                       // the first look, 20% into the budget
  EXPECT_NEAR(b.level_of_last_test(), ps::budgeted_spending(0.05, 0.2), 1e-9);  // a first look spends its share
  EXPECT_EQ(b.at(11, 12, 22.0), S::Continue);                                   // between looks, inside the budget
  EXPECT_EQ(b.at(20, 21, 40.0), S::Test);                                       // the second look
  // It spends what was spent since the first, and tests at more: the rounds they share repay some.
  EXPECT_GT(b.level_of_last_test(), ps::budgeted_spending(0.05, 0.4) - ps::budgeted_spending(0.05, 0.2));
  EXPECT_EQ(b.at(30, 31, 96.0), S::Continue);   // 31 rounds at this pace: 99.2 s, still fits
  EXPECT_EQ(b.at(31, 32, 99.0), S::TestLast);   // 32 would take 102 s: the last test, before look 3
  EXPECT_GT(b.level_of_last_test(), 0.05 / 4);  // most of the alpha left is spent there
  EXPECT_EQ(b.at(32, 33, 99.5), S::Continue);   // nothing is tested after the last
  EXPECT_EQ(b.tested(), (std::vector<int>{10, 20, 31}));
}

TEST(Sequential, ABudgetTooShortForTheFirstLookStillTestsWhereItEnds) {
  // Checkpoints from 6 rounds (one test at the whole alpha can decide there) before the first look.
  EXPECT_EQ(ps::budget_checkpoints({10, 20}, 6),
            (std::vector<int>{6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20}));
  ps::BudgetedLooks b({10, 20, 40}, 4.0, 0.05);
  using S = ps::BudgetedLooks::Step;
  EXPECT_EQ(b.at(6, 7, 3.0), S::Continue);  // 7 rounds at this pace: 3.5 s, fits
  EXPECT_EQ(b.at(7, 8, 3.9), S::TestLast);  // 8 would take 4.46 s: the one test, at the whole alpha
  EXPECT_NEAR(b.level_of_last_test(), 0.05, 1e-9);
}

TEST(Sequential, AHardStopSpendsWhatIsLeftOnceOnNewRounds) {
  ps::BudgetedLooks b({10, 20, 40}, 100.0, 0.05);
  b.at(10, 11, 5.0);  // a quarter of the rounds' cap, more than 5% of the time: spends that share
  EXPECT_NEAR(b.level_of_last_test(), ps::budgeted_spending(0.05, 0.25), 1e-9);
  const double first = b.level_of_last_test();
  b.end_at(10);  // no round since the test: nothing to test again
  EXPECT_EQ(b.level_of_last_test(), first);
  b.end_at(14);
  EXPECT_GT(b.level_of_last_test(), 0.05 / 2);  // nearly all of alpha was left
  b.end_at(15);                                 // once only
  EXPECT_EQ(b.tested(), (std::vector<int>{10}));
}

TEST(Sequential, WithoutABudgetOrBeforeItTheRoundsShareSpends) {
  ps::BudgetedLooks b({10, 20}, 0.0, 0.05);  // no budget: tests at the looks only
  using S = ps::BudgetedLooks::Step;
  EXPECT_EQ(b.at(10, 15, 1.0), S::Test);
  EXPECT_NEAR(b.level_of_last_test(), ps::budgeted_spending(0.05, 0.5), 1e-9);
  EXPECT_EQ(b.at(15, 20, 2.0), S::Continue);
  EXPECT_EQ(b.at(20, 0, 3.0), S::TestLast);  // the last look
  EXPECT_EQ(b.at(20, 0, 3.0), S::Continue);
  EXPECT_EQ(b.tested().size(), 2u);
}
