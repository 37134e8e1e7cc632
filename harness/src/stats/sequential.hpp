// Adaptive stopping: look at the data at a few fixed round counts, stop at the first clear
// verdict, and split the error rate between the looks.
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

namespace perfgate::stats {

// `looks` round counts evenly spaced from min_rounds to max_rounds inclusive, rounded to the
// nearest integer (halves up), duplicates removed, ascending. min_rounds == max_rounds or
// looks == 1 gives the single look {max_rounds}. Throws std::invalid_argument unless
// 1 <= min_rounds <= max_rounds and looks >= 1.
std::vector<int> look_schedule(int min_rounds, int max_rounds, int looks = 4);

// The significance level each look tests at: alpha / looks (Bonferroni). Throws
// std::invalid_argument unless 0 < alpha <= 1 and looks >= 1.
double alpha_per_look(double alpha, int looks);

// ab's budgeted design (used when the user fixes neither rounds nor time): `looks` looks at
// min_rounds · 2^k, k = 0 … looks − 1. Every look costs alpha / looks, so doubling reaches many
// rounds for few looks (7 looks from 10 rounds reach 640): an effect just above the noise band
// keeps being sampled instead of ending undecided at a fixed round cap. Throws
// std::invalid_argument unless min_rounds >= 1 and 1 <= looks <= 20.
std::vector<int> doubling_schedule(int min_rounds, int looks);

// Whether the look at `next_look` rounds fits `budget_s`, projecting the `elapsed_s` spent on
// `rounds` rounds at the same pace. It looks at time only, never at the data, so stopping on it
// leaves every look's test valid (the run just takes fewer of its looks). A budget <= 0 is no
// budget (always fits). Throws std::invalid_argument unless 0 < rounds.
bool next_look_fits(double elapsed_s, int rounds, int next_look, double budget_s);

// Where a budgeted run reads its clock: every round count from looks.front() to looks.back()
// growing by ~5% (at least one round) each time, so the last test lands near the budget's end
// instead of up to half a budget early. Throws std::invalid_argument when `looks` is empty.
std::vector<int> budget_checkpoints(const std::vector<int>& looks);

// The budgeted design's bookkeeping at each checkpoint. A test is due when the rounds reach the
// next look of `looks`, and once more (the last) at the checkpoint after which the next one
// would not fit the budget. Each test uses up the looks it reached (at least one), and the last
// every look still unused, spending alpha / looks.size() for each: no test follows the last, so
// what the budget left untested is spent there, and Boole's inequality keeps the whole run at
// alpha. Time only decides where the tests fall, never the data.
class BudgetedLooks {
 public:
  enum class Step { Continue, Test, TestLast };
  BudgetedLooks(std::vector<int> looks, double budget_s) : looks_(std::move(looks)), budget_s_(budget_s) {}
  // At a checkpoint of `rounds` rounds after `elapsed_s`; `next_checkpoint` 0 when there is none.
  Step at(int rounds, int next_checkpoint, double elapsed_s);
  // The round counts at which tests were due so far.
  const std::vector<int>& tested() const { return tested_; }
  // How many looks the latest test used up: it is tested at alpha / looks.size() times this.
  int looks_spent_by_last_test() const { return spent_; }

 private:
  std::vector<int> looks_;
  double budget_s_;
  std::size_t next_ = 0;
  int spent_ = 0;
  std::vector<int> tested_;
};

}  // namespace perfgate::stats
