// How Google Benchmark names a benchmark and what the gbench kind reads in a name: trailing
// options (/repeats:N, /min_time:…, /threads:N, /real_time, …), the X/before and X/after pairs of
// the gbench scenario kind, and which time a benchmark is measured by.
#pragma once

#include <string>
#include <utility>

namespace perfgate::catalog {

// "BM_Sum/before/repeats:10" → ("BM_Sum", "before"); ("", "") when it is not a before/after benchmark.
std::pair<std::string, std::string> split_gbench_pair_name(std::string name);

// The time Google Benchmark measures a benchmark by: "real_time" when its trailing options hold
// /real_time or /manual_time (UseRealTime, UseManualTime), else "cpu_time".
std::string gbench_time_metric(const std::string& benchmark);

// A benchmark's gated metric, "NAME:cpu_time" (or NAME:real_time), and back: the benchmark a
// metric of a `perfgate gbench` sample belongs to ("NAME" of NAME:cpu_time or NAME:items_per_second).
std::string gbench_gated_metric(const std::string& benchmark);
std::string gbench_benchmark_of(const std::string& metric);

}  // namespace perfgate::catalog
