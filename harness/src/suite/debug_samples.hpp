// `run` / `ab --debug-samples FILE`: a plan's samples from a script (run/sample_script.hpp)
// instead of its programs, so the stopping rule, Holm, the gates and the exit codes can be
// tested on exact inputs. Only the taking of a sample is replaced: what follows it runs as it
// does for measured samples.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "gate/equivalence.hpp"
#include "plan/plan.hpp"
#include "run/sample_script.hpp"

namespace perfgate::suite {

// The script of plan.debug_samples, checked against the plan before anything runs: every
// scenario a batch or ab one (a service's and a gbench binary's samples are not one child each),
// every variant it runs scripted. Nothing when the flag is not given. Throws UsageError.
std::optional<run::SampleScript> load_sample_script(const plan::RunPlan& plan);

// The BatchHooks::take_sample of a scenario's rounds: the scripted sample, checked by the
// equivalence gate as run_batch checks a measured one (a take_sample hook bypasses on_sample).
std::function<run::Sample(const std::string&, int, bool, int, int)> scripted_sampler(const run::SampleScript& script,
                                                                                     const plan::ScenarioPlan& sp,
                                                                                     gate::EquivalenceGate& gate);

}  // namespace perfgate::suite
