// The memory a running server holds, polled while a phase runs: the resident set of every
// process in its cgroup (what the write-up called the worker's RSS) and the cgroup's own
// charge (which adds the page cache the server touched). One poller per phase, so a phase's
// mean and peak never include another phase (start-up and seeding included).
#pragma once

#include <atomic>
#include <filesystem>
#include <optional>
#include <string>
#include <thread>

#include "measure/cgroup.hpp"

namespace perfgate::run {

namespace fs = std::filesystem;

struct PhaseMemory {
  double rss_mean_mib = 0, rss_peak_mib = 0;               // sum of VmRSS over the cgroup's processes
  std::optional<double> cgroup_mean_mib, cgroup_peak_mib;  // memory.current / memory.usage_in_bytes
  int polls = 0;
};

// Where the cgroup's memory charge is read here: the v2 `memory.current` when the memory
// controller is delegated to it, else the v1 memory cgroup's `memory.usage_in_bytes`.
struct CgroupMemoryFile {
  std::optional<fs::path> path;
  std::string source = "none";  // cgroup-v2-memory.current | cgroup-v1-memory.usage_in_bytes | none
};
CgroupMemoryFile cgroup_memory_file(const measure::SampleCgroup& cgroup);

// Resident bytes of every process in the cgroup (each counted once, /proc/<pid>/statm).
std::uint64_t cgroup_rss_bytes(const measure::SampleCgroup& cgroup);

// Polls from construction to finish() every interval_ms on a thread of its own; one poll is
// always taken at each end, so a phase shorter than the interval still has figures.
class MemoryPoller {
 public:
  MemoryPoller(const measure::SampleCgroup& cgroup, const CgroupMemoryFile& file, int interval_ms);
  ~MemoryPoller();
  MemoryPoller(const MemoryPoller&) = delete;
  MemoryPoller& operator=(const MemoryPoller&) = delete;
  PhaseMemory finish();

 private:
  void poll();
  const measure::SampleCgroup& cgroup_;
  CgroupMemoryFile file_;
  int interval_ms_;
  std::atomic<bool> stop_{false};
  double rss_sum_ = 0, cg_sum_ = 0;
  int cg_polls_ = 0;
  PhaseMemory m_;
  std::thread thread_;
};

}  // namespace perfgate::run
