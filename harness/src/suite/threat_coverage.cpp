#include "suite/threat_coverage.hpp"

#include <algorithm>
#include <functional>

#include "catalog/catalog.hpp"
#include "catalog/threats.hpp"

namespace perfgate::suite {

namespace {

// Which answer a class shows when its entries differ: the one that needs work first.
int rank(ClassAnswer a) {
  switch (a) {
    case ClassAnswer::NotApplicable:
      return 0;
    case ClassAnswer::Caught:
      return 1;
    case ClassAnswer::NotAsked:
      return 2;
    case ClassAnswer::NoLie:
      return 3;
    case ClassAnswer::Missed:
      return 4;
  }
  return 4;
}

void add(ThreatCoverage& to, const ThreatCoverage& c) {
  to.threats += c.threats;
  to.not_applicable += c.not_applicable;
  to.with_lie += c.with_lie;
  to.threats_caught += c.threats_caught;
  to.lies += c.lies;
  to.lies_caught += c.lies_caught;
}

ClassAnswer answer_of(const catalog::Manifest& m, const std::string& cls,
                      const std::function<bool(const std::string&)>& caught) {
  ClassAnswer worst = ClassAnswer::NotApplicable;
  bool answered = false;
  for (const auto& t : m.threats) {
    if (t.threat_class != cls) continue;
    answered = true;
    const ClassAnswer a = !t.applies()        ? ClassAnswer::NotApplicable
                          : t.not_asked_yet() ? ClassAnswer::NotAsked
                          : t.lie.empty()     ? ClassAnswer::NoLie
                          : caught(t.lie)     ? ClassAnswer::Caught
                                              : ClassAnswer::Missed;
    worst = std::max(worst, a, [](ClassAnswer x, ClassAnswer y) { return rank(x) < rank(y); });
  }
  return answered ? worst : ClassAnswer::NoLie;
}

}  // namespace

const char* to_string(ClassAnswer a) {
  switch (a) {
    case ClassAnswer::NotApplicable:
      return "n/a";
    case ClassAnswer::Caught:
      return "caught";
    case ClassAnswer::NotAsked:
      return "not asked";
    case ClassAnswer::NoLie:
      return "no lie";
    case ClassAnswer::Missed:
      return "MISSED";
  }
  return "?";
}

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
    for (const auto& cls : catalog::asked_classes()) c.asked.emplace_back(cls, answer_of(m, cls, caught));
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
  nlohmann::json asked = nlohmann::json::object();
  for (const auto& [cls, a] : c.asked) asked[cls] = to_string(a);
  return {{"scenario", c.scenario}, {"asked", asked},
          {"threats", c.threats},   {"not_applicable", c.not_applicable},
          {"with_lie", c.with_lie}, {"threats_caught", c.threats_caught},
          {"lies", c.lies},         {"lies_caught", c.lies_caught}};
}

nlohmann::json to_json(const CoverageReport& r) {
  nlohmann::json scenarios = nlohmann::json::array();
  for (const auto& c : r.scenarios) scenarios.push_back(to_json(c));
  return {{"scenarios", scenarios}, {"total", to_json(r.total)}, {"findings", r.findings}};
}

}  // namespace perfgate::suite
