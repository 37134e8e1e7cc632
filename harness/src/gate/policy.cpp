#include "gate/policy.hpp"

#include <cmath>
#include <cstdio>

#include "common/number_format.hpp"
#include "gate/scenario_stats.hpp"

namespace perfgate::gate {
namespace {

std::string num(double v) { return format_number(v); }
std::string pval(double p) { return format_p_value(p); }

}  // namespace

std::string format_ratio(double ratio, const std::array<double, 2>& ci) {
  return num(ratio) + "x [" + num(ci[0]) + ", " + num(ci[1]) + "]";
}

std::string format_ratio(const model::Comparison& c) { return format_ratio(c.r.ratio, {c.r.ci.lo, c.r.ci.hi}); }

model::GateResult policy_gate(const model::Comparison* c, const std::string& metric, catalog::Policy policy) {
  const bool improve = policy == catalog::Policy::Improve;
  model::GateResult g{model::GateKind::Policy, std::string(name_of(policy)) + " on " + metric};
  g.metric = metric;
  if (!c) {
    g.passed = false;
    g.detail = "no paired samples of " + metric + " to decide on";
    return g;
  }
  const std::string verdict = std::string(name_of(c->verdict));
  const bool passed = improve ? c->verdict == stats::Verdict::Better : c->verdict != stats::Verdict::Worse;
  g.passed = passed;
  g.detail = c->variant + "/" + c->baseline + " " + metric + " " + format_ratio(*c) + ", Wilcoxon p " +
             pval(c->r.p_wilcoxon) + " (Holm " + pval(c->p_adjusted) + "), n " + std::to_string(c->r.n) + ": " +
             verdict +
             (passed    ? ""
              : improve ? " — AFTER must be significantly better"
                        : " — AFTER is significantly worse");
  return g;
}

model::GateResult claim_gate(const model::Comparison* c, const catalog::Claim& claim) {
  model::GateResult g{model::GateKind::Claim, claim.text};
  g.metric = claim.metric;
  g.factor = claim.factor;
  if (!c) {
    g.passed = false;
    g.detail = "no paired samples of " + claim.metric;
    return g;
  }
  const bool ok = stats::meets_factor(c->r, claim.factor, c->better);
  g.passed = ok;
  const double factor = c->better == Better::Higher ? c->r.ratio : 1.0 / c->r.ratio;
  g.detail = "measured " + num(factor) + "x " + std::string(name_of(c->better)) + " (ratio " + format_ratio(*c) +
             "); the whole interval must clear " + num(claim.factor) + "x";
  return g;
}

}  // namespace perfgate::gate
