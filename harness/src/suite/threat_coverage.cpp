#include "suite/threat_coverage.hpp"

#include <algorithm>

#include "catalog/catalog.hpp"

namespace perfgate::suite {

namespace {

void add(ThreatCoverage& to, const ThreatCoverage& c) {
  to.threats += c.threats;
  to.not_applicable += c.not_applicable;
  to.with_lie += c.with_lie;
  to.threats_caught += c.threats_caught;
  to.lies += c.lies;
  to.lies_caught += c.lies_caught;
}

}  // namespace

CoverageReport threat_coverage(const std::vector<catalog::Manifest>& catalog, const std::vector<LieCheck>& checks) {
  CoverageReport r;
  r.total.scenario = "total";
  std::vector<std::string> order;
  for (const auto& c : checks)
    if (std::find(order.begin(), order.end(), c.scenario) == order.end()) order.push_back(c.scenario);
  for (const auto& name : order) {
    const catalog::Manifest& m = catalog::find_scenario(catalog, name);
    auto caught = [&](const std::string& lie) {
      return std::any_of(checks.begin(), checks.end(),
                         [&](const LieCheck& c) { return c.scenario == name && c.lie == lie && c.caught; });
    };
    ThreatCoverage c;
    c.scenario = name;
    for (const auto& t : m.threats) {
      if (!t.applies()) {
        ++c.not_applicable;
        continue;
      }
      ++c.threats;
      c.with_lie += t.lie.empty() ? 0 : 1;
      c.threats_caught += !t.lie.empty() && caught(t.lie) ? 1 : 0;
    }
    for (const auto& l : m.lies) {
      ++c.lies;
      c.lies_caught += caught(l.name) ? 1 : 0;
    }
    for (auto& f : catalog::threat_findings(m)) r.findings.push_back(std::move(f));
    for (const auto& t : m.threats)
      if (!t.lie.empty() && !caught(t.lie))
        r.findings.push_back(m.file.string() + ": threat (" + t.threat_class + ") '" + t.threat + "': its lie " +
                             t.lie + " was not caught as declared");
    add(r.total, c);
    r.scenarios.push_back(std::move(c));
  }
  return r;
}

nlohmann::json to_json(const ThreatCoverage& c) {
  return {{"scenario", c.scenario},
          {"threats", c.threats},
          {"not_applicable", c.not_applicable},
          {"with_lie", c.with_lie},
          {"threats_caught", c.threats_caught},
          {"lies", c.lies},
          {"lies_caught", c.lies_caught}};
}

nlohmann::json to_json(const CoverageReport& r) {
  nlohmann::json scenarios = nlohmann::json::array();
  for (const auto& c : r.scenarios) scenarios.push_back(to_json(c));
  return {{"scenarios", scenarios}, {"total", to_json(r.total)}, {"findings", r.findings}};
}

}  // namespace perfgate::suite
