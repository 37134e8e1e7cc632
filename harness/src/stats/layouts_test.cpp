// Verdicts over layouts on scripted samples of a known layout effect (issue 50): per-layout
// speed offsets drawn uniformly from ±5% (sd 2.9%), independently for each side, per-sample
// noise 2%, K = 8 layouts of 3 paired rounds each, noise band 2%, alpha 0.05.
#include "stats/layouts.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>

namespace perfgate::stats {
namespace {

std::vector<LayoutPair> simulated(std::mt19937_64& rng, double change, int k = 8, int rounds = 3, double offset = 0.05,
                                  double noise = 0.02) {
  std::uniform_real_distribution<double> layout(-offset, offset);
  std::normal_distribution<double> sample(0, noise);
  std::vector<LayoutPair> out(k);
  for (auto& l : out) {
    const double before = 1 + layout(rng), after = (1 + layout(rng)) * (1 + change);
    for (int r = 0; r < rounds; ++r) {
      l.before.push_back(100 * before * std::exp(sample(rng)));
      l.after.push_back(100 * after * std::exp(sample(rng)));
    }
  }
  return out;
}

int count(double change, Verdict v, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  int n = 0;
  for (int run = 0; run < 100; ++run)
    n += layout_effect(simulated(rng, change), 0.02, Better::Lower, SameMeans::Equivalent, 0.05).decided.verdict == v;
  return n;
}

// Thirty blocks of 100 simulated runs (3,000 in all; each block as the 100). No change is
// called "better" or "worse" in 10 of 3,000 (0.33%: at most 1 in 100 is the bar; a
// block holds 2 about once in 25), and a real +10% is "worse" in 2,967 of 3,000 (98.9%).
TEST(Layouts, NoChangeIsCalledAChangeInUnderOneRunInAHundred) {
  int alarms = 0, blocks_within = 0;
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    const int block = count(0, Verdict::Worse, seed) + count(0, Verdict::Better, seed);
    alarms += block;
    blocks_within += block <= 1;
  }
  std::printf("no change, K = 8 of 3 rounds, ±5%% layouts: %d of 3000 called a change\n", alarms);
  EXPECT_LE(alarms, 30);         // under 1%
  EXPECT_GE(blocks_within, 27);  // 9 blocks in 10 hold the "at least 99 of 100"
}

TEST(Layouts, ARealTenPercentSlowdownIsCaughtInNinetyFiveOfAHundred) {
  int caught = 0, blocks_within = 0;
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    const int block = count(0.10, Verdict::Worse, seed);
    caught += block;
    blocks_within += block >= 95;
  }
  std::printf("+10%%, K = 8 of 3 rounds, ±5%% layouts: %d of 3000 called worse\n", caught);
  EXPECT_GE(caught, 2850);  // 95%
  EXPECT_GE(blocks_within, 27);
}

TEST(Layouts, OneLayoutPairCannotDecideWhatLayoutsMove) {
  // The same question on one layout per side, decided by its rounds alone: a layout's offset
  // reads as a change. Over eight layouts it does not.
  std::mt19937_64 rng(7);
  int wrong_single = 0, wrong_over = 0;
  for (int run = 0; run < 100; ++run) {
    const auto many = simulated(rng, 0, 8, 24);
    wrong_over +=
        layout_effect(many, 0.02, Better::Lower, SameMeans::Equivalent, 0.05).decided.verdict == Verdict::Worse;
    // The first layout pair's 24 rounds alone, each its own unit (as a single-build A/B sees them):
    std::vector<LayoutPair> single;
    for (std::size_t r = 0; r < many[0].before.size(); ++r) single.push_back({{many[0].before[r]}, {many[0].after[r]}});
    const auto v = layout_effect(single, 0.02, Better::Lower, SameMeans::Equivalent, 0.05).decided.verdict;
    wrong_single += v == Verdict::Worse || v == Verdict::Better;
  }
  EXPECT_LE(wrong_over, 1);
  EXPECT_GE(wrong_single, 20);  // a ±5% layout offset against a 2% band: a change, often
}

TEST(Layouts, LayoutsDominatingSayMoreLayoutsNotMoreRounds) {
  // Four layouts moving the ratio by ±4%, rounds nearly noiseless: undecided, and the layouts are why.
  const std::vector<double> offsets = {1.04, 0.97, 1.01, 0.96};
  std::vector<LayoutPair> layouts;
  for (double o : offsets) layouts.push_back({{100, 100.1, 99.9}, {100 * o, 100.1 * o, 99.9 * o}});
  const auto e = layout_effect(layouts, 0.02, Better::Lower, SameMeans::Equivalent, 0.05);
  EXPECT_EQ(e.decided.verdict, Verdict::CannotTell);
  EXPECT_TRUE(e.more_layouts);
  EXPECT_GT(e.layout_share, 0.99);
  ASSERT_TRUE(e.layouts_to_decide.has_value());
  EXPECT_GT(*e.layouts_to_decide, 4);
  EXPECT_EQ(e.layouts, 4u);
  EXPECT_EQ(e.rounds, 12u);
  // Detectable: the band plus the t quantiles' worth of the layouts' standard error, far above 2%.
  EXPECT_NEAR(e.detectable, std::exp(std::log1p(0.02) + (3.182446305 + 0.978472312) * e.log_se) - 1, 1e-6);
  EXPECT_GT(e.detectable, 0.05);
}

