// One sample: one run of one variant in one round, with every figure and where it came from.
#pragma once

#include <chrono>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "measure/proc_stat.hpp"
#include "perfgate/better.hpp"
#include "run/child.hpp"

namespace perfgate::run {

using json = nlohmann::json;

struct MetricValue {
  double value = 0;
  std::string unit;
  Better better = Better::Lower;
  std::string source;
  // Declared where the metric is defined (run/metric_specs.hpp, a program's report line): the
  // same work gives the same value on every host class with this core count (a count, not a time).
  bool exact = false;
};

struct Sample {
  int round = 0;
  std::string variant;
  bool warmup = false;
  int order = 0;
  int exit_code = 0;
  std::string digest;
  std::map<std::string, MetricValue> metrics;
  json series = json::object();
  json extra = json::object();
  // The program's own verdict (its JSON line's "equivalent": false): the reason, else empty.
  std::string divergence;
  // What the sample's CPUs lost while it ran: to the hypervisor (steal) and to interrupts.
  std::optional<double> steal_ms, irq_ms;
  bool steal_flagged = false;  // steal above kStealFlagShare of the sample's wall time
};

// A wall sample whose CPUs lost more than this share of its wall time to the hypervisor is
// flagged: its wall time says more about the host than about the program.
inline constexpr double kStealFlagShare = 0.05;

// What the CPUs of a span of a sample lost: a service's measured window or a phased client's
// phases, where the sample is no single child (a batch sample reads it in run_child). Reads
// /proc/stat and the clock when made and when recorded; the CPUs are the server's and the
// load generator's, since a window's figures depend on both.
class StealSpan {
 public:
  explicit StealSpan(std::vector<int> cpus);
  // Sets the sample's steal_ms, irq_ms and steal_flagged (against the span's wall time);
  // nothing when /proc/stat cannot be read.
  void record(Sample& s) const;

 private:
  std::vector<int> cpus_;
  measure::CpuTickTable start_;
  std::chrono::steady_clock::time_point t0_;
};

// The figures the harness measures outside the program (wall, CPU, RSS, syscalls, context
// switches), each with its source. See docs/scenario-contract.md.
void add_outside_metrics(Sample&, const ChildResult&);

// Per variant: steal and interrupt time of its measured samples, how many were flagged, and
// how much of the wall time's variance steal explains (1 - var(wall - steal) / var(wall),
// clipped to [0, 1]). {"samples": 0} when no sample carries steal_ms.
json summarise_steal(const std::vector<Sample>& samples, const std::string& variant);

// Reads the contract's last stdout line into `sample` (digest, metrics, series, extra).
// Throws RunError naming the program when the line is missing or malformed.
void parse_program_report(Sample& sample, const std::string& last_line, const std::string& program);

}  // namespace perfgate::run
