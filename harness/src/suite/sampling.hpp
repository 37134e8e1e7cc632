// How one scenario's samples are taken, chosen once from its plan (plan::SampleSource and the
// manifest's kind) and --debug-samples, before its rounds start: the round loop asks the chosen
// kind for its hooks and its gates and never looks at the kind again.
//   child      one child per sample, run by the batch runner (batch scenarios, `ab`), each checked
//              by the equivalence gate (digests, or ab's masked stdout and --check)
//   scripted   --debug-samples: the script's sample, checked by the same equivalence gate
//   service    a server in its cgroup and the load generator (run/service_sampler.hpp), each
//              response checked against the first answer to the same request
//   phased     a service with its own load client, phase by phase (suite/phased_service.hpp)
//   gbench     one run of a Google Benchmark binary per sample (`perfgate gbench`, --against)
// --duet is a schedule of the child kind (run/batch_runner.hpp); the gbench kind of scenario
// (X/before–X/after pairs inside one binary) takes no rounds at all (ScenarioRun::run_gbench_kind).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "model/results_model.hpp"
#include "run/batch_runner.hpp"
#include "run/service_sampler.hpp"

namespace perfgate::suite {

struct ScenarioRun;

class Sampling {
 public:
  virtual ~Sampling() = default;
  // BatchHooks::take_sample: empty when the batch runner runs each variant's command itself.
  virtual run::BatchHooks::TakeSample take_sample() { return {}; }
  // BatchHooks::on_sample: each sample the runner took itself (warm-up included). May throw
  // gate::EquivalenceFailure to stop the scenario.
  virtual void on_sample(const run::Sample&, const run::SampleFiles&) {}
  // The gates that checked every sample so far: equivalence, responses, phases, benchmarks.
  virtual std::vector<model::GateResult> gates() const = 0;
  // What the gates want the results to say (a --mask that matched nothing).
  virtual std::vector<std::string> warnings() const { return {}; }
  // A service's load and server plan (parity's agreement pass runs on it); null for the others.
  virtual const run::ServicePlan* service() const { return nullptr; }
};

// The one place the kind is chosen. `run` outlives the returned value.
std::unique_ptr<Sampling> choose_sampling(ScenarioRun& run);

}  // namespace perfgate::suite
