#include "gate/spread_rule.hpp"

#include <cmath>
#include <cstdio>
#include <map>
#include <optional>

namespace perfgate::gate {
namespace {

double mean_of(const std::vector<double>& v) {
  double t = 0;
  for (double x : v) t += x;
  return t / static_cast<double>(v.size());
}

double sd_of(const std::vector<double>& v) {
  if (v.size() < 2) return 0;
  const double m = mean_of(v);
  double ss = 0;
  for (double x : v) ss += (x - m) * (x - m);
  return std::sqrt(ss / static_cast<double>(v.size() - 1));
}

std::string short_id(const std::string& fingerprint) {
  return fingerprint.empty() ? "unnamed" : fingerprint.substr(0, 8);
}

std::string ratio_text_of_log(double log_ratio) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", std::exp(log_ratio));
  return buf;
}

}  // namespace

std::optional<Spread> class_spread(const std::vector<model::AcceptedRun>& runs, const std::string& host_class,
                                   const std::string& machine, int min_runs, double min_sd, std::string* why_not) {
  // ln ratios per machine of this class (runs that do not name their machine count as one).
  std::map<std::string, std::vector<double>> by_machine;
  for (const auto& r : runs)
    if (r.host_class() == host_class) by_machine[r.host_fingerprint].push_back(std::log(r.ratio));
  Spread s;
  s.machines = static_cast<int>(by_machine.size());
  const auto mine = by_machine.find(machine);
  if (mine != by_machine.end() && static_cast<int>(mine->second.size()) >= min_runs) {
    const auto& y = mine->second;
    const double k = static_cast<double>(y.size()), raw = sd_of(y);
    s.rule = "between-run";
    s.mean = mean_of(y);
    // Exact-looking runs (no spread at all) keep sd 0: only the tolerance separates a change.
    s.sd = raw > 0 ? std::max(raw, min_sd) : 0.0;
    s.scale = s.sd * std::sqrt(1 + 1 / k);
    s.df = k - 1;
    s.accepted_runs = static_cast<int>(y.size());
    char buf[160];
    std::snprintf(buf, sizeof buf, "between-run: %d accepted runs on this machine (%s) of %s, between-run sd %.3g",
                  s.accepted_runs, short_id(machine).c_str(), host_class.c_str(), s.sd);
    s.why = buf;
    return s;
  }
  if (s.machines >= 2) {
    std::vector<double> means, within;
    int n = 0;
    for (const auto& [m, y] : by_machine) {
      means.push_back(mean_of(y));
      if (y.size() >= 2) within.push_back(sd_of(y));
      n += static_cast<int>(y.size());
    }
    const double k = static_cast<double>(means.size());
    const double between = std::max(sd_of(means), min_sd);
    const double inside = within.empty() ? min_sd : std::max(mean_of(within), min_sd);
    s.rule = "between-machine";
    s.mean = mean_of(means);
    // A new machine draws its own offset and its own run: both spreads, the offset's estimated
    // from k machine means (which already hold some within-machine noise: erring wide).
    s.sd = std::sqrt(between * between + inside * inside);
    s.scale = s.sd * std::sqrt(1 + 1 / k);
    s.df = k - 1;
    s.accepted_runs = n;
    char buf[200];
    std::snprintf(buf, sizeof buf,
                  "between-machine: %d accepted runs on %d machines of %s, machine sd %.3g, within-machine sd %.3g", n,
                  s.machines, host_class.c_str(), between, inside);
    s.why = buf;
    return s;
  }
  std::string why = std::to_string(s.machines == 0 ? 0 : by_machine.begin()->second.size()) +
                    " accepted run(s) on host class " + host_class;
  if (s.machines == 1) {
    const auto& [m, y] = *by_machine.begin();
    why += ", all on one machine (" + short_id(m) + ", ratio " + ratio_text_of_log(mean_of(y)) + ")";
    why += m == machine ? ", this one: " + std::to_string(min_runs) + " needed for its spread"
                        : " and this run is on another (" + short_id(machine) +
                              "): how far machines of one class move a time ratio is unknown until two have "
                              "accepted runs";
  } else {
    why += " (" + std::to_string(min_runs) + " needed)";
  }
  *why_not = why;
  return std::nullopt;
}

}  // namespace perfgate::gate
