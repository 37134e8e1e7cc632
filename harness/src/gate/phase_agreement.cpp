#include "gate/phase_agreement.hpp"

namespace perfgate::gate {

PhaseAgreement::PhaseAgreement(std::map<std::string, std::string> keys, fs::path keep_dir)
    : keys_(std::move(keys)), keep_dir_(std::move(keep_dir)) {}

void PhaseAgreement::check(const std::string& phase, const run::Sample& phase_report, const run::SampleFiles& files) {
  auto it = phases_.find(phase);
  if (it == phases_.end()) {
    const fs::path dir = keep_dir_ / ("agreement-" + phase);
    fs::create_directories(dir);
    it = phases_.emplace(std::piecewise_construct, std::forward_as_tuple(phase), std::forward_as_tuple(keys_, dir))
             .first;
  }
  try {
    it->second.check(phase_report, files);
  } catch (const EquivalenceFailure& e) {
    static const std::string head = "equivalence gate failed: ";
    std::string what = e.what();
    if (what.rfind(head, 0) == 0) what = what.substr(head.size());
    failures_[phase] = head + "phase " + phase + ": " + what;
    throw EquivalenceFailure(failures_[phase]);
  }
}

std::vector<model::GateResult> PhaseAgreement::results() const {
  std::vector<model::GateResult> out;
  for (const auto& [phase, gate] : phases_) {
    model::GateResult r = gate.result();
    r.name = "same " + phase + " answers";
    if (auto f = failures_.find(phase); f != failures_.end()) r.detail = f->second;
    out.push_back(r);
  }
  return out;
}

}  // namespace perfgate::gate
