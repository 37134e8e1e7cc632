// Time the CPUs of a sample spent on something other than the sample: stolen by the
// hypervisor (the steal column of /proc/stat) and taken by interrupts (irq + softirq).
// A wall-clock sample is only as good as the CPU it ran on; these say how much it lost.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace perfgate::measure {

// Per-CPU counters of /proc/stat in USER_HZ ticks.
struct CpuTicks {
  std::uint64_t irq = 0, softirq = 0, steal = 0;
};
using CpuTickTable = std::map<int, CpuTicks>;  // CPU number → counters ("cpuN" lines only)

// Parses /proc/stat text; lines other than "cpuN ..." are skipped, missing columns (old
// kernels have no steal) read as 0.
CpuTickTable parse_proc_stat(const std::string& text);

// /proc/stat now; empty when it cannot be read.
CpuTickTable read_proc_stat();

struct CpuLoss {
  double steal_ms = 0;  // per CPU of the sample, averaged: wall time each of them lost
  double irq_ms = 0;    // irq + softirq, the same way
};

// What `cpus` (empty: every CPU in the tables) lost between two readings.
CpuLoss cpu_loss(const CpuTickTable& before, const CpuTickTable& after, const std::vector<int>& cpus,
                 long ticks_per_second);

}  // namespace perfgate::measure
