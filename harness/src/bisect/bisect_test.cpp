#include <gtest/gtest.h>

#include <set>

#include "bisect/search.hpp"
#include "bisect/step_verdict.hpp"

using namespace perfgate::bisect;

namespace {

// The path of the scratch repository: commits 1..16 are indices 0..15; commit 11 (index
// 10) is the slower one.
struct Path {
  int slower_from = 10;
  int output_from = 1000;
  std::set<int> unbuildable, undecided;
  std::vector<int> timed;

  Callbacks callbacks() {
    return {[this](int i, double alpha) {
              timed.push_back(i);
              StepResult r;
              r.alpha = alpha;
              r.verdict = unbuildable.count(i) ? Verdict::BuildFailed
                          : i >= output_from   ? Verdict::OutputDiffers
                          : undecided.count(i) ? Verdict::CannotTell
                          : i >= slower_from   ? Verdict::Slower
                                               : Verdict::NotSlower;
              return r;
            },
            [this](int i) -> std::optional<bool> {
              if (unbuildable.count(i)) return std::nullopt;
              return i >= output_from;
            },
            nullptr};
  }
};

}  // namespace

TEST(BisectSearch, NamesTheFirstSlowerCommitWithinSixStepsBesidesGoodAndBad) {
  Path p;
  const Outcome o = search(15, 0.05, p.callbacks());
  EXPECT_EQ(o.answer, Answer::FirstSlower);
  EXPECT_EQ(o.first, 10);
  EXPECT_EQ(p.timed.front(), 15);  // bad first
  EXPECT_LE(p.timed.size(), 7u);
  EXPECT_EQ(o.steps.size(), p.timed.size());
}

TEST(BisectSearch, EveryCommitEqualIsNoSlowerCommit) {
  Path p;
  p.slower_from = 1000;
  const Outcome o = search(15, 0.05, p.callbacks());
  EXPECT_EQ(o.answer, Answer::BadNotSlower);
  EXPECT_EQ(p.timed, std::vector<int>{15});
}

TEST(BisectSearch, AnOutputChangeIsFoundAndNothingAtOrAfterItIsBlamed) {
  Path p;
  p.output_from = 8;  // commit 9 changes the output, and every commit after it
  const Outcome o = search(15, 0.05, p.callbacks());
  ASSERT_TRUE(o.changed_at.has_value());
  EXPECT_EQ(*o.changed_at, 8);
  EXPECT_EQ(o.answer, Answer::NoSlowerBefore);
  for (int i : p.timed) EXPECT_TRUE(i < 8 || i == 15) << i;
}

TEST(BisectSearch, AnOutputChangeAfterTheSlowdownStillFindsIt) {
  Path p;
  p.slower_from = 4;
  p.output_from = 12;
  const Outcome o = search(15, 0.05, p.callbacks());
  EXPECT_EQ(o.answer, Answer::FirstSlower);
  EXPECT_EQ(o.first, 4);
  EXPECT_EQ(*o.changed_at, 12);
}

TEST(BisectSearch, AFailedBuildIsSkippedAndTheSearchStillFindsIt) {
  Path p;
  p.unbuildable = {7};  // the first midpoint of 0..15
  const Outcome o = search(15, 0.05, p.callbacks());
  EXPECT_EQ(p.timed.at(1), 7);
  EXPECT_EQ(o.answer, Answer::FirstSlower);
  EXPECT_EQ(o.first, 10);
}

TEST(BisectSearch, ABuildFailureSpendsNoShareOfAlpha) {
  Path p;
  p.unbuildable = {7};
  Callbacks cb = p.callbacks();
  cb.builds = [&](int i) { return !p.unbuildable.count(i); };
  const Outcome o = search(15, 0.05, cb);
  EXPECT_EQ(o.first, 10);
  ASSERT_EQ(o.steps.at(1).index, 7);
  EXPECT_EQ(o.steps.at(1).result.verdict, Verdict::BuildFailed);
  EXPECT_EQ(o.steps.at(2).result.alpha, step_alpha(0.05, 2));  // the next timed step is the second
}

TEST(BisectSearch, ACommitThatCannotBeDecidedLeavesARangeNotAGuess) {
  Path p;
  p.undecided = {10};
  const Outcome o = search(15, 0.05, p.callbacks());
  EXPECT_EQ(o.answer, Answer::Range);
  EXPECT_EQ(o.candidates, (std::vector<int>{10, 11}));
}

TEST(BisectSearch, BadThatCannotBeDecidedSaysSo) {
  Path p;
  p.undecided = {15};
  EXPECT_EQ(search(15, 0.05, p.callbacks()).answer, Answer::BadUndecided);
}

TEST(BisectSearch, StepLevelsSumToAlphaOverAnyNumberOfSteps) {
  double total = 0;
  for (int i = 1; i <= 100000; ++i) total += step_alpha(0.05, i);
  EXPECT_LT(total, 0.05);
  EXPECT_GT(total, 0.0499);
  EXPECT_NEAR(step_alpha(0.05, 1), 0.0304, 1e-4);
}

TEST(BisectStep, SlowerNotSlowerAndCannotTell) {
  std::vector<double> good, slow, same, wide;
  for (int i = 0; i < 20; ++i) {
    const double wobble = 1 + 0.002 * ((i * 7) % 5 - 2);
    good.push_back(100);
    slow.push_back(108 * wobble);
    same.push_back(100.5 * wobble);
    wide.push_back(102 * (1 + 0.05 * ((i * 7) % 5 - 2)));
  }
  EXPECT_EQ(decide_step(good, slow, 0.005, 0.02, false, 1).verdict, Verdict::Slower);
  EXPECT_EQ(decide_step(good, same, 0.005, 0.02, false, 1).verdict, Verdict::NotSlower);
  EXPECT_EQ(decide_step(good, wide, 0.005, 0.02, false, 1).verdict, Verdict::CannotTell);
  // A rate: lower is slower.
  std::vector<double> fewer;
  for (double v : slow) fewer.push_back(10000 / v);
  EXPECT_EQ(decide_step(good, fewer, 0.005, 0.02, true, 1).verdict, Verdict::Slower);
}
