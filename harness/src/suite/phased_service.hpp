// A service scenario driven by its own load client (`service.load_client`): each sample is
// run::run_phased_sample, and the phases named in `agreement` go through the phase agreement
// gate. Round design: one sample = one server start and every phase, so a round pairs whole
// server lifetimes of BEFORE and AFTER back to back (the paired statistics need nothing more),
// no state (caches, the writer's progress, page cache charged to the cgroup) carries over from
// one variant to the other, and each sample's start-up is measured as its own phase.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "common/files.hpp"
#include "gate/phase_agreement.hpp"
#include "plan/plan.hpp"
#include "run/phased_client.hpp"

namespace perfgate::suite {

class PhasedService {
 public:
  static bool wanted(const catalog::Manifest& m) {
    return m.kind == catalog::ScenarioKind::Service && m.service.contains("load_client");
  }
  PhasedService(const plan::ScenarioPlan& sp, run::ServicePlan service, const TempDir& run_dir);
  run::Sample take(const std::string& variant, int round, bool warmup, int order, int serial);
  std::vector<model::GateResult> gates() const { return agreement_.results(); }
  // The harness's `startup` and the client's phases, in the order they run.
  std::vector<std::string> phases() const;

 private:
  run::ServicePlan service_;
  run::PhasedClient client_;
  const TempDir& run_dir_;
  gate::PhaseAgreement agreement_;
};

}  // namespace perfgate::suite
