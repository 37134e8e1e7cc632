#include "gate/policy.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "common/number_format.hpp"
#include "gate/scenario_stats.hpp"
#include "stats/power.hpp"

namespace perfgate::gate {

std::string format_ratio(double ratio, const std::array<double, 2>& ci) {
  return format_number(ratio) + "x [" + format_number(ci[0]) + ", " + format_number(ci[1]) + "]";
}

std::string format_level(double confidence) {
  const double miss = 100 * (1 - confidence);
  const int decimals = miss > 0 ? std::max(0, 1 - static_cast<int>(std::floor(std::log10(miss)))) : 0;
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.*f", std::min(decimals, 6), 100 * confidence);
  std::string s = buf;
  if (s.find('.') != std::string::npos) {
    while (s.back() == '0') s.pop_back();
    if (s.back() == '.') s.pop_back();
  }
  return s + "%";
}

std::string format_ratio(const model::Comparison& c) {
  std::string s = format_ratio(c.r.ratio, {c.r.ci.lo, c.r.ci.hi});
  // Too few rounds for 95%: the Walsh interval is the widest the rounds allow, at a lower level.
  if (c.r.ci_confidence < 0.9495) s += " at " + format_level(c.r.ci_confidence);
  return s;
}

std::string format_decided(const model::Comparison& c) {
  if (!c.gated || !c.decision_ci) return format_ratio(c);
  std::string s = format_ratio(c.r.ratio, {c.decision_ci->lo, c.decision_ci->hi});
  // Zero spread is exact: no level to state.
  if (!c.r.zero_spread && std::abs(c.decision_confidence - 0.95) > 0.0005)
    s += " at " + format_level(c.decision_confidence);
  return s;
}

model::GateResult policy_gate(const model::Comparison* c, const std::string& metric, catalog::Policy policy) {
  const bool improve = policy == catalog::Policy::Improve;
  model::GateResult g{model::GateKind::Policy, std::string(name_of(policy)) + " on " + metric};
  g.metric = metric;
  if (!c) {
    g.outcome = model::GateOutcome::Failed;
    g.detail = "no paired samples of " + metric + " to decide on";
    return g;
  }
  using stats::Verdict;
  g.outcome = c->verdict == Verdict::CannotTell
                  ? model::GateOutcome::CannotTell
                  : model::passed_if(improve ? c->verdict == Verdict::Better : c->verdict != Verdict::Worse);
  g.detail = c->variant + "/" + c->baseline + " " + metric + " " + format_decided(*c) + ", Wilcoxon p " +
             format_p_value(c->r.p_wilcoxon) + " (Holm " + format_p_value(c->p_adjusted) + "), n " +
             std::to_string(c->r.n) + ": " + std::string(name_of(c->verdict));
  if (g.cannot_tell())
    g.detail += " — " + what_would_decide(*c);
  else if (g.failed())
    g.detail += improve ? " — AFTER must be better beyond the band" : " — AFTER is worse beyond the band";
  return g;
}

std::string what_would_decide(const model::Comparison& c) {
  // Too few rounds is its own cause: an exact signed-rank test of n rounds cannot reach p below
  // 2 / 2^n, whatever the rounds say.
  const double level = c.decision_ci ? c.decision_alpha : c.alpha_corrected;
  const int floor = stats::min_rank_rounds(level);
  if (c.r.n > 0 && static_cast<int>(c.r.n) < floor)
    return "too few rounds: " + std::to_string(c.r.n) + " rounds cannot reach this comparison's level (alpha " +
           format_p_value(level) + " after correction); an exact paired test needs " + std::to_string(floor) +
           " (--runs " + std::to_string(floor) + " or more would decide it)";
  std::string s = "the interval reaches across the edge of the band";
  if (c.rounds_to_decide)
    s += "; about " + std::to_string(*c.rounds_to_decide) + " rounds at this spread would decide it (" +
         std::to_string(c.r.n) + " were run)";
  else
    s += "; more rounds, or a band the spread supports, would decide it";
  return s;
}

model::GateResult claim_gate(const model::Comparison* c, const catalog::Claim& claim) {
  model::GateResult g{model::GateKind::Claim, claim.text};
  g.metric = claim.metric;
  g.factor = claim.factor;
  if (!c) {
    g.outcome = model::GateOutcome::Failed;
    g.detail = "no paired samples of " + claim.metric;
    return g;
  }
  // An interval short of its level (too few rounds) decides neither way.
  const bool level = stats::reaches_level(c->r, c->confidence);
  const bool met = level && stats::meets_factor(c->r, claim.factor, c->better);
  const bool missed = level && stats::misses_factor(c->r, claim.factor, c->better);
  g.outcome = met || missed ? model::passed_if(met) : model::GateOutcome::CannotTell;
  const double factor = c->better == Better::Higher ? c->r.ratio : 1.0 / c->r.ratio;
  g.detail = "measured " + format_number(factor) + "x " + std::string(name_of(c->better)) + " (ratio " +
             format_ratio(*c) + "); the whole interval must clear " + format_number(claim.factor) + "x" +
             (g.cannot_tell() ? ": cannot tell, the interval reaches both sides of it" : "");
  return g;
}

}  // namespace perfgate::gate
