// When a scenario's rounds stop (docs/architecture.md, "Statistics"): at a look, once every
// gated metric is decided — significant at the per-look level (Bonferroni over the run's gated
// comparisons, Holm's first step) and outside the band, or clearly inside it — and the guard
// metric has its own decision. ab's budgeted design (stats::BudgetedLooks) asks at checkpoints:
// a test is due at each look, and once more where the next checkpoint would not fit the budget.
#pragma once

#include <chrono>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "plan/plan.hpp"
#include "run/batch_runner.hpp"
#include "stats/sequential.hpp"
#include "stats/verdict.hpp"

namespace perfgate::suite {

// The metrics a scenario gates given its samples so far: the planned ones, or the one `ab
// --metric auto` chooses from what both sides measured (one, like the placeholder in
// gated_metrics, so the Holm family is unchanged).
std::set<std::string> gated_for(const plan::ScenarioPlan& sp, const std::vector<run::Sample>& samples);

// A gated metric decided at a look, and the level it was decided at: a Google Benchmark pair
// runs its benchmark no more, and the family decides it at that level (suite/execute.cpp).
struct Settled {
  double alpha;
  stats::Verdict verdict;
};
using SettledMetrics = std::map<std::string, Settled>;

class StoppingRule {
 public:
  // `checkpoints`: the runner's looks (the batch plan's: the schedule, or the budget's checkpoints).
  // `settled`: where a Google Benchmark pair's decided benchmarks are recorded at each look (its
  // sampler reads it); other scenarios measure every metric each round and settle none.
  StoppingRule(const plan::ScenarioPlan& sp, const plan::RunPlan& rp, std::vector<int> checkpoints,
               SettledMetrics& settled);
  // BatchHooks::should_stop at the look of index `look`.
  bool at(const std::vector<run::Sample>& measured, int look);
  // After the rounds: the looks a budgeted run tested (not every checkpoint) and, when it ran
  // out of budget undecided, the stop reason that says so.
  // A budgeted run cut short by the hard time limit (max time) spends the alpha it never used
  // on the family's final decision: nothing is tested after it.
  void explain(run::BatchOutcome& outcome);
  // The level the latest test ran at: the run's per-look alpha, or in a budgeted design the
  // spending boundary's (the last test, where the budget ends, spends what is left).
  double alpha_of_last_test() const { return last_alpha_; }

 private:
  // Whether the rounds may stop at this look: every gated metric and the guard decided, or
  // (unless --decide-all) a gate already decided against AFTER, which sets failed_.
  bool clear(const std::vector<run::Sample>& measured, double alpha);
  // The pace the next checkpoint is projected at: since the last look that settled a benchmark
  // (a round then runs fewer of them), or over all rounds.
  double seconds_per_round(double spent, int rounds) const;
  const plan::ScenarioPlan& sp_;
  const plan::RunPlan& rp_;
  std::vector<int> checkpoints_;
  stats::BudgetedLooks tests_;
  std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
  SettledMetrics& settled_;
  // Where the rounds' pace is measured from: the last look that settled a benchmark, after
  // which a round runs fewer of them (seconds since started_, rounds).
  double pace_from_s_ = 0;
  int pace_from_round_ = 0;
  bool out_of_budget_ = false;
  bool failed_ = false;
  double last_alpha_;
};

}  // namespace perfgate::suite
