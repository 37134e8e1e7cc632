#include "cli/verdict_table.hpp"

#include <cmath>
#include <cstdio>
#include <set>
#include <string>
#include <vector>

namespace perfgate::cli {
namespace {

std::string fmt(const nlohmann::json& v, const std::string& unit = "") {
  if (!v.is_number()) return "-";
  double d = v.get<double>();
  char buf[48];
  std::snprintf(buf, sizeof buf, std::fabs(d) >= 1000 ? "%.0f" : std::fabs(d) >= 10 ? "%.1f" : "%.3g", d);
  return unit.empty() || unit == "count" ? buf : std::string(buf) + " " + unit;
}

std::string gate_for(const nlohmann::json& scenario, const std::string& metric, bool primary) {
  for (const auto& g : scenario["gates"]) {
    const std::string kind = g.value("kind", "");
    const std::string name = g.value("name", "");
    const bool mine = (primary && kind == "policy") || (kind == "claim" && name.find(metric) != std::string::npos);
    if (!mine) continue;
    if (g["passed"].is_null()) return "n/a";
    return g["passed"].get<bool>() ? "PASS" : "FAIL";
  }
  return "-";
}

// The smallest slowdown the comparison would have flagged (80% power, corrected alpha, noise
// band included): a "no significant change" is only as good as this.
std::string detectable(const nlohmann::json& c) {
  if (!c.contains("detectable_effect")) return "-";
  if (!c["detectable_effect"].is_number()) return c.value("log_scale", false) ? "none (too few rounds)" : "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%", c["detectable_effect"].get<double>() * 100);
  return buf;
}

}  // namespace

void print_verdict_table(std::ostream& out, const nlohmann::json& results) {
  std::vector<std::vector<std::string>> rows = {
      {"scenario", "metric", "before", "after", "ratio", "interval", "detectable", "verdict", "gate"}};
  for (const auto& s : results["scenarios"]) {
    const std::string name = s.value("name", "?");
    const std::string primary = s.value("primary_metric", "");
    std::vector<std::string> metrics = {primary};
    for (const auto& g : s["gates"])
      if (g.value("kind", "") == "claim")
        for (const auto& c : s["comparisons"])
          if (c["variant"] == "after" && g.value("name", "").find(c.value("metric", "")) != std::string::npos &&
              std::find(metrics.begin(), metrics.end(), c.value("metric", "")) == metrics.end())
            metrics.push_back(c.value("metric", ""));
    for (const char* extra : {"wall_ms", "cpu_ms"})
      if (std::find(metrics.begin(), metrics.end(), extra) == metrics.end()) metrics.push_back(extra);
    bool any = false;
    for (const auto& metric : metrics) {
      for (const auto& c : s["comparisons"]) {
        if (c["variant"] != "after" || c["baseline"] != "before" || c["metric"] != metric) continue;
        const auto& sum = s["summaries"];
        const std::string unit = c.value("unit", "");
        auto med = [&](const char* v) {
          return sum.contains(v) && sum[v].contains(metric) ? fmt(sum[v][metric]["median"], unit) : std::string("-");
        };
        rows.push_back({name, metric + (metric == primary ? " *" : ""), med("before"), med("after"),
                        fmt(c["ratio"]) + "x", "[" + fmt(c["ci"][0]) + ", " + fmt(c["ci"][1]) + "]", detectable(c),
                        c.value("verdict", "-"), gate_for(s, metric, metric == primary)});
        any = true;
      }
    }
    for (const auto& g : s["gates"])
      if (g.value("kind", "") == "equivalence")
        rows.push_back({name, "same work", "", "", "", "", "",
                        g["passed"].is_boolean() && g["passed"].get<bool>() ? "equal" : "DIFFERENT",
                        g["passed"].is_boolean() && g["passed"].get<bool>() ? "PASS" : "FAIL"});
    // Against baseline.json: the ratio now, the accepted one, and what the comparison says.
    for (const auto& b : s.value("baseline", nlohmann::json::array())) {
      const bool compared = b.value("status", "") == "compared";
      std::string gate = "n/a";
      for (const auto& g : s["gates"])
        if (g.value("kind", "") == "baseline" && g.value("name", "") == "baseline on " + b.value("metric", ""))
          gate = g["passed"].is_null() ? "n/a" : g["passed"].get<bool>() ? "PASS" : "FAIL";
      const auto& now = b["now"];
      // Absolute figures: compared only on the baseline's host; the table says which.
      std::string absolute = "";
      if (compared) {
        const auto& a = b["absolute"];
        if (a.value("compared", false)) {
          char buf[64];
          std::snprintf(
              buf, sizeof buf, "; absolute %+.1f%% %s (same host)", (a["change"]["change"].get<double>() - 1) * 100,
              a["change"].value("verdict", "") == "no significant change" ? "~"
                                                                          : a["change"].value("verdict", "").c_str());
          absolute = buf;
        } else {
          absolute = "; absolute not compared (other host)";
        }
      }
      rows.push_back(
          {name, b.value("metric", "") + " vs baseline", compared ? fmt(b["baseline"]["ratio"]) + "x" : "",
           fmt(now["ratio"]) + "x", compared ? fmt(b["ratio_change"]["change"]) + "x" : "",
           compared ? "[" + fmt(b["ratio_change"]["ci"][0]) + ", " + fmt(b["ratio_change"]["ci"][1]) + "]" : "",
           compared ? b["ratio_change"].value("rule", "") : "",
           compared ? b["ratio_change"].value("verdict", "-") + absolute : "no comparable baseline", gate});
    }
    if (!any && s.contains("error")) rows.push_back({name, "-", "", "", "", "", "", "not run", "ERROR"});
  }
  std::vector<std::size_t> width(rows[0].size(), 0);
  for (const auto& r : rows)
    for (std::size_t i = 0; i < r.size(); ++i) width[i] = std::max(width[i], r[i].size());
  for (std::size_t ri = 0; ri < rows.size(); ++ri) {
    std::string line;
    for (std::size_t i = 0; i < rows[ri].size(); ++i) {
      std::string cell = rows[ri][i];
      cell.resize(width[i], ' ');
      line += (i ? "  " : "") + cell;
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out << line << "\n";
    if (ri == 0) {
      std::size_t total = 0;
      for (auto w : width) total += w + 2;
      out << std::string(total - 2, '-') << "\n";
    }
  }
  out << "(* the gated metric; ratio = after/before (Hodges-Lehmann over rounds), interval = its exact Walsh "
         "interval (>= 95%);\n"
         "   detectable = the smallest slowdown this run would have flagged with 80% power at its corrected alpha, "
         "noise band included;\n"
         "   \"vs baseline\" rows: before = the accepted ratio, after = this run's, ratio = their change, "
         "detectable = the baseline rule used)\n";
  // `ab`'s chosen metric: which, and why (the results' metric_choice).
  for (const auto& s : results.value("scenarios", nlohmann::json::array()))
    if (s.contains("metric_choice"))
      out << "(" << s.value("name", "") << ": gated " << s["metric_choice"].value("metric", "") << " — "
          << s["metric_choice"].value("why", "") << ")\n";
}

}  // namespace perfgate::cli
