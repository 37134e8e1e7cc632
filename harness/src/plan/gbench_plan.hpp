// `perfgate gbench --before BIN_A --after BIN_B [--filter REGEX] [-- ARGS]`: two Google Benchmark
// binaries as one scenario of kind gbench whose rounds run each binary once (BEFORE and AFTER
// back to back, in a random order), in the caller's folder like `ab`. Benchmarks are paired by
// name; each one both binaries run is one gated comparison of its time (cpu_time, real_time
// under UseRealTime/UseManualTime), Holm-corrected across the run with every other. Planned in
// one call that runs both binaries to list their benchmarks (through a BenchmarkLister, since
// planning runs nothing itself: suite/benchmark_lister.hpp is the one that does).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "plan/plan.hpp"

namespace perfgate::plan {

// libbenchmark's default is 0.5 s per benchmark in one run; a scenario's microbenchmarks run
// at least 10 paired rounds of 0.05 s, as much measuring per side as one default run, spread
// over rounds (their baselines were recorded so).
inline constexpr const char* kGbenchMinTime = "0.05";
// `perfgate gbench` decides within ab's 50 s budget, and many short rounds decide more than few
// long ones: 13 benchmarks against a byte copy of their binary, 3 runs each, quiet: exit 0 in 3
// of 3 at 0.005 s; beside a two-job build exit 5 in 3 of 3 at 0.01 s, 2 of 3 at 0.005 s
// (docs/gbench.md).
inline constexpr const char* kGbenchPairMinTime = "0.005";

struct GbenchArgs {
  std::string name = "gbench";
  std::string before, after;      // the two binaries
  std::string filter;             // --filter REGEX: --benchmark_filter for both
  std::vector<std::string> args;  // after `--`: for both, as given
};

// compare.py's order, `perfgate gbench OLD NEW [-- ARGS]`: without --before and --after, the
// first two words that are not options are the binaries. Neither way: a UsageError.
GbenchArgs with_positional_binaries(GbenchArgs g);

// One scenario comparing the two binaries. Each command is the binary, --benchmark_filter (from
// --filter or ARGS), --benchmark_repetitions=1 and --benchmark_min_time=0.05 unless ARGS set
// them (a user's --benchmark_repetitions=N runs N in each process and the round takes their
// median), then ARGS. Both binaries list their benchmarks (`list`): those both run are the gated
// metrics (NAME:cpu_time, or NAME:real_time), those only one has are noted and not run. The
// first look comes at the round where a rank test can reject inside the run's Holm family.
// Throws UsageError for flags perfgate must own (--benchmark_out, --benchmark_out_format,
// --benchmark_list_tests), two filters, a binary that cannot run, or two sharing no benchmark.
RunPlan plan_gbench(const GbenchArgs& args, const RunOptions& options, const BenchmarkLister& list);

// "warning: NAME is only in after (BIN): not compared", per benchmark only one binary has: the
// plan's notes, and the scenario's notes in the results.
std::vector<std::string> gbench_only_lines(const ScenarioPlan& s);

// A gbench scenario's profile params: repetitions (at least 2; none: the profile's
// min_rounds), min_time (seconds, or Google Benchmark's "0.5s"), filter.
struct GbenchParams {
  std::optional<int> repetitions;
  std::optional<std::string> min_time, filter;
};
GbenchParams gbench_params(const json& params);

// `run --against DIR` of a gbench scenario: the other build's binary (`other_program`) against
// this build's, each run once per round, comparing the X/after benchmarks both list.
void plan_gbench_against(ScenarioPlan& s, const std::string& other_program, const BenchmarkLister& list);

// `name` as a regular expression matching exactly itself (for --benchmark_filter).
std::string exact_regex(const std::string& name);

}  // namespace perfgate::plan
