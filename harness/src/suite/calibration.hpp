// `perfgate calibrate`: what ab's defaults can and cannot see on this machine, measured with
// bundled programs of known work — A/A pairs (false alarms), pairs with injected extra work
// (catches), the per-sample noise of every metric and the harness's own perturbation of wall
// time — within a fixed time budget. Each pair is an `ab` plan through execute_plan; the CLI
// parses the flags and prints the table (cli/calibration_table.hpp).
#pragma once

#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "plan/options.hpp"

namespace perfgate::suite {

struct CalibrationOptions {
  double budget_s = 300;
  // cpu-duet: the CPU-bound program in --duet rounds, to set against cpu's sequential rounds.
  std::vector<std::string> workloads = {"cpu", "cpu-duet", "cpu-counted", "syscall", "memory"};
  std::vector<double> extra_work = {0.02, 0.05, 0.10};  // injected: AFTER does this much more
  std::uint64_t cpu_iterations = 25'000'000, syscalls = 30'000, memory_mib = 48;
  std::string metric = "auto";    // ab's default
  plan::RunOptions ab;            // ab's defaults unless the user set rounds, noise, alpha, CPUs
  std::filesystem::path program;  // calibration_work; empty: beside the perfgate executable
};

// Runs until the budget is spent (a pair is not started when the longest pair of its kind so far
// would overrun it) and returns the calibration document.
nlohmann::json run_calibration(const CalibrationOptions& options);

// `perfgate calibrate`: run_calibration's table printed and its document written to `json_file`.
void calibrate(const CalibrationOptions& options, const std::filesystem::path& json_file);

}  // namespace perfgate::suite
