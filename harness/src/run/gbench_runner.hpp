// The `gbench` scenario kind: a Google Benchmark binary whose benchmarks named X/before and
// X/after are paired. It runs once with --benchmark_repetitions=N (random interleaving on, so
// repetitions of the two sides alternate in time like rounds) and --benchmark_out=JSON;
// repetition i of every X/before and X/after becomes round i, as run::Sample values, so the
// statistics and gates work unchanged. Metrics (ns, lower is better): real_time and cpu_time,
// the sums over the pairs, and, with several pairs, X:real_time and X:cpu_time for each.
// The suite layer turns the profile's params (repetitions, min_time, filter) into a GbenchSpec.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "common/files.hpp"
#include "run/child.hpp"
#include "run/sample.hpp"

namespace perfgate::run {

struct GbenchSpec {
  std::string scenario;  // names the cgroup and every message
  std::string program;
  int repetitions = 2;
  std::optional<std::string> min_time;  // --benchmark_min_time, as given ("0.05s" or "0.05")
  std::optional<std::string> filter;    // --benchmark_filter
  std::vector<std::string> extra_args;  // appended as they are (--scenario-arg)
  std::vector<int> cpus;
  double timeout_s = 600;
};

struct GbenchRun {
  std::vector<std::string> argv;
  std::vector<Sample> samples;
  int rounds = 0;
  nlohmann::json equivalence;  // the "same benchmarks" gate
  nlohmann::json context;      // Google Benchmark's context block
  std::vector<std::string> notes;
};

// One run of a Google Benchmark binary — the one way perfgate starts one, for the gbench kind
// and for a manifest's microbenchmarks (service.gbench) alike: in a cgroup of its own named
// after `name`, in `dir`, JSON to `dir`/out.json (--benchmark_out), `args` after the output
// flags. The caller decides what a failure means.
struct GbenchBinaryRun {
  std::vector<std::string> argv;
  ChildResult result;
  fs::path stderr_path;
  nlohmann::json doc;  // the --benchmark_out document; null when it wrote none or not JSON
};
GbenchBinaryRun run_gbench_binary(const std::string& name, const std::string& program,
                                  const std::vector<std::string>& args, const fs::path& dir,
                                  const std::vector<int>& cpus, double timeout_s);

// Throws RunError when the binary fails or prints no pair; Interrupted on SIGINT.
GbenchRun run_gbench(const GbenchSpec& spec, const TempDir& run_dir);

// Pairs the iteration entries of a Google Benchmark JSON document (exposed for tests).
GbenchRun pair_gbench_output(const nlohmann::json& doc);

}  // namespace perfgate::run
