// Google Benchmark binaries: the one way perfgate starts one (run_gbench_binary), the one
// reader of their JSON (gbench_figures), and the `gbench` scenario kind — a binary whose
// benchmarks named X/before and X/after are paired. The kind runs once with
// --benchmark_repetitions=N (random interleaving on, so repetitions of the two sides alternate in
// time like rounds) and --benchmark_out=JSON; repetition i of every X/before and X/after becomes
// round i, as run::Sample values, so the statistics and gates work unchanged. Metrics: each
// pair's X:cpu_time and X:real_time (ns, lower is better; one gated comparison per pair, never a
// sum) and its counters X:COUNTER. Two binaries compared benchmark by benchmark (`perfgate
// gbench`) are run/gbench_sample.hpp. The suite layer turns the profile's params (repetitions,
// min_time, filter) into a GbenchSpec.
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
  std::vector<std::string> gated;  // one metric per pair: X:cpu_time (X:real_time under UseRealTime)
  nlohmann::json equivalence;      // the "same benchmarks" gate
  nlohmann::json context;          // Google Benchmark's context block
  std::vector<std::string> notes;
};

// One run of a Google Benchmark binary — the one way perfgate starts one, for the gbench kind,
// `perfgate gbench` and a manifest's microbenchmarks (service.gbench) alike: in a cgroup of its
// own named after `name`, in `cwd` (empty: `dir`), its stdout, stderr and JSON
// (--benchmark_out) in `dir`, `args` after the output flags. The caller decides what a failure
// means.
// It runs at fixed addresses and at this nice value where perfgate may raise its priority
// (process/spawn.hpp): what one run draws from the placement or a neighbour's preemption is
// noise the other side of its round does not share.
inline constexpr int kBenchmarkNice = -20;
struct GbenchBinaryRun {
  std::vector<std::string> argv;
  ChildResult result;
  fs::path stderr_path;
  nlohmann::json doc;  // the --benchmark_out document; null when it wrote none or not JSON
};
GbenchBinaryRun run_gbench_binary(const std::string& name, const std::string& program,
                                  const std::vector<std::string>& args, const fs::path& dir,
                                  const std::vector<int>& cpus, double timeout_s, const fs::path& cwd = {});

// One repetition of one benchmark, times in ns; counters are every other number of its entry.
struct GbenchFigures {
  double real_ns = 0, cpu_ns = 0;
  std::map<std::string, double> counters;
};
// Every benchmark of a --benchmark_out document with its repetitions, in the order the document
// lists them: the iteration entries, or, where a benchmark has none (a user's
// --benchmark_report_aggregates_only), its "median" aggregate as one repetition. Throws
// RunError naming a benchmark that failed (error_occurred) or an unknown time unit.
std::vector<std::pair<std::string, std::vector<GbenchFigures>>> gbench_figures(const nlohmann::json& doc);

// A benchmark's figures as metrics of a sample: NAME:cpu_time, NAME:real_time (ns, lower is
// better) and NAME:COUNTER (items_per_second and bytes_per_second are rates, higher is better).
void add_gbench_metrics(Sample& s, const std::string& name, const GbenchFigures& f);

// Throws RunError when the binary fails or prints no pair; Interrupted on SIGINT.
GbenchRun run_gbench(const GbenchSpec& spec, const TempDir& run_dir);

// Pairs the iteration entries of a Google Benchmark JSON document (exposed for tests).
GbenchRun pair_gbench_output(const nlohmann::json& doc);

}  // namespace perfgate::run
