#include "suite/stopping_rule.hpp"

#include <algorithm>

#include "gate/metric_choice.hpp"
#include "gate/policy.hpp"
#include "gate/scenario_stats.hpp"

namespace perfgate::suite {

std::set<std::string> gated_for(const plan::ScenarioPlan& sp, const std::vector<run::Sample>& samples) {
  return sp.metric_selection == plan::MetricSelection::ChosenAfterRounds
             ? std::set<std::string>{gate::choose_ab_metric(samples).metric}
             : sp.gated_metrics;
}

StoppingRule::StoppingRule(const plan::ScenarioPlan& sp, const plan::RunPlan& rp, std::vector<int> checkpoints,
                           SettledMetrics& settled)
    : sp_(sp),
      rp_(rp),
      checkpoints_(std::move(checkpoints)),
      tests_(sp.looks.empty() ? std::vector<int>{1} : sp.looks, sp.look_budget_s, rp.alpha),
      settled_(settled),
      last_alpha_(rp.alpha_per_look) {}

bool StoppingRule::clear(const std::vector<run::Sample>& measured, double alpha) {
  const auto gated_metrics = gated_for(sp_, measured);
  auto wanted = gated_metrics;
  wanted.insert(sp_.manifest.guard.metric);
  auto cs = gate::compare_samples(measured, {{"after", "before", true}}, gated_metrics, rp_.seed, wanted);
  // Each gated comparison at this look's level, with every gated comparison of the run in the
  // family (stats/verdict.hpp).
  std::vector<model::Comparison*> gated;
  for (auto& c : cs)
    if (c.gated) {
      if (sp_.policy == catalog::Policy::NoRegress) c.same_means = stats::SameMeans::NotWorse;
      gated.push_back(&c);
    }
  gate::decide_family(gated, alpha, rp_.noise, std::max(0, rp_.gated_total - static_cast<int>(gated.size())));
  // A settled benchmark keeps the verdict of the look that settled it: its rounds end there, and
  // a later, stricter look would re-decide the same rounds. Under the null of one benchmark the
  // others' data, which set when the rounds end, tell nothing of its own, so every look's
  // level still holds for it.
  for (auto* c : gated)
    if (auto it = settled_.find(c->metric); it != settled_.end()) c->verdict = it->second.verdict;
  // Against AFTER: a policy that cannot pass any more (worse; under improve, decided but not
  // better) or a guard beyond its band. More rounds cannot turn the scenario green.
  const bool improve = sp_.policy == catalog::Policy::Improve;
  bool against = false;
  std::size_t decided = 0;
  for (const auto* c : gated) {
    const bool known = c->verdict != stats::Verdict::CannotTell;
    decided += known;
    against =
        against || c->verdict == stats::Verdict::Worse || (improve && known && c->verdict != stats::Verdict::Better);
  }
  bool guard_open = false;
  const auto& guard = sp_.manifest.guard;
  for (const auto& c : cs)
    if (!c.gated && c.metric == guard.metric && guard.metric != "none") {
      const double band = gate::guard_band(measured, guard, rp_.noise);
      against = against || gate::guard_worse(c, band);
      guard_open = !gate::guard_decided(c, band);
    }
  // Everything decided is a clear stop, whichever way it went; a gate against AFTER stops the
  // rounds early, leaving the rest undecided (failed_), unless --decide-all.
  if (decided == sp_.gated_metrics.size() && !guard_open) return true;
  failed_ = against && !rp_.decide_all;
  if (failed_) return true;
  // "Not worse" passes the policy but keeps its rounds while others are undecided: more of them
  // may narrow it to "the same", which says more.
  if (sp_.gbench())
    for (const auto* c : gated)
      if (c->verdict != stats::Verdict::CannotTell && c->verdict != stats::Verdict::NotWorse)
        settled_.emplace(c->metric, Settled{alpha, c->verdict});
  return false;
}

double StoppingRule::seconds_per_round(double spent, int rounds) const {
  return rounds > pace_from_round_ ? (spent - pace_from_s_) / (rounds - pace_from_round_) : spent / rounds;
}

bool StoppingRule::at(const std::vector<run::Sample>& measured, int look) {
  if (sp_.look_budget_s <= 0) return clear(measured, last_alpha_);
  const auto i = static_cast<std::size_t>(look);
  const int next = i + 1 < checkpoints_.size() ? checkpoints_[i + 1] : 0;
  const double spent = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
  const int rounds = checkpoints_[i];
  const auto step = tests_.at(rounds, next, spent, seconds_per_round(spent, rounds));
  if (step == stats::BudgetedLooks::Step::Continue) return false;
  last_alpha_ = tests_.level_of_last_test();
  const std::size_t settled_before = settled_.size();
  if (clear(measured, last_alpha_)) return true;
  if (settled_.size() != settled_before) {
    pace_from_s_ = spent;
    pace_from_round_ = rounds;
  }
  out_of_budget_ = step == stats::BudgetedLooks::Step::TestLast && next != 0;
  return out_of_budget_;
}

void StoppingRule::explain(run::BatchOutcome& outcome) {
  const bool budgeted = sp_.look_budget_s > 0;
  if (budgeted && outcome.stop.kind == run::StopKind::MaxTime) {
    tests_.end_at(outcome.rounds);
    last_alpha_ = tests_.level_of_last_test();
  }
  if (failed_) {
    const auto look =
        budgeted ? tests_.tested().size()
                 : static_cast<std::size_t>(std::upper_bound(sp_.looks.begin(), sp_.looks.end(), outcome.rounds) -
                                            sp_.looks.begin());
    outcome.stop = run::StopReason::failed_at_look(static_cast<int>(look), outcome.rounds);
  }
  if (!budgeted) return;
  outcome.looks_taken = tests_.tested();  // the tests, not every checkpoint
  if (failed_)
    return;
  else if (out_of_budget_)
    outcome.stop = run::StopReason::undecided(outcome.rounds, std::to_string(static_cast<int>(sp_.look_budget_s)));
  else if (outcome.stop.kind == run::StopKind::ClearAtLook)  // counted in tests, not checkpoints
    outcome.stop = run::StopReason::clear_at_look(static_cast<int>(tests_.tested().size()), outcome.rounds);
}

}  // namespace perfgate::suite
