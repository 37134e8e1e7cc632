// Whether the CPU a variant's samples ran on was shared while they ran, told from outside the
// program: interrupts' share of the wall (the /proc/stat irq columns), the run queue's wait
// (the sample cgroup's cpu.pressure), and for Google Benchmark binaries the ratio of each
// benchmark's real time to its CPU time (a benchmark thread pinned to a CPU another process also
// wants waits for it). Steal alone missed a pinned CPU that another build shared: its gbench
// times ran at 20-36x their CPU time and no warning said so. A warning is a note beside the
// verdict, never a gate: the verdict still holds at its level, on noisier figures.
#pragma once

#include <string>
#include <vector>

#include "run/sample.hpp"

namespace perfgate::run {

// Shares above which a variant's samples read as contended (medians over its measured samples).
inline constexpr double kContendedIrqShare = 0.05;    // irq_ms / wall_ms
inline constexpr double kContendedWaitShare = 0.25;   // cpu_wait_ms / wall_ms
inline constexpr double kContendedRealOverCpu = 1.5;  // a benchmark's real_time / cpu_time
// Shares of shorter samples say nothing: irq is counted in 10 ms ticks, and a short command's
// run-queue wait is mostly its own start.
inline constexpr double kMinWallForShares = 200;  // ms

// One line per contended variant ("after: interrupts took 12% of its wall time (median of 20
// samples): ..."), none when nothing says the CPU was shared. `real_time_benchmarks` are the
// benchmarks measured by real time (UseRealTime, UseManualTime), left out of the ratio.
std::vector<std::string> contention_warnings(const std::vector<Sample>& samples,
                                             const std::vector<std::string>& variants,
                                             const std::vector<std::string>& real_time_benchmarks = {});

}  // namespace perfgate::run
