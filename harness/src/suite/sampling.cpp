#include "suite/sampling.hpp"

#include <optional>

#include "gate/equivalence.hpp"
#include "suite/debug_samples.hpp"
#include "suite/phased_service.hpp"
#include "suite/scenario_run.hpp"

namespace perfgate::suite {

namespace {

gate::EquivalenceGate equivalence_gate(const ScenarioRun& r) {
  std::map<std::string, std::string> keys;
  for (const auto& v : r.sp.variants) keys[v.name] = v.equivalence;
  const auto* commands = r.sp.commands();
  return gate::EquivalenceGate(keys, r.run_dir.path(), commands ? commands->check : std::vector<std::string>{});
}

class ChildSampling : public Sampling {
 public:
  explicit ChildSampling(const ScenarioRun& r) : equivalence_(equivalence_gate(r)) {}
  void on_sample(const run::Sample& s, const run::SampleFiles& f) override { equivalence_.check(s, f); }
  std::vector<model::GateResult> gates() const override { return {equivalence_.result()}; }
  std::vector<std::string> warnings() const override { return equivalence_.warnings(); }

 protected:
  gate::EquivalenceGate equivalence_;
};

// A script's digests go through the equivalence gate as a child's would; a scripted pair of
// Google Benchmark binaries still reports which benchmarks it paired, and its settled
// benchmarks leave the rounds as a real pair's do.
class ScriptedSampling : public ChildSampling {
 public:
  ScriptedSampling(const ScenarioRun& r, const run::SampleScript& script)
      : ChildSampling(r), run_(r), take_(scripted_sampler(script, r.sp, equivalence_)) {}
  run::BatchHooks::TakeSample take_sample() override {
    if (!run_.sp.gbench()) return take_;
    return [this](const std::string& variant, int round, bool warmup, int order, int serial) {
      run::Sample s = take_(variant, round, warmup, order, serial);
      run_.drop_settled(s);
      return s;
    };
  }
  std::vector<model::GateResult> gates() const override {
    return run_.sp.gbench() ? std::vector<model::GateResult>{run_.gbench_pair_gate()} : ChildSampling::gates();
  }

 private:
  const ScenarioRun& run_;
  run::BatchHooks::TakeSample take_;
};

class ServiceSampling : public Sampling {
 public:
  explicit ServiceSampling(ScenarioRun& r) : service_(r.service_plan()), run_dir_(r.run_dir) {
    if (PhasedService::wanted(r.sp.manifest)) {
      phased_.emplace(r.sp, service_, r.run_dir);
      r.result.phases = phased_->phases();
    }
  }
  run::BatchHooks::TakeSample take_sample() override {
    return [this](const std::string& variant, int round, bool warmup, int order, int serial) {
      if (phased_) return phased_->take(variant, round, warmup, order, serial);
      return run::run_service_sample(service_, variant, round, warmup, order, run_dir_, serial, responses_.book());
    };
  }
  std::vector<model::GateResult> gates() const override {
    return phased_ ? phased_->gates() : std::vector<model::GateResult>{responses_.result()};
  }
  const run::ServicePlan* service() const override { return &service_; }

 private:
  run::ServicePlan service_;
  const TempDir& run_dir_;
  gate::ResponseGate responses_;
  std::optional<PhasedService> phased_;
};

class GbenchSampling : public Sampling {
 public:
  explicit GbenchSampling(const ScenarioRun& r) : run_(r) {}
  run::BatchHooks::TakeSample take_sample() override { return run_.gbench_sampler(); }
  std::vector<model::GateResult> gates() const override { return {run_.gbench_pair_gate()}; }

 private:
  const ScenarioRun& run_;
};

}  // namespace

std::unique_ptr<Sampling> choose_sampling(ScenarioRun& r) {
  if (r.script) return std::make_unique<ScriptedSampling>(r, *r.script);
  if (r.sp.gbench()) return std::make_unique<GbenchSampling>(r);
  if (r.sp.manifest.kind == catalog::ScenarioKind::Service) return std::make_unique<ServiceSampling>(r);
  return std::make_unique<ChildSampling>(r);
}

}  // namespace perfgate::suite
