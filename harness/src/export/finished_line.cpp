#include "export/finished_line.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "gate/policy.hpp"

namespace perfgate::exports {
namespace {

std::string seconds_text(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f s", s);
  return buf;
}

// The comparison the scenario is judged by: a gated one of its primary metric, else any gated one.
const model::Comparison* gated_comparison(const model::ScenarioResult& s) {
  for (const auto& c : s.comparisons)
    if (c.gated && c.metric == s.primary_metric) return &c;
  for (const auto& c : s.comparisons)
    if (c.gated) return &c;
  return nullptr;
}

std::string state(const model::ScenarioResult& s) {
  if (s.equivalence_failed()) return "different output (equivalence gate failed)";
  if (s.error) return "could not run (exit " + std::to_string(s.error->exit_code) + "): " + s.error->message;
  if (!s.stop) return "no rounds";
  std::string text = std::to_string(s.stop->rounds) + (s.stop->rounds == 1 ? " round" : " rounds");
  if (!s.stop->reason.empty()) text += " (" + s.stop->reason + ")";
  return text;
}

}  // namespace

std::string finished_line(const model::ScenarioResult& s, double seconds) {
  std::string line = (s.name.empty() ? std::string("?") : s.name) +
                     (s.profile.empty() || s.commands ? "" : "/" + s.profile) + ": " + state(s);
  // Many gated comparisons (one per benchmark): their count, since naming one here would read as
  // the one that decided, which Holm across the run has not done yet.
  const auto gated = std::count_if(s.comparisons.begin(), s.comparisons.end(), [](const auto& c) { return c.gated; });
  if (gated > 1 && !s.error)
    line += ", " + std::to_string(gated) + " gated comparisons";
  else if (const auto* c = gated_comparison(s); c && !s.error && std::isfinite(c->r.ratio))
    line += ", " + c->metric + " " + gate::format_decided(*c);
  // A failure quoting a program's stderr runs over several lines: the seconds end the first.
  const auto nl = line.find('\n');
  if (nl == std::string::npos) return line + ", " + seconds_text(seconds);
  return line.substr(0, nl) + ", " + seconds_text(seconds) + line.substr(nl);
}

}  // namespace perfgate::exports
