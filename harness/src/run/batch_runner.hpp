// Runs the rounds of one batch scenario (or one `ab` command pair): warm-up rounds first,
// then measured rounds in a fresh random order each, until a look says the verdict is clear,
// the round limit, or the time limit. Each sample is a fresh child in a fresh cgroup.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "common/files.hpp"
#include "measure/cgroup.hpp"
#include "run/ab_sampling.hpp"
#include "run/sample.hpp"
#include "run/stop_reason.hpp"

namespace perfgate::run {

struct VariantCommand {
  std::string name;
  std::vector<std::string> argv;
  bool digest_stdout = false;  // `ab`: the digest is a hash of stdout, there is no JSON line
  // The folder every sample of the variant runs in (ab: the caller's); empty: a fresh one per
  // sample, as the scenario contract promises. argv[0] with a slash is relative to it.
  fs::path workdir;
  AbSampling sampling;             // ab: output, input, failures ignored, commands around its runs
  std::vector<std::string> masks;  // `ab --mask`: masked out of the output before digesting (output_mask.hpp)
};

struct BatchPlan {
  std::string scenario;
  std::vector<VariantCommand> variants;
  std::vector<int> cpus;
  int warmup = 1;
  int max_rounds = 30;
  double max_time_s = 0;  // 0: no limit
  double timeout_s = 600;
  std::vector<int> looks;  // measured-round counts at which should_stop is asked
  std::uint64_t seed = 1;
  // A server the samples talk to (the throwaway PostgreSQL cluster): its CPU over each sample
  // is reported as server_cpu_ms. Null when there is none or it is not ours to measure.
  measure::SampleCgroup* server_cgroup = nullptr;
  // Duet (Bulej et al., "Duet Benchmarking", 2020): BEFORE and AFTER of a round run at the
  // same time, each pinned to one of cpus[0], cpus[1], swapping CPUs every round, so noise the
  // machine throws at both CPUs lands on both sides of the pair. Needs two CPUs and no
  // take_sample hook (batch work only); other variants still run one at a time.
  bool duet = false;
  // Counting samples (run/counting_sample.hpp): after each measured sample, one more run of
  // the variant per measure ("allocs", "instructions"), its counts merged into that sample.
  std::vector<std::string> counting;
};

struct SampleFiles {
  fs::path stdout_path, stderr_path, output_path;
  fs::path raw_path;  // `ab`: the compared output before masking (empty: output_path)
};

struct BatchHooks {
  using TakeSample = std::function<Sample(const std::string& variant, int round, bool warmup, int order, int serial)>;
  // Every sample as it completes (warm-up included). May throw to stop the scenario (an
  // equivalence failure): the files are still there while it runs.
  std::function<void(const Sample&, const SampleFiles&)> on_sample;
  // Asked at each look with every measured sample so far: true ends the rounds.
  std::function<bool(const std::vector<Sample>&, int look_index)> should_stop;
  std::function<void(int round, int rounds_planned, bool warmup)> on_round;
  // Service scenarios: how one sample is taken (default: run the variant's command once).
  TakeSample take_sample;
};

struct BatchOutcome {
  std::vector<Sample> samples;  // filled as samples complete, so it holds them after a throw
  int rounds = 0;               // measured rounds completed
  StopReason stop;
  std::vector<int> looks_taken;
  // Rounds whose outputs were compared in digest runs (run/ab_sampling.hpp), both sides: measured
  // round numbers, 0 for the warm-up.
  std::vector<int> digest_rounds;
};

// Runs --setup first and --cleanup last (ab), the rounds between them, and the last round's
// digest runs when the rounds stopped on one without.
void run_batch(const BatchPlan& plan, const TempDir& run_dir, const BatchHooks& hooks, BatchOutcome& out);

// Whether a variant's timed runs cannot be hashed (ab --output null or inherit): its outputs are
// compared in digest runs.
bool needs_digest_runs(const BatchPlan& plan);

}  // namespace perfgate::run
