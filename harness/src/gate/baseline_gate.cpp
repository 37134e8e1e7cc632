#include "gate/baseline_gate.hpp"

#include <cmath>
#include <cstdio>

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

std::string num(double v) {
  if (!std::isfinite(v)) return "inf";
  char buf[32];
  std::snprintf(buf, sizeof buf, std::fabs(v) >= 1000 ? "%.0f" : std::fabs(v) >= 10 ? "%.1f" : "%.3g", v);
  return buf;
}

std::string pct(double change) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%+.1f%%", (change - 1) * 100);
  return buf;
}

std::string pval(double p) {
  if (p < 1e-15) return "<1e-15";  // the normal tail underflows long before anything matters
  char buf[32];
  std::snprintf(buf, sizeof buf, p < 0.001 ? "%.1e" : "%.3f", p);
  return buf;
}

std::string describe(const ShiftTest& t) {
  return pct(t.change) + " [" + pct(t.ci[0]) + ", " + pct(t.ci[1]) + "], p " + pval(t.p) + " (Holm " +
         pval(t.p_adjusted) + "): " + t.verdict;
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

std::vector<BaselineCheck> check_against_baseline(const std::vector<store::BaselineEntry>& now,
                                                  const store::Baseline& baseline, const BaselineOptions& o) {
  std::vector<BaselineCheck> out;
  for (const auto& e : now) {
    BaselineCheck c;
    c.now = e;
    c.tolerance = o.tolerance;
    const store::BaselineEntry* b = baseline.find(e.scenario, e.profile, e.metric);
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
      auto t = shift_test(e.ratio, e.ci, b->ratio, b->ci, e.confidence);
      if (!t) {
        c.why = "a ratio or an interval end is zero or unbounded";
      } else {
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
      if (absolute ? c.absolute_compared : c.comparable) {
        fam.push_back(&c);
        p.push_back((absolute ? c.absolute : c.ratio).p);
      }
    auto adj = stats::holm(p);
    for (std::size_t i = 0; i < fam.size(); ++i) {
      ShiftTest& t = absolute ? fam[i]->absolute : fam[i]->ratio;
      t.p_adjusted = adj[i];
      t.verdict = decide(t, o.alpha, fam[i]->tolerance, fam[i]->now.better);
    }
  }
  return out;
}

nlohmann::json baseline_gate_json(const BaselineCheck& c) {
  nlohmann::json g = {{"kind", "baseline"}, {"name", "baseline on " + c.now.metric}};
  const std::string now =
      c.now.variant + "/" + c.now.compare_to + " " + c.now.metric + " " + store::format_ratio(c.now.ratio, c.now.ci);
  if (!c.comparable) {
    g["passed"] = nullptr;
    g["detail"] = "no comparable baseline: " + c.why + " (" + now + ")";
    return g;
  }
  const auto& b = *c.entry;
  const bool passed = c.ratio.verdict != "worse";
  char tol[32];
  std::snprintf(tol, sizeof tol, "%g%%", c.tolerance * 100);
  std::string detail = (passed ? "" : "ratio moved: ") + now + " against baseline " +
                       store::format_ratio(b.ratio, b.ci) + " (commit " + b.commit.substr(0, 12) + "): change " +
                       describe(c.ratio) + " (tolerance " + tol + ")";
  if (!passed) detail += " — the ratio is significantly worse than the accepted one";
  detail += "; absolute: ";
  if (c.absolute_compared)
    detail += c.now.variant + " median " + num(c.now.after_median) + " vs " + num(b.after_median) + " " + c.now.unit +
              " on the same host, " + describe(c.absolute);
  else
    detail += c.absolute_why;
  g["passed"] = passed;
  g["detail"] = detail;
  return g;
}

nlohmann::json to_json(const BaselineCheck& c) {
  auto shift = [](const ShiftTest& t) {
    return nlohmann::json{
        {"change", t.change}, {"ci", t.ci}, {"p", t.p}, {"p_adjusted", t.p_adjusted}, {"verdict", t.verdict}};
  };
  nlohmann::json j = {{"metric", c.now.metric},
                      {"variant", c.now.variant},
                      {"compare_to", c.now.compare_to},
                      {"now",
                       {{"ratio", c.now.ratio},
                        {"ci", c.now.ci},
                        {"after_median", c.now.after_median},
                        {"after_median_ci", c.now.after_median_ci},
                        {"host_fingerprint", c.now.host_fingerprint}}},
                      {"status", c.comparable ? "compared" : "no comparable baseline"},
                      {"tolerance", c.tolerance}};
  if (!c.comparable) j["why"] = c.why;
  if (c.entry) j["baseline"] = store::to_json(*c.entry);
  if (c.comparable) j["ratio_change"] = shift(c.ratio);
  j["absolute"] = {{"compared", c.absolute_compared}, {"why", c.absolute_why}};
  if (c.absolute_compared) j["absolute"]["change"] = shift(c.absolute);
  return j;
}

}  // namespace perfgate::gate
