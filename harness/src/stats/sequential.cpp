#include "stats/sequential.hpp"

#include <algorithm>
#include <stdexcept>

namespace perfgate::stats {

std::vector<int> look_schedule(int min_rounds, int max_rounds, int looks) {
  if (min_rounds < 1 || max_rounds < min_rounds) {
    throw std::invalid_argument("look schedule needs 1 <= min rounds <= max rounds");
  }
  if (looks < 1) throw std::invalid_argument("look schedule needs at least one look");
  // With one look there is nothing to stop early for: the fixed design runs every round.
  if (looks == 1 || min_rounds == max_rounds) return {max_rounds};

  // Integer arithmetic so the schedule cannot depend on floating-point rounding:
  // min + round(k * span / (looks - 1)), halves rounded up.
  const long long span = static_cast<long long>(max_rounds) - min_rounds;
  const long long steps = looks - 1;
  std::vector<int> out;
  for (long long k = 0; k <= steps; ++k) {
    const auto at = static_cast<int>(min_rounds + (2 * k * span + steps) / (2 * steps));
    if (out.empty() || out.back() != at) out.push_back(at);  // ascending, so duplicates are adjacent
  }
  return out;
}

// Why alpha / looks is safe: a false alarm of the whole sequential run is the event "some look
// rejected although nothing changed", the union of the per-look events. By Boole's inequality
// its probability is at most the sum of the per-look probabilities, looks * (alpha / looks) =
// alpha. That bound needs no assumption about how the looks' statistics are correlated (they
// share rounds, so they are), holds for exact and approximate p-values alike, and holds however
// many looks are actually taken: stopping early only drops terms from the union.
//
// The price is conservatism. Group-sequential boundaries such as Pocock's (equal nominal levels,
// about 0.0182 per look for 4 looks at a two-sided 0.05, against our 0.0125) or
// O'Brien-Fleming's (very strict early, about 0.041 at the last of 4 looks) spend the same alpha
// less wastefully by exploiting the positive correlation of cumulative statistics, but they
// assume approximately normal statistics at planned information fractions. Bonferroni assumes
// neither, which suits exact rank tests at a handful of uneven looks.
double alpha_per_look(double alpha, int looks) {
  if (!(alpha > 0.0 && alpha <= 1.0)) throw std::invalid_argument("alpha must be in (0, 1], e.g. 0.05");
  if (looks < 1) throw std::invalid_argument("at least one look is needed");
  return alpha / looks;
}

std::vector<int> growing_schedule(int min_rounds, int max_rounds) {
  if (min_rounds < 1 || max_rounds < min_rounds)
    throw std::invalid_argument("look schedule needs 1 <= min rounds <= max rounds");
  std::vector<int> out{min_rounds};
  while (out.back() < max_rounds) out.push_back(std::min(max_rounds, std::max(out.back() + 1, out.back() * 6 / 5)));
  return out;
}

bool next_look_fits(double elapsed_s, double seconds_per_round, int rounds, int next_look, double budget_s) {
  if (rounds < 1) throw std::invalid_argument("projecting a look needs at least one round done");
  if (budget_s <= 0) return true;
  return elapsed_s + seconds_per_round * (next_look - rounds) <= budget_s;
}

std::vector<int> budget_checkpoints(const std::vector<int>& looks, int first) {
  if (looks.empty()) throw std::invalid_argument("budget checkpoints need at least one look");
  std::vector<int> out{first > 0 ? std::min(first, looks.front()) : looks.front()};
  while (out.back() < looks.back())
    out.push_back(std::min(looks.back(), std::max(out.back() + 1, out.back() * 21 / 20)));
  return out;
}

BudgetedLooks::BudgetedLooks(std::vector<int> looks, double budget_s, double alpha)
    : looks_(std::move(looks)), budget_s_(budget_s), alpha_(alpha), boundary_(alpha), level_(alpha) {
  if (looks_.empty()) throw std::invalid_argument("a budgeted design needs at least one look");
}

BudgetedLooks::Step BudgetedLooks::at(int rounds, int next_checkpoint, double elapsed_s, double seconds_per_round) {
  if (ended_) return Step::Continue;  // the last test ran: nothing left to test at
  const double pace = seconds_per_round > 0 || rounds < 1 ? seconds_per_round : elapsed_s / rounds;
  const bool last = next_checkpoint == 0 || rounds >= looks_.back() ||
                    !next_look_fits(elapsed_s, pace, rounds, next_checkpoint, budget_s_);
  const bool due = next_ < looks_.size() && rounds >= looks_[next_];
  if (!due && !last) return Step::Continue;
  while (next_ < looks_.size() && looks_[next_] <= rounds) ++next_;
  // The share of the design used: of the budget's time, or of the rounds' cap when that comes
  // first (a fast command reaches 640 rounds long before 50 s).
  const double of_rounds = static_cast<double>(rounds) / looks_.back();
  const double used = budget_s_ > 0 ? std::max(elapsed_s / budget_s_, of_rounds) : of_rounds;
  level_ = boundary_.look(rounds, last ? alpha_ : budgeted_spending(alpha_, used));
  ended_ = last;
  tested_.push_back(rounds);
  return last ? Step::TestLast : Step::Test;
}

void BudgetedLooks::end_at(int rounds) {
  if (ended_ || rounds <= boundary_.rounds_at_last_look()) return;
  level_ = boundary_.look(rounds, alpha_);
  ended_ = true;
}

}  // namespace perfgate::stats
