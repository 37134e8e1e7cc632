// Two Google Benchmark binaries compared benchmark by benchmark (`perfgate gbench`, and a
// gbench scenario under `run --against`): each binary is listed once before the rounds
// (--benchmark_list_tests), then run once per round, BEFORE and AFTER back to back in a random
// order like any paired round; one run is one sample whose metrics are every benchmark's figures
// (run/gbench_runner.hpp, add_gbench_metrics). The process's own wall and CPU time are not
// metrics: Google Benchmark runs each benchmark for a fixed time, so they say nothing.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "common/files.hpp"
#include "run/sample.hpp"

namespace perfgate::run {

// The benchmarks `argv` (a binary and its arguments) would run, in its order:
// argv + --benchmark_list_tests=true, in `cwd`. Throws UsageError naming the binary, with the
// tail of its stderr, when it cannot run or fails (an unknown flag, an input it cannot open).
std::vector<std::string> list_gbench_benchmarks(const std::string& scenario, const std::vector<std::string>& argv,
                                                const fs::path& cwd, const TempDir& dir, double timeout_s = 120);

struct GbenchSampling {
  std::string scenario;
  std::map<std::string, std::vector<std::string>> argv;  // variant → the binary and its arguments
  std::map<std::string, std::string> workdir;            // variant → the folder it runs in (none: a fresh one)
  std::vector<std::string> benchmarks;                   // what every sample must report: those both binaries run
  std::vector<int> cpus;
  double timeout_s = 600;
};

// `g` narrowed to `benchmarks` (of g.benchmarks): each binary runs them alone, by a
// --benchmark_filter that matches their names exactly, after any the user gave (the last wins).
GbenchSampling only_benchmarks(const GbenchSampling& g, const std::vector<std::string>& benchmarks);

// One run of `variant`'s binary as one sample of round `round`: metrics NAME:cpu_time,
// NAME:real_time and NAME:COUNTER for each of `g.benchmarks` (the median of its repetitions
// when the user asked for several), Google Benchmark's context block in `extra` (the results
// keep each binary's). Throws RunError when the binary fails, a benchmark failed or one of
// `g.benchmarks` is missing from its output; Interrupted on SIGINT.
Sample take_gbench_sample(const GbenchSampling& g, const std::string& variant, int round, bool warmup, int order,
                          int serial, const TempDir& run_dir);

// Whether `program` is a Google Benchmark binary: it holds libbenchmark's C++ symbols (linked
// with libbenchmark.so, or with the library built in and not stripped). False when it cannot be
// read.
bool is_gbench_binary(const fs::path& program);

// `perfgate ab` of a Google Benchmark binary: it runs each benchmark for a fixed time, so its
// wall and CPU time say nothing; throws UsageError pointing at `perfgate gbench` (exit 2).
// `shell`: the commands run under a shell (the binary is the command line's first word); `dir`:
// the folder they run in.
void refuse_gbench_binaries(const std::vector<std::string>& before, const std::vector<std::string>& after, bool shell,
                            const std::string& dir);

}  // namespace perfgate::run
