#include "bisect/step_verdict.hpp"

#include "stats/paired.hpp"

namespace perfgate::bisect {

StepResult decide_step(const std::vector<double>& good, const std::vector<double>& tested, double alpha, double band,
                       bool higher_is_better, std::uint64_t seed) {
  StepResult r;
  r.alpha = alpha;
  r.rounds = static_cast<int>(tested.size());
  if (good.size() < 2 || good.size() != tested.size()) {
    r.note = "fewer than 2 paired rounds";
    return r;
  }
  const stats::PairedRatio p = stats::paired_ratio(good, tested, seed, 2000, 1 - 2 * alpha);
  r.ratio = p.ratio;
  r.lo = p.ci.lo;
  r.hi = p.ci.hi;
  // Toward the slow side: above 1 + band for times, below 1 / (1 + band) for rates.
  const double limit = higher_is_better ? 1 / (1 + band) : 1 + band;
  const bool slower = higher_is_better ? r.hi < limit : r.lo > limit;
  const bool not_slower = higher_is_better ? r.lo > limit : r.hi < limit;
  r.verdict = slower ? Verdict::Slower : not_slower ? Verdict::NotSlower : Verdict::CannotTell;
  return r;
}

StepResult decide_step_over_layouts(const stats::LayoutEffect& e, double alpha) {
  StepResult r;
  r.alpha = alpha;
  r.rounds = static_cast<int>(e.rounds);
  r.ratio = e.ratio;
  const auto ci = stats::layout_interval(e, 1 - 2 * alpha);
  r.lo = ci.lo;
  r.hi = ci.hi;
  r.verdict = e.tests.p_worse < alpha       ? Verdict::Slower
              : e.tests.p_not_worse < alpha ? Verdict::NotSlower
                                            : Verdict::CannotTell;
  if (r.verdict == Verdict::CannotTell)
    r.note = std::string(e.more_layouts ? "more layouts, not more rounds, would decide it"
                                        : "more rounds per layout would narrow it") +
             (e.layouts_to_decide ? " (about " + std::to_string(*e.layouts_to_decide) + " layouts)" : "");
  return r;
}

}  // namespace perfgate::bisect
