#include "suite/phased_service.hpp"

namespace perfgate::suite {

namespace {
std::map<std::string, std::string> equivalence_keys(const plan::ScenarioPlan& sp) {
  std::map<std::string, std::string> keys;
  for (const auto& v : sp.variants) keys[v.name] = v.equivalence;
  return keys;
}
}  // namespace

PhasedService::PhasedService(const plan::ScenarioPlan& sp, run::ServicePlan service, const TempDir& run_dir)
    : service_(std::move(service)),
      client_(run::phased_client_of(sp.manifest.service.at("load_client"),
                                    std::get<plan::ContractProgram>(sp.source).program, sp.timeout_s)),
      run_dir_(run_dir),
      agreement_(equivalence_keys(sp), run_dir.path()) {}

std::vector<std::string> PhasedService::phases() const {
  std::vector<std::string> out = {"startup"};
  out.insert(out.end(), client_.phases.begin(), client_.phases.end());
  return out;
}

run::Sample PhasedService::take(const std::string& variant, int round, bool warmup, int order, int serial) {
  return run::run_phased_sample(service_, client_, variant, round, warmup, order, run_dir_, serial,
                                [this](const std::string& phase, const run::Sample& report,
                                       const run::SampleFiles& files) { agreement_.check(phase, report, files); });
}

}  // namespace perfgate::suite
