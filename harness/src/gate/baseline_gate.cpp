#include "gate/baseline_gate.hpp"

#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <cstdio>
#include <numeric>

#include "common/number_format.hpp"
#include "gate/policy.hpp"
#include "stats/multiple.hpp"

namespace perfgate::gate {
namespace {

// The two-sided standard normal quantile of a confidence level (0.95 → 1.95996).
double z_of(double confidence) {
  // Acklam's rational approximation of the normal quantile, |error| < 1.2e-9.
  const double p = 1 - (1 - confidence) / 2;
  static const double a[] = {-3.969683028665376e+01, 2.209460984245205e+02,  -2.759285104469687e+02,
                             1.383577518672690e+02,  -3.066479806614716e+01, 2.506628277459239e+00};
  static const double b[] = {-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
                             6.680131188771972e+01, -1.328068155288572e+01};
  static const double c[] = {-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
                             -2.549732539343734e+00, 4.374664141464968e+00,  2.938163982698783e+00};
  static const double d[] = {7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00,
                             3.754408661907416e+00};
  if (p > 0.97575) {
    double q = std::sqrt(-2 * std::log(1 - p));
    return -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
           ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  }
  double q = p - 0.5, r = q * q;
  return (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
         (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
}

bool usable(double v) { return std::isfinite(v) && v > 0; }

std::string num(double v) { return format_number(v); }

std::string pct(double change) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%+.1f%%", (change - 1) * 100);
  return buf;
}

std::string pval(double p) { return format_p_value(p); }

std::string describe(const ShiftTest& t) {
  if (t.rule == "kept-share") {
    char buf[96];
    std::snprintf(buf, sizeof buf, "kept %.0f%% of the accepted improvement (interval's best end %.0f%%)",
                  t.kept_share * 100, t.kept_share_best * 100);
    return pct(t.change) + ", " + buf + ": " + t.verdict;
  }
  if (t.rule == "ratio-tolerance") return pct(t.change) + " [" + pct(t.ci[0]) + ", " + pct(t.ci[1]) + "]: " + t.verdict;
  return pct(t.change) + " [" + pct(t.ci[0]) + ", " + pct(t.ci[1]) + "], p " + pval(t.p) + " (Holm " +
         pval(t.p_adjusted) + "): " + t.verdict;
}

// Toward the bad side: +x is worse whichever way the metric points.
double bad(double log_change, const std::string& better) { return better == "higher" ? -log_change : log_change; }

std::string rule_why(const ShiftTest& t, const std::string& host_class, int same_class) {
  char buf[256];
  if (t.rule == "between-run")
    std::snprintf(buf, sizeof buf, "between-run: %d accepted runs on %s, between-run sd %.3g on ln ratio",
                  t.accepted_runs, host_class.c_str(), t.between_sd);
  else
    std::snprintf(buf, sizeof buf, "%s: %d accepted run(s) on %s (between-run needs 3), %d in all", t.rule.c_str(),
                  same_class, host_class.c_str(), t.accepted_runs);
  return buf;
}

// Worse or better only when significant and wholly outside the band, on that side.
std::string decide(const ShiftTest& t, double alpha, double tolerance, const std::string& better) {
  if (!(t.p_adjusted < alpha)) return "no significant change";
  const bool up = t.ci[0] > 1 + tolerance, down = t.ci[1] < 1 - tolerance;
  if (!up && !down) return "no significant change";
  const bool lower_is_better = better != "higher";
  return (up == lower_is_better) ? "worse" : "better";
}

}  // namespace

std::optional<ShiftTest> shift_test(double now, std::array<double, 2> now_ci, double base,
                                    std::array<double, 2> base_ci, double confidence) {
  if (!usable(now) || !usable(base) || !usable(now_ci[0]) || !usable(now_ci[1]) || !usable(base_ci[0]) ||
      !usable(base_ci[1]))
    return std::nullopt;
  const double z = z_of(confidence);
  const double se_now = (std::log(now_ci[1]) - std::log(now_ci[0])) / (2 * z);
  const double se_base = (std::log(base_ci[1]) - std::log(base_ci[0])) / (2 * z);
  const double se = std::sqrt(se_now * se_now + se_base * se_base);
  const double d = std::log(now) - std::log(base);
  ShiftTest t;
  t.change = std::exp(d);
  t.ci = {std::exp(d - z * se), std::exp(d + z * se)};
  // Both sides exact (counts with no spread): any difference is certain, none is no change.
  t.p = se > 0 ? std::erfc(std::fabs(d) / se / std::sqrt(2.0)) : (d == 0 ? 1.0 : 0.0);
  return t;
}

ShiftTest ratio_rule(const model::BaselineEntry& now, const model::BaselineEntry& entry, double tolerance,
                     const BaselineOptions& o) {
  ShiftTest t;
  const std::string host_class = now.host_class();
  std::vector<double> same, all;
  for (const auto& r : entry.runs.empty() ? std::vector<model::AcceptedRun>{entry.as_run()} : entry.runs) {
    if (!usable(r.ratio)) continue;
    all.push_back(std::log(r.ratio));
    if (r.host_class() == host_class) same.push_back(std::log(r.ratio));
  }
  const double x = std::log(now.ratio), band = std::log1p(tolerance);
  if (static_cast<int>(same.size()) >= o.min_runs) {
    const double k = static_cast<double>(same.size());
    const double mean = std::accumulate(same.begin(), same.end(), 0.0) / k;
    double ss = 0;
    for (double y : same) ss += (y - mean) * (y - mean);
    // Exact counts (no spread at all) keep sd 0: only the tolerance separates a change from none.
    const double raw_sd = std::sqrt(ss / (k - 1));
    const double sd = raw_sd > 0 ? std::max(raw_sd, o.min_between_sd) : 0.0, scale = sd * std::sqrt(1 + 1 / k);
    const boost::math::students_t dist(k - 1);
    const double q = boost::math::quantile(dist, 0.975);
    t.rule = "between-run";
    t.accepted_runs = static_cast<int>(k);
    t.between_sd = sd;
    t.change = std::exp(x - mean);
    t.ci = {std::exp(x - mean - q * scale), std::exp(x - mean + q * scale)};
    const double beyond = bad(x - mean, now.better) - band;
    // With no spread (exact counts) only the tolerance separates a change from none.
    t.p = scale > 0 ? boost::math::cdf(boost::math::complement(dist, beyond / scale)) : (beyond > 0 ? 0.0 : 1.0);
    t.why = rule_why(t, host_class, static_cast<int>(same.size()));
    return t;  // verdict after Holm
  }
  const double ref = std::accumulate(all.begin(), all.end(), 0.0) / static_cast<double>(all.size());
  t.accepted_runs = static_cast<int>(all.size());
  t.change = std::exp(x - ref);
  t.ci = {now.ci[0] / std::exp(ref), now.ci[1] / std::exp(ref)};
  t.p_adjusted = t.p = 1;  // a rule on the interval, not a test: nothing to correct
  // An accepted improvement large enough that losing `share` of it is more than the tolerance:
  // how much of it does this run keep? Worse when the estimate keeps less than the share and the
  // run's interval excludes the accepted ratio (so noise alone cannot fail it).
  if (-bad(ref, now.better) * o.share > band) {
    const double best = now.better == "higher" ? now.ci[1] : now.ci[0];
    t.rule = "kept-share";
    t.kept_share = x / ref;
    t.kept_share_best = usable(best) ? std::log(best) / ref : 1;
    t.verdict = t.kept_share < o.share && t.kept_share_best < 1 ? "worse"
                : t.kept_share > 1 + o.share                    ? "better"
                                                                : "no significant change";
  } else {
    t.rule = "ratio-tolerance";
    const double lo = bad(std::log(t.ci[0]), now.better), hi = bad(std::log(t.ci[1]), now.better);
    t.verdict = std::min(lo, hi) > band ? "worse" : std::max(lo, hi) < -band ? "better" : "no significant change";
  }
  t.why = rule_why(t, host_class, static_cast<int>(same.size()));
  return t;
}

std::vector<BaselineCheck> check_against_baseline(const std::vector<model::BaselineEntry>& now,
                                                  const model::Baseline& baseline, const BaselineOptions& o) {
  std::vector<BaselineCheck> out;
  for (const auto& e : now) {
    BaselineCheck c;
    c.now = e;
    c.tolerance = o.tolerance;
    const model::BaselineEntry* b = baseline.find(e.scenario, e.profile, e.metric);
    if (!b) {
      c.why = baseline.exists ? "no entry for " + e.key() + " in " + baseline.file.string()
                              : baseline.file.string() + " does not exist (perfgate baseline update writes it)";
    } else if (b->variant != e.variant || b->compare_to != e.compare_to) {
      c.why = "the entry compares " + b->variant + "/" + b->compare_to + ", this run " + e.variant + "/" + e.compare_to;
    } else if (b->better != e.better) {
      c.why = "the entry says " + b->better + " is better, this run " + e.better;
    } else {
      c.entry = *b;
      if (b->tolerance) c.tolerance = *b->tolerance;
      if (!usable(e.ratio) || !usable(e.ci[0]) || !usable(e.ci[1]) || !usable(b->ratio)) {
        c.why = "a ratio or an interval end is zero or unbounded";
      } else {
        c.comparable = true;
        c.ratio = ratio_rule(e, *b, c.tolerance, o);
      }
      if (b->host_fingerprint != e.host_fingerprint) {
        c.absolute_why = "host fingerprint differs (baseline " + b->host_fingerprint + ", this run " +
                         e.host_fingerprint + "): absolute figures not compared";
      } else if (auto a =
                     shift_test(e.after_median, e.after_median_ci, b->after_median, b->after_median_ci, e.confidence)) {
        c.absolute_compared = true;
        c.absolute = *a;
        c.absolute_why = "same host " + e.host_fingerprint;
      } else {
        c.absolute_why = "same host, but a median or its interval is zero";
      }
    }
    out.push_back(std::move(c));
  }
  // Holm across the run's ratio comparisons (the gated family), and separately across the
  // absolute ones (reported only).
  for (bool absolute : {false, true}) {
    std::vector<BaselineCheck*> fam;
    std::vector<double> p;
    for (auto& c : out)
      if (absolute ? c.absolute_compared : c.comparable && c.ratio.rule == "between-run") {
        fam.push_back(&c);
        p.push_back((absolute ? c.absolute : c.ratio).p);
      }
    auto adj = stats::holm(p);
    for (std::size_t i = 0; i < fam.size(); ++i) {
      ShiftTest& t = absolute ? fam[i]->absolute : fam[i]->ratio;
      t.p_adjusted = adj[i];
      if (absolute) {
        t.verdict = decide(t, o.alpha, fam[i]->tolerance, fam[i]->now.better);
      } else {
        const std::string& dir = fam[i]->now.better;
        // Better: the whole prediction interval beyond the band on the good side (reported only).
        const double worst = std::max(bad(std::log(t.ci[0]), dir), bad(std::log(t.ci[1]), dir));
        t.verdict = t.p_adjusted < o.alpha                   ? "worse"
                    : worst < -std::log1p(fam[i]->tolerance) ? "better"
                                                             : "no significant change";
      }
    }
  }
  return out;
}

model::GateResult baseline_gate(const BaselineCheck& c) {
  model::GateResult g{"baseline", "baseline on " + c.now.metric};
  const std::string now =
      c.now.variant + "/" + c.now.compare_to + " " + c.now.metric + " " + format_ratio(c.now.ratio, c.now.ci);
  if (!c.comparable) {
    g.detail = "no comparable baseline: " + c.why + " (" + now + ")";
    return g;
  }
  const auto& b = *c.entry;
  const bool passed = c.ratio.verdict != "worse";
  char tol[32];
  std::snprintf(tol, sizeof tol, "%g%%", c.tolerance * 100);
  std::string detail = (passed ? "" : "ratio moved: ") + now + " against baseline " + format_ratio(b.ratio, b.ci) +
                       " (commit " + b.commit.substr(0, 12) + "): change " + describe(c.ratio) + " (tolerance " + tol +
                       "; rule " + c.ratio.why + ")";
  if (!passed)
    detail += c.ratio.rule == "kept-share" ? " — the run keeps less than the required share of the accepted improvement"
              : c.ratio.rule == "between-run" ? " — the ratio is outside the accepted runs' spread"
                                              : " — the ratio is beyond the tolerance of the accepted one";
  detail += "; absolute: ";
  if (c.absolute_compared)
    detail += c.now.variant + " median " + num(c.now.after_median) + " vs " + num(b.after_median) + " " + c.now.unit +
              " on the same host, " + describe(c.absolute);
  else
    detail += c.absolute_why;
  g.passed = passed;
  g.detail = detail;
  return g;
}

}  // namespace perfgate::gate