TEST(Layouts, SpreadIsHalfTheRangeOfASidesLayoutMedians) {
  // BEFORE's layouts at 98, 100, 102: ±2% around their geometric mean; AFTER's all at 90.
  std::vector<LayoutPair> layouts = {
      {{98, 98, 98}, {90, 90, 90}}, {{100, 100, 100}, {90, 90, 90}}, {{102, 102, 102}, {90, 90, 90}}};
  const auto e = layout_effect(layouts, 0.02, Better::Lower, SameMeans::Equivalent, 0.05);
  EXPECT_NEAR(e.spread_before, 0.02, 0.0002);
  EXPECT_NEAR(e.spread_after, 0.0, 1e-12);
  EXPECT_NEAR(e.ratio, std::exp((std::log(90 / 98.) + std::log(0.9) + std::log(90 / 102.)) / 3), 1e-12);
  EXPECT_EQ(e.decided.verdict, Verdict::Better);
  EXPECT_LT(e.ci.hi, 0.98);
}

TEST(Layouts, ARateIsWorseWhenItFalls) {
  std::vector<LayoutPair> layouts;
  for (double o : {1.0, 1.01, 0.99, 1.0, 1.005, 0.995}) layouts.push_back({{1000 * o, 1001 * o}, {800 * o, 801 * o}});
  EXPECT_EQ(layout_effect(layouts, 0.02, Better::Higher, SameMeans::Equivalent, 0.05).decided.verdict, Verdict::Worse);
  EXPECT_EQ(layout_effect(layouts, 0.02, Better::Lower, SameMeans::Equivalent, 0.05).decided.verdict, Verdict::Better);
}

TEST(Layouts, BadInputIsRefused) {
  EXPECT_THROW(layout_effect({{{1}, {1}}}, 0.02, Better::Lower, SameMeans::Equivalent, 0.05), std::invalid_argument);
  EXPECT_THROW(layout_effect({{{1}, {1}}, {{1, 2}, {1}}}, 0.02, Better::Lower, SameMeans::Equivalent, 0.05),
               std::invalid_argument);
  EXPECT_THROW(layout_effect({{{1}, {0}}, {{1}, {1}}}, 0.02, Better::Lower, SameMeans::Equivalent, 0.05),
               std::invalid_argument);
}

// Pooling (Paull's rule) over layout spreads from none to ±5%, K = 4 and 8, 5 rounds a layout,
// 2,000 runs a cell (seed 11): no change is called a change at most 1% of the time (20 of 2,000,
// at ±5% and K = 4), a change of +3% (beyond the 2% band) is called "not worse" at most 2.6%
// (52; the test's level is 5%), +8% never; and where the layouts move nothing, four layouts of
// five rounds say "not worse" to no change in 8 runs of 10, which four pair means alone could not.
TEST(Layouts, PoolingQuietLayoutsKeepsEveryErrorWithinItsLevel) {
  for (double offset : {0.0, 0.005, 0.01, 0.02, 0.05}) {
    for (int k : {4, 8}) {
      std::mt19937_64 rng(11);
      int changed = 0, unchanged = 0, green8 = 0, green3 = 0;
      auto green = [](const LayoutEffect& e) {
        return e.decided.verdict == Verdict::NotWorse || e.decided.verdict == Verdict::Same;
      };
      for (int run = 0; run < 2000; ++run) {
        const auto none =
            layout_effect(simulated(rng, 0, k, 5, offset), 0.02, Better::Lower, SameMeans::NotWorse, 0.05);
        changed += none.decided.verdict == Verdict::Worse || none.decided.verdict == Verdict::Better;
        unchanged += green(none);
        green8 +=
            green(layout_effect(simulated(rng, 0.08, k, 5, offset), 0.02, Better::Lower, SameMeans::NotWorse, 0.05));
        green3 +=
            green(layout_effect(simulated(rng, 0.03, k, 5, offset), 0.02, Better::Lower, SameMeans::NotWorse, 0.05));
      }
      SCOPED_TRACE("offset " + std::to_string(offset) + ", K " + std::to_string(k));
      EXPECT_LE(changed, 20);
      EXPECT_LE(green3, 100);  // 5%: the non-inferiority test's level
      EXPECT_EQ(green8, 0);
      if (offset == 0 && k == 4) {
        EXPECT_GE(unchanged, 1600);
      }
    }
  }
}

}  // namespace
}  // namespace perfgate::stats
