#include "gate/baseline_gate.hpp"

#include <boost/math/distributions/normal.hpp>
#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <cstdio>
#include <map>
#include <numeric>

#include "common/number_format.hpp"
#include "gate/policy.hpp"
#include "gate/spread_rule.hpp"
#include "stats/multiple.hpp"

namespace perfgate::gate {
namespace {

// The two-sided standard normal quantile of a confidence level (0.95 → 1.95996).
double z_of(double confidence) {
  return boost::math::quantile(boost::math::normal_distribution<double>(), 1 - (1 - confidence) / 2);
}

bool usable(double v) { return std::isfinite(v) && v > 0; }

std::string describe(const ShiftTest& t) {
  if (t.rule == "exact") return format_change(t.change) + ": " + std::string(name_of(t.verdict));
  return format_change(t.change) + " [" + format_change(t.ci[0]) + ", " + format_change(t.ci[1]) + "], p " +
         format_p_value(t.p) + " (Holm " + format_p_value(t.p_adjusted) + "): " + std::string(name_of(t.verdict));
}

// Toward the bad side: +x is worse whichever way the metric points.
double bad(double log_change, Better better) { return better == Better::Higher ? -log_change : log_change; }

// The interval-only rule of stats/verdict.hpp: changed when significant and wholly outside the
// band on that side, the same when wholly inside it (not worse beyond it, for `same`), else
// cannot tell.
stats::Verdict decide(const ShiftTest& t, double alpha, double tolerance, Better better, stats::SameMeans same) {
  stats::PairedRatio r;
  r.ratio = t.change;
  r.ci = {t.ci[0], t.ci[1]};
  return stats::decide_interval(r, t.p_adjusted, alpha, tolerance, better, same);
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

namespace {

// The accepted runs that measured what this run measured: same scenario sources, params and
// measurement version. A results file written before fingerprints cannot say, so nothing is
// left out for it (the detail says so).
std::vector<model::AcceptedRun> current_runs(const model::BaselineEntry& now, const model::BaselineEntry& entry,
                                             int* stale) {
  std::vector<model::AcceptedRun> out;
  *stale = 0;
  for (const auto& r : entry.runs.empty() ? std::vector<model::AcceptedRun>{entry.as_run()} : entry.runs) {
    if (!usable(r.ratio)) continue;
    if (!now.fingerprint.empty() && r.fingerprint != now.fingerprint) {
      ++*stale;
      continue;
    }
    out.push_back(r);
  }
  return out;
}

double mean_log_ratio(const std::vector<model::AcceptedRun>& runs) {
  double t = 0;
  for (const auto& r : runs) t += std::log(r.ratio);
  return t / static_cast<double>(runs.size());
}

std::string ratio_text(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

// Why a host-dependent ratio has nothing to be compared with here (`here`: what this class has),
// with what the other classes accepted, so a reader sees how far machines move it.
std::string no_spread(const model::BaselineEntry& now, const std::vector<model::AcceptedRun>& runs,
                      const std::string& here) {
  std::map<std::string, std::vector<model::AcceptedRun>> by_class;
  for (const auto& r : runs) by_class[r.host_class()].push_back(r);
  std::string why = here;
  for (const auto& [cls, rs] : by_class)
    if (cls != now.host_class())
      why += "; " + std::to_string(rs.size()) + " on " + cls + ", ratio " + ratio_text(std::exp(mean_log_ratio(rs)));
  return why + ": ratio " + ratio_text(now.ratio) +
         " here — `perfgate baseline update --append RESULTS` records this machine";
}

}  // namespace

std::optional<ShiftTest> ratio_rule(const model::BaselineEntry& now, const model::BaselineEntry& entry,
                                    double tolerance, const BaselineOptions& o, std::string* why_not) {
  int stale = 0;
  const std::vector<model::AcceptedRun> current = current_runs(now, entry, &stale);
  const std::string stale_note = stale ? "; " + std::to_string(stale) +
                                             " stale accepted run(s) left out (another scenario fingerprint: "
                                             "sources, params or measurement version changed since)"
                                 : now.fingerprint.empty()
                                     ? "; this results file has no scenario fingerprint, so no run was checked for "
                                       "staleness"
                                     : "";
  const std::string host_class = now.host_class();
  const double x = std::log(now.ratio), band = std::log1p(tolerance);
  ShiftTest t;
  if (now.exact.value_or(entry.exact.value_or(false)) && entry.exact.value_or(false)) {
    // A count of the work: the same on every CPU with this core count.
    std::vector<model::AcceptedRun> same_cores;
    for (const auto& r : current)
      if (r.cores == now.as_run().cores) same_cores.push_back(r);
    if (same_cores.empty()) {
      *why_not = "an exact count with no current accepted run on " + std::to_string(now.as_run().cores) + " cores" +
                 stale_note;
      return std::nullopt;
    }
    const double ref = mean_log_ratio(same_cores);
    t.rule = "exact";
    t.accepted_runs = static_cast<int>(same_cores.size());
    t.change = std::exp(x - ref);
    t.ci = {t.change, t.change};
    // A count moved or it did not: a decision, not a test, so it takes no share of the Holm family.
    t.p = t.p_adjusted = bad(x - ref, now.better) > band ? 0.0 : 1.0;
    using stats::Verdict;
    t.verdict = t.p == 0 ? Verdict::Worse : bad(x - ref, now.better) < -band ? Verdict::Better : Verdict::Same;
    t.accepted = {std::exp(ref - band), std::exp(ref + band)};
    t.why = "exact: " + std::to_string(same_cores.size()) + " accepted run(s) on " +
            std::to_string(now.as_run().cores) + " cores, any CPU model (a count of the work)" + stale_note;
    return t;
  }
  std::string here;
  const auto spread = class_spread(current, host_class, now.host_fingerprint, o.min_runs, o.min_between_sd, &here);
  if (!spread) {
    // No rule may claim to know how far another machine moves a time ratio: not gated.
    *why_not = no_spread(now, current, here) + stale_note;
    return std::nullopt;
  }
  const boost::math::students_t dist(spread->df);
  const double q = boost::math::quantile(dist, 0.975);
  t.rule = spread->rule;
  t.accepted_runs = spread->accepted_runs;
  t.between_sd = spread->sd;
  t.change = std::exp(x - spread->mean);
  t.ci = {std::exp(x - spread->mean - q * spread->scale), std::exp(x - spread->mean + q * spread->scale)};
  const double beyond = bad(x - spread->mean, now.better) - band;
  t.p = spread->scale > 0 ? boost::math::cdf(boost::math::complement(dist, beyond / spread->scale))
                          : (beyond > 0 ? 0.0 : 1.0);
  t.why = spread->why + " on ln ratio" + stale_note;
  // Worse beyond band + t(1 − α)·scale on the bad side (the one-sided test above); better only
  // with the whole prediction interval beyond the band on the good side (check_against_baseline).
  const double worse_edge = band + boost::math::quantile(dist, 1 - o.alpha) * spread->scale;
  const double better_edge = band + q * spread->scale;
  t.accepted = now.better == Better::Higher
                   ? std::array<double, 2>{std::exp(spread->mean - worse_edge), std::exp(spread->mean + better_edge)}
                   : std::array<double, 2>{std::exp(spread->mean - better_edge), std::exp(spread->mean + worse_edge)};
  return t;  // verdict after Holm
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
      c.why = "the entry says " + std::string(name_of(b->better)) + " is better, this run " +
              std::string(name_of(e.better));
    } else {
      c.entry = *b;
      if (b->tolerance) c.tolerance = *b->tolerance;
      if (!usable(e.ratio) || !usable(e.ci[0]) || !usable(e.ci[1]) || !usable(b->ratio)) {
        c.why = "a ratio or an interval end is zero or unbounded";
      } else if (auto t = ratio_rule(e, *b, c.tolerance, o, &c.why)) {
        c.comparable = true;
        c.ratio = *t;
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
      if (absolute ? c.absolute_compared : c.comparable && c.ratio.rule != "exact") {
        fam.push_back(&c);
        p.push_back((absolute ? c.absolute : c.ratio).p);
      }
    auto adj = stats::holm(p);
    for (std::size_t i = 0; i < fam.size(); ++i) {
      ShiftTest& t = absolute ? fam[i]->absolute : fam[i]->ratio;
      t.p_adjusted = adj[i];
      if (absolute) {
        t.verdict = decide(t, o.alpha, fam[i]->tolerance, fam[i]->now.better, stats::SameMeans::Equivalent);
      } else {
        const Better dir = fam[i]->now.better;
        // A prediction test: is this run's ratio one of the accepted runs'? Not rejected at α
        // (after Holm) is "the same" — the accepted band is what it can tell apart, and
        // `accepted` says how wide that is. Better: the whole interval beyond the band on the
        // good side (reported only).
        const double worst = std::max(bad(std::log(t.ci[0]), dir), bad(std::log(t.ci[1]), dir));
        using stats::Verdict;
        t.verdict = t.p_adjusted < o.alpha                   ? Verdict::Worse
                    : worst < -std::log1p(fam[i]->tolerance) ? Verdict::Better
                                                             : Verdict::Same;
      }
    }
  }
  return out;
}

model::GateResult baseline_gate(const BaselineCheck& c) {
  model::GateResult g{model::GateKind::Baseline, "baseline on " + c.now.metric};
  g.metric = c.now.metric;
  const std::string now =
      c.now.variant + "/" + c.now.compare_to + " " + c.now.metric + " " + format_ratio(c.now.ratio, c.now.ci);
  if (!c.comparable) {
    g.detail = "no comparable baseline: " + c.why + " (" + now + ")";
    return g;
  }
  const auto& b = *c.entry;
  const bool passed = c.ratio.verdict != stats::Verdict::Worse;
  char tol[32];
  std::snprintf(tol, sizeof tol, "%g%%", c.tolerance * 100);
  std::string detail = (passed ? "" : "ratio moved: ") + now + " against baseline " + format_ratio(b.ratio, b.ci) +
                       " (commit " + b.commit.substr(0, 12) + "): change " + describe(c.ratio) + " (tolerance " + tol +
                       "; rule " + c.ratio.why + ")";
  if (!passed)
    detail += c.ratio.rule == "exact" ? " — an exact count moved beyond the tolerance"
                                      : " — the ratio is outside the accepted runs' spread";
  detail += "; absolute: ";
  if (c.absolute_compared)
    detail += c.now.variant + " median " + format_number(c.now.after_median) + " vs " + format_number(b.after_median) +
              " " + c.now.unit + " on the same host, " + describe(c.absolute);
  else
    detail += c.absolute_why;
  if (c.ratio.verdict == stats::Verdict::CannotTell) {
    g.outcome = model::GateOutcome::CannotTell;
    detail += "; cannot tell: the interval reaches beyond the tolerance, more rounds would decide it";
  } else {
    g.outcome = model::passed_if(passed);
  }
  g.detail = detail;
  return g;
}

}  // namespace perfgate::gate
