// `perfgate gbench --before BIN_A --after BIN_B [--filter REGEX] [-- ARGS]`: two Google Benchmark
// binaries as one scenario of kind gbench whose rounds run each binary once (BEFORE and AFTER
// back to back, in a random order), in the caller's folder like `ab`. Benchmarks are paired by
// name; each one both binaries run is one gated comparison of its time (cpu_time, real_time
// under UseRealTime/UseManualTime), Holm-corrected across the run with every other. Planned in
// two steps, since only the binaries know their benchmarks: plan_gbench checks the arguments
// and composes both commands, the suite lists each binary (run/gbench_sample.hpp), and
// set_gbench_benchmarks makes the gated comparisons of what the lists share.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "plan/plan.hpp"

namespace perfgate::plan {

// libbenchmark's default is 0.5 s per benchmark in one run; perfgate runs at least 10 paired
// rounds of 0.05 s, as much measuring per side as one default run, spread over rounds.
inline constexpr const char* kGbenchMinTime = "0.05";

struct GbenchArgs {
  std::string name = "gbench";
  std::string before, after;      // the two binaries
  std::string filter;             // --filter REGEX: --benchmark_filter for both
  std::vector<std::string> args;  // after `--`: for both, as given
};

// One scenario comparing the two binaries. Each command is the binary, --benchmark_filter (from
// --filter or ARGS), --benchmark_repetitions=1 and --benchmark_min_time=0.05 unless ARGS set
// them (a user's --benchmark_repetitions=N runs N in each process and the round takes their
// median), then ARGS. Throws UsageError for flags perfgate must own (--benchmark_out,
// --benchmark_out_format, --benchmark_list_tests), two filters, or a binary that cannot run.
RunPlan plan_gbench(const GbenchArgs& args, const RunOptions& options);

// What each binary listed: the benchmarks both run become the gated metrics (NAME:cpu_time,
// or NAME:real_time), those only one has are kept to be reported (and not run: the filter
// becomes the exact names both share). The first look comes at the round where a rank test
// can reject inside the run's Holm family. Throws UsageError when the two share no benchmark.
void set_gbench_benchmarks(RunPlan& plan, ScenarioPlan& s, const std::vector<std::string>& before,
                           const std::vector<std::string>& after, const RunOptions& options);

// A gbench scenario's profile params: repetitions (at least 2; none: the profile's
// min_rounds), min_time (seconds, or Google Benchmark's "0.5s"), filter.
struct GbenchParams {
  std::optional<int> repetitions;
  std::optional<std::string> min_time, filter;
};
GbenchParams gbench_params(const json& params);

// `run --against DIR` of a gbench scenario: the other build's binary (`other_program`) against
// this build's, each run once per round, comparing the X/after benchmarks both have.
void plan_gbench_against(ScenarioPlan& s, const std::string& other_program);

// `name` as a regular expression matching exactly itself (for --benchmark_filter).
std::string exact_regex(const std::string& name);

}  // namespace perfgate::plan
