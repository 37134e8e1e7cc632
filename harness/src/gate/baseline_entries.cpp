#include "gate/baseline_entries.hpp"

#include <cmath>

#include "common/time_stamp.hpp"
#include "stats/bootstrap.hpp"
#include "stats/summary.hpp"

namespace perfgate::gate {

std::vector<model::BaselineEntry> entries_from_scenario(const model::ResultsDoc& results,
                                                        const model::ScenarioResult& scenario,
                                                        std::vector<std::string>* skipped) {
  std::vector<model::BaselineEntry> out;
  const std::string& name = scenario.name;
  const std::string& profile = scenario.profile;
  auto skip = [&](const std::string& what, const std::string& why) {
    if (skipped) skipped->push_back(name + "/" + profile + what + ": " + why);
  };
  if (scenario.error) {
    skip("", "the scenario did not complete (" + scenario.error->message + ")");
    return out;
  }
  if (scenario.equivalence_failed()) {
    skip("", "its equivalence gate failed");
    return out;
  }
  for (const auto& c : scenario.comparisons) {
    if (!c.gated) continue;
    if (!std::isfinite(c.r.ratio) || !std::isfinite(c.r.ci.lo) || !std::isfinite(c.r.ci.hi)) {
      skip("/" + c.metric, "the ratio or its interval is not finite (a zero median)");
      continue;
    }
    model::BaselineEntry e;
    e.scenario = name;
    e.profile = profile;
    e.metric = c.metric;
    e.variant = c.variant;
    e.compare_to = c.baseline;
    e.unit = c.unit;
    e.better = c.better;
    e.exact = c.exact;
    e.fingerprint = scenario.fingerprint;
    e.ratio = c.r.ratio;
    e.ci = {c.r.ci.lo, c.r.ci.hi};
    e.confidence = c.confidence;
    e.n = static_cast<int>(c.r.n);
    if (e.n < 2) {
      skip("/" + c.metric, "fewer than 2 rounds");
      continue;
    }
    auto medians = [&](const std::string& variant, double& median, std::array<double, 2>& ci) {
      auto values = scenario.measured_values(variant, c.metric);
      if (values.empty()) return false;
      // A fixed seed: the same results file gives the same baseline, byte for byte.
      auto iv = stats::bootstrap_median_ci(values, 1, 2000, e.confidence);
      median = stats::median(values);
      ci = {iv.lo, iv.hi};
      return true;
    };
    if (!medians(e.compare_to, e.before_median, e.before_median_ci) ||
        !medians(e.variant, e.after_median, e.after_median_ci)) {
      skip("/" + c.metric, "no raw samples of " + c.metric);
      continue;
    }
    e.host_fingerprint = results.host_fingerprint(scenario);
    e.host = {{"cpu_model", results.host.cpu_model}, {"cores", results.host.cores}, {"kernel", results.host.kernel}};
    e.commit = results.run.commit;
    e.dirty = results.run.dirty;
    e.run_id = results.run.id;
    e.recorded_at = now_iso8601();
    out.push_back(std::move(e));
  }
  return out;
}

}  // namespace perfgate::gate
