// The `gbench` scenario kind: a Google Benchmark binary whose benchmarks named X/before and
// X/after are paired. It runs once with --benchmark_repetitions=N (random interleaving on, so
// repetitions of the two sides alternate in time like rounds) and --benchmark_out=JSON;
// repetition i of every X/before and X/after becomes round i, as run::Sample values, so the
// statistics and gates work unchanged. Metrics (ns, lower is better): real_time and cpu_time,
// the sums over the pairs, and, with several pairs, X:real_time and X:cpu_time for each.
// Profile params: repetitions (default: the profile's min_rounds), min_time (seconds), filter.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "common/files.hpp"
#include "plan/plan.hpp"
#include "run/sample.hpp"

namespace perfgate::cli {

struct GbenchRun {
  std::vector<std::string> argv;
  std::vector<run::Sample> samples;
  int rounds = 0;
  nlohmann::json equivalence;  // the "same benchmarks" gate
  nlohmann::json context;      // Google Benchmark's context block
  std::vector<std::string> notes;
};

int gbench_repetitions(const plan::ScenarioPlan& sp);

// Throws RunError when the binary fails or prints no pair; Interrupted on SIGINT.
GbenchRun run_gbench_scenario(const plan::ScenarioPlan& sp, const TempDir& run_dir);

// Pairs the iteration entries of a Google Benchmark JSON document (exposed for tests).
GbenchRun pair_gbench_output(const nlohmann::json& doc);

}  // namespace perfgate::cli
