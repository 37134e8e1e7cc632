#include "store/verdict_text.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "store/text_table.hpp"

namespace perfgate::store {
namespace {

std::string fmt(double d, const std::string& unit = "") {
  if (!std::isfinite(d)) return "-";
  char buf[48];
  std::snprintf(buf, sizeof buf, std::fabs(d) >= 1000 ? "%.0f" : std::fabs(d) >= 10 ? "%.1f" : "%.3g", d);
  return unit.empty() || unit == "count" ? buf : std::string(buf) + " " + unit;
}

std::string mark(const model::GateResult& g) { return !g.passed ? "n/a" : *g.passed ? "PASS" : "FAIL"; }

std::string gate_for(const model::ScenarioResult& s, const std::string& metric, bool primary) {
  for (const auto& g : s.gates)
    if ((primary && g.kind == "policy") || (g.kind == "claim" && g.name.find(metric) != std::string::npos))
      return mark(g);
  return "-";
}

// The smallest slowdown the comparison would have flagged (80% power, corrected alpha, noise
// band included): a "no significant change" is only as good as this.
std::string detectable(const model::Comparison& c) {
  if (!c.detectable_effect || !std::isfinite(*c.detectable_effect))
    return c.r.log_scale ? "none (too few rounds)" : "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%", *c.detectable_effect * 100);
  return buf;
}

// The gated metric, every claimed one, then wall and CPU time.
std::vector<std::string> shown_metrics(const model::ScenarioResult& s) {
  std::vector<std::string> metrics = {s.primary_metric};
  auto add = [&](const std::string& m) {
    if (std::find(metrics.begin(), metrics.end(), m) == metrics.end()) metrics.push_back(m);
  };
  for (const auto& g : s.gates)
    if (g.kind == "claim")
      for (const auto& c : s.comparisons)
        if (c.variant == "after" && g.name.find(c.metric) != std::string::npos) add(c.metric);
  add("wall_ms");
  add("cpu_ms");
  return metrics;
}

void baseline_rows(TextRows& rows, const model::ScenarioResult& s) {
  // Against baseline.json: the ratio now, the accepted one, and what the comparison says.
  for (const auto& b : s.baseline) {
    std::string gate = "n/a";
    for (const auto& g : s.gates)
      if (g.kind == "baseline" && g.name == "baseline on " + b.metric) gate = mark(g);
    // Absolute figures: compared only on the baseline's host; the table says which.
    std::string absolute;
    if (b.compared && b.absolute_compared) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "; absolute %+.1f%% %s (same host)", (b.absolute_change - 1) * 100,
                    b.absolute_verdict == "no significant change" ? "~" : b.absolute_verdict.c_str());
      absolute = buf;
    } else if (b.compared) {
      absolute = "; absolute not compared (other host)";
    }
    rows.push_back({s.name, b.metric + " vs baseline", b.compared ? fmt(b.accepted_ratio) + "x" : "",
                    fmt(b.now_ratio) + "x", b.compared ? fmt(b.change) + "x" : "",
                    b.compared ? "[" + fmt(b.change_ci[0]) + ", " + fmt(b.change_ci[1]) + "]" : "",
                    b.compared ? b.rule : "", b.compared ? b.verdict + absolute : "no comparable baseline", gate});
  }
}

}  // namespace

void print_verdict_table(std::ostream& out, const model::ResultsDoc& results) {
  TextRows rows = {{"scenario", "metric", "before", "after", "ratio", "interval", "detectable", "verdict", "gate"}};
  for (const auto& s : results.scenarios) {
    const std::string& name = s.name.empty() ? std::string("?") : s.name;
    bool any = false;
    for (const auto& metric : shown_metrics(s))
      for (const auto& c : s.comparisons) {
        if (c.variant != "after" || c.baseline != "before" || c.metric != metric) continue;
        auto med = [&](const char* v) {
          auto sv = s.summaries.find(v);
          if (sv == s.summaries.end() || !sv->second.count(metric)) return std::string("-");
          return fmt(sv->second.at(metric).s.median, c.unit);
        };
        rows.push_back({name, metric + (metric == s.primary_metric ? " *" : ""), med("before"), med("after"),
                        fmt(c.r.ratio) + "x", "[" + fmt(c.r.ci.lo) + ", " + fmt(c.r.ci.hi) + "]", detectable(c),
                        stats::to_string(c.verdict), gate_for(s, metric, metric == s.primary_metric)});
        any = true;
      }
    for (const auto& g : s.gates)
      if (g.kind == "equivalence")
        rows.push_back({name, g.name, "", "", "", "", "",
                        !g.passed   ? "not compared"
                        : *g.passed ? "equal"
                                    : "DIFFERENT",
                        mark(g)});
    baseline_rows(rows, s);
    if (!any && s.error) rows.push_back({name, "-", "", "", "", "", "", "not run", "ERROR"});
  }
  print_text_table(out, rows, true);
  out << "(* the gated metric; ratio = after/before (Hodges-Lehmann over rounds), interval = its exact Walsh "
         "interval (>= 95%);\n"
         "   detectable = the smallest slowdown this run would have flagged with 80% power at its corrected alpha, "
         "noise band included;\n"
         "   \"vs baseline\" rows: before = the accepted ratio, after = this run's, ratio = their change, "
         "detectable = the baseline rule used)\n";
  // `ab`'s chosen metric: which, and why.
  for (const auto& s : results.scenarios)
    if (s.metric_choice)
      out << "(" << s.name << ": gated " << s.metric_choice->metric << " — " << s.metric_choice->why << ")\n";
}

}  // namespace perfgate::store
