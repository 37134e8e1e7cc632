// Adaptive stopping: look at the data at planned round counts, stop at the first clear verdict,
// and share the error rate between the looks (Bonferroni for a few fixed looks, a spending
// boundary for a budget's many).
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

#include "stats/spending.hpp"

namespace perfgate::stats {

// `looks` round counts evenly spaced from min_rounds to max_rounds inclusive, rounded to the
// nearest integer (halves up), duplicates removed, ascending. min_rounds == max_rounds or
// looks == 1 gives the single look {max_rounds}. Throws std::invalid_argument unless
// 1 <= min_rounds <= max_rounds and looks >= 1.
std::vector<int> look_schedule(int min_rounds, int max_rounds, int looks = 4);

// The significance level each look tests at: alpha / looks (Bonferroni). Throws
// std::invalid_argument unless 0 < alpha <= 1 and looks >= 1.
double alpha_per_look(double alpha, int looks);

// ab's budgeted design (used unless the user fixes the rounds): looks from min_rounds growing
// by a fifth (at least one round) each, up to max_rounds: 27 looks from 8 reach 640. Each look
// costs what the spending boundary says (stats/spending.hpp), so looking often is cheap: a
// comparison clear at round 45 stops near 50, where doubling looks ran it to 80. Throws
// std::invalid_argument unless 1 <= min_rounds <= max_rounds.
std::vector<int> growing_schedule(int min_rounds, int max_rounds);

// The budgeted design's first and last looks (ab, gbench): the first where the exact rank test
// can decide at the first look's share of alpha (budgeted_spending at 0), the last its rounds' cap.
inline constexpr int kBudgetedFirstLook = 8, kBudgetedLastLook = 640;

// Whether the look at `next_look` rounds fits `budget_s`: `elapsed_s` spent on `rounds` rounds,
// and the rounds to come at `seconds_per_round`. It looks at time only, never at the data, so
// stopping on it leaves every look's test valid (the run just takes fewer of its looks). A
// budget <= 0 is no budget (always fits). Throws std::invalid_argument unless 0 < rounds.
bool next_look_fits(double elapsed_s, double seconds_per_round, int rounds, int next_look, double budget_s);

// Where a budgeted run reads its clock: every round count from `first` (at most looks.front();
// 0: looks.front()) to looks.back() growing by ~5% (at least one round) each time, so the last
// test lands near the budget's end instead of up to half a budget early, and a budget too short
// for the first look still gets its one test where it ends. Throws std::invalid_argument when
// `looks` is empty.
std::vector<int> budget_checkpoints(const std::vector<int>& looks, int first = 0);

// The budgeted design's bookkeeping at each checkpoint. A test is due when the rounds reach the
// next look of `looks`, and once more (the last) at the checkpoint after which the next one
// would not fit the budget, or at the last look. Each test's level is the spending boundary's
// (stats/spending.hpp) for budgeted_spending at the share of the design used so far; the last
// spends what is left.
// The share used is the larger of the budget's time and the rounds' share of the last look (the
// cap): time and rounds decide where the tests fall and what they spend, never the data.
class BudgetedLooks {
 public:
  enum class Step { Continue, Test, TestLast };
  BudgetedLooks(std::vector<int> looks, double budget_s, double alpha);
  // At a checkpoint of `rounds` rounds after `elapsed_s`; `next_checkpoint` 0 when there is none.
  // The rounds to come take `seconds_per_round` each (0: the pace so far).
  Step at(int rounds, int next_checkpoint, double elapsed_s, double seconds_per_round = 0);
  // The round counts at which tests were due so far.
  const std::vector<int>& tested() const { return tested_; }
  // The two-sided level the latest test ran at (the run's alpha before any test).
  double level_of_last_test() const { return level_; }
  // A run cut short by a hard limit after `rounds`: its decision there spends what is left, one
  // last test. Nothing is left to spend once a last test ran or no round came since a test.
  void end_at(int rounds);

 private:
  std::vector<int> looks_;
  double budget_s_;
  double alpha_;
  SpendingBoundary boundary_;
  std::size_t next_ = 0;
  bool ended_ = false;
  double level_;
  std::vector<int> tested_;
};

}  // namespace perfgate::stats
