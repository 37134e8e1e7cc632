#include "suite/debug_samples.hpp"

#include "common/errors.hpp"

namespace perfgate::suite {

std::optional<run::SampleScript> load_sample_script(const plan::RunPlan& plan) {
  if (!plan.debug_samples) return std::nullopt;
  const std::string file = plan.debug_samples->string();
  auto script = run::SampleScript::load(file);
  for (const auto& sp : plan.scenarios) {
    const catalog::ScenarioKind kind = sp.manifest.kind;
    if (kind != catalog::ScenarioKind::Batch && kind != catalog::ScenarioKind::Ab && !sp.gbench())
      throw UsageError("--debug-samples: scenario " + sp.manifest.name + " is a " + std::string(name_of(kind)) +
                       " scenario; only batch and ab samples (one child each) can be scripted");
    for (const auto& v : sp.variants)
      if (const std::string missing = script.lacks(sp.manifest.name, v.name); !missing.empty())
        throw UsageError(file + ": " + missing + ": not scripted, and scenario " + sp.manifest.name + " runs variant " +
                         v.name);
  }
  return script;
}

std::function<run::Sample(const std::string&, int, bool, int, int)> scripted_sampler(const run::SampleScript& script,
                                                                                     const plan::ScenarioPlan& sp,
                                                                                     gate::EquivalenceGate& gate) {
  return [&script, &sp, &gate](const std::string& variant, int round, bool, int order, int) {
    run::Sample s = script.take(sp.manifest.name, variant, round, sp.warmup, order);
    gate.check(s, {});  // no output file: a mismatch names the digests, there is nothing to diff
    return s;
  };
}

}  // namespace perfgate::suite
