#include "plan/nested_run.hpp"

namespace perfgate::plan {

RunOptions nested_options(const RunOptions& asked, const NestedRun& n) {
  RunOptions o = asked;
  if (n.rounds) {
    o.min_rounds = o.max_rounds = *n.rounds;
    o.max_time_s.reset();
  }
  if (n.max_rounds) o.max_rounds = n.max_rounds;
  if (n.warmup) o.warmup = *n.warmup;
  if (n.seed_offset) o.seed = asked.seed.value_or(1) + *n.seed_offset;
  o.outputs.quiet = true;
  o.outputs.out_dir.clear();
  o.outputs.json_path = n.results_file;
  // A nested run answers its caller's question; the caller's run is what a baseline judges.
  o.baseline = catalog::BaselineChoice{catalog::BaselineChoice::Kind::None};
  if (!n.debug_samples.empty()) o.debug_samples = n.debug_samples;
  if (n.policy) o.policy = n.policy;
  if (n.noise) o.noise = n.noise;
  if (n.alpha) o.alpha = n.alpha;
  if (n.cannot_tell) o.outputs.cannot_tell = *n.cannot_tell;
  if (n.duet) o.duet = *n.duet;
  if (n.measures) o.measures = *n.measures;
  if (!n.argv.empty()) o.argv = n.argv;
  if (n.lie_args) o.lie_args = n.lie_args;
  if (n.bisect_step) o.bisect_step = n.bisect_step;
  if (!n.against_dir.empty()) o.against_dir = n.against_dir;
  o.parity_measures = asked.parity_measures && n.parity_measures;
  return o;
}

}  // namespace perfgate::plan
