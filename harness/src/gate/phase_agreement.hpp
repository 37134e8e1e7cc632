// The agreement gate of a phased load client (service.load_client.agreement): for each phase
// named there, every sample's phase digest — or, for a variant whose manifest `equivalence`
// names a field, that phase's `extra.<field>` — must equal the first one seen. One
// EquivalenceGate per phase, so a failure names the phase, the variant and the round, and
// the first differing line of the two phases' $PERFGATE_OUTPUT files.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "gate/equivalence.hpp"

namespace perfgate::gate {

class PhaseAgreement {
 public:
  // `keys`: variant → "" (digest) or the extra field it is compared on; `keep_dir` holds the
  // reference outputs.
  PhaseAgreement(std::map<std::string, std::string> keys, fs::path keep_dir);
  // Throws EquivalenceFailure "equivalence gate failed: phase P: ..." on a mismatch.
  void check(const std::string& phase, const run::Sample& phase_report, const run::SampleFiles& files);
  // One gate per agreement phase, named "same <phase> answers".
  std::vector<model::GateResult> results() const;

 private:
  std::map<std::string, std::string> keys_;
  fs::path keep_dir_;
  std::map<std::string, EquivalenceGate> phases_;
  std::map<std::string, std::string> failures_;
};

}  // namespace perfgate::gate
