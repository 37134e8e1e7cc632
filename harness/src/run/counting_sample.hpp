// Counting samples: one more run of a variant after each timed sample, under a counter, whose
// counts are merged into the timed sample. The counter's own cost (the allocation interposer's
// few nanoseconds a call, valgrind's 20-100x) so never enters a time, and every sample carries
// both its times and its counts. Counts are exact: BEFORE's and AFTER's spread is zero when the
// program is deterministic, so one round decides (stats' zero-spread rule).
//   allocs:       LD_PRELOAD=lib/libperfgate_alloc.so (harness/preload/); metrics allocs,
//                 alloc_bytes, frees, peak_heap_bytes, live_heap_bytes, summed over processes.
//   instructions: valgrind --tool=cachegrind --cache-sim=no; metric instructions (Ir) summed
//                 over processes. A proxy for CPU time, blind to syscalls, I/O and waiting.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "run/sample.hpp"

namespace perfgate::run {

namespace fs = std::filesystem;

// The command and extra environment of one counting run of `argv`, its counter's files in `dir`.
struct CountingCommand {
  std::vector<std::string> argv;
  std::map<std::string, std::string> env;
};
CountingCommand counting_command(const std::string& measure, const std::vector<std::string>& argv, const fs::path& dir);

// Reads the counter's files from `dir` into the sample's metrics. Throws RunError naming
// `what` when the counter left nothing (a static binary under the interposer, say).
void add_counting_metrics(Sample& sample, const std::string& measure, const fs::path& dir, const std::string& what);

// One line for the results' notes (and so the report): what the measure is and cannot see.
std::string counting_note(const std::string& measure);

}  // namespace perfgate::run
