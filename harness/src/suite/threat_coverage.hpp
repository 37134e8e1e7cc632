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

struct ThreatCoverage {
  std::string scenario;
  int threats = 0;         // applicable entries of `threats`
  int not_applicable = 0;  // classes answered "n/a"
  int with_lie = 0;        // threats naming a declared lie
  int threats_caught = 0;  // threats whose lie was caught as declared
  int lies = 0, lies_caught = 0;
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
