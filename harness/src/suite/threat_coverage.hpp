// How much of each scenario's threat model (catalog/threats.hpp) `perfgate lies` showed caught:
// threats listed, threats with a lie, lies caught as declared; and the findings, each a
// sentence: a threat without a lie, a class not answered, a lie that was not caught.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "catalog/manifest.hpp"
#include "suite/lies.hpp"

namespace perfgate::suite {

// How a scenario answers one class: n/a, every threat's lie caught, a threat the workload does
// not ask yet, a threat it asks without a lie, or a lie that was not caught.
enum class ClassAnswer { NotApplicable, Caught, NotAsked, NoLie, Missed };

const char* to_string(ClassAnswer a);

struct ThreatCoverage {
  std::string scenario;
  int threats = 0;         // applicable entries of `threats`
  int not_applicable = 0;  // classes answered "n/a"
  int with_lie = 0;        // threats naming a declared lie
  int threats_caught = 0;  // threats whose lie was caught as declared
  int lies = 0, lies_caught = 0;
  // catalog::asked_classes(), in order: the worst answer among the class's entries.
  std::vector<std::pair<std::string, ClassAnswer>> asked;
};

struct CoverageReport {
  std::vector<ThreatCoverage> scenarios;
  ThreatCoverage total;  // scenario "total"
  std::vector<std::string> findings;
};

// The scenarios of `checks`, in their order, with the manifest of each from `catalog`.
CoverageReport threat_coverage(const std::vector<catalog::Manifest>& catalog, const std::vector<LieCheck>& checks);

nlohmann::json to_json(const ThreatCoverage& c);
nlohmann::json to_json(const CoverageReport& r);

}  // namespace perfgate::suite
