// A scenario's threat model (scenario.json `threats`, docs/scenario-contract.md "Threats"): the
// shortcuts an AFTER could take to look faster while doing less, each with the workload request
// that exposes it and the declared lie that implements it, or a class that does not apply and
// why. `perfgate lies` runs the lies and reports how much of the model they cover.
#pragma once

#include <string>
#include <vector>

#include "common/json_fields.hpp"

namespace perfgate::catalog {

struct Manifest;

// What every threat list answers, class by class (caches, queries, protocols, I/O, callers,
// figures the program reports about itself, work left for later).
const std::vector<std::string>& threat_classes();

// The classes a workload must ask about where they apply (issue 49's kinds): a write between
// reads, a refused caller, a self-reported figure, equal sort keys, racing callers, bad input,
// deferred work. `perfgate lies` shows them per scenario.
const std::vector<std::string>& asked_classes();

struct Threat {
  std::string threat_class;    // one of threat_classes()
  std::string threat;          // what the AFTER would skip; empty when not applicable
  std::string request;         // the workload's request or phase that exposes it
  std::string lie;             // the declared lie implementing it; "" = none yet (a finding)
  std::string not_applicable;  // why the class does not apply to this scenario ("n/a")

  bool applies() const { return not_applicable.empty(); }
  // Listed, but the workload does not ask it yet: `request` says "not asked yet: " and what to add.
  bool not_asked_yet() const;
};

// Reads `threats` (absent: none), checking each entry against the manifest's declared lies,
// which must be read first. A malformed entry is a UsageError naming the file and field.
std::vector<Threat> read_threats(const FieldReader& manifest, const Manifest& m);

// What the threat model lacks, whatever the lies do when run: no list at all, a class not
// answered, a threat without a lie, a lie that answers no listed threat. One sentence each.
std::vector<std::string> threat_findings(const Manifest& m);

}  // namespace perfgate::catalog
