// Cgroups for samples: detect what this machine offers (pure v2, hybrid v2 + v1, v1 only,
// nothing writable), make one cgroup per sample, read its CPU and memory, kill and remove it.
// The order of preference is DESIGN.md's: cpu.stat from v2 wherever mounted, v1 cpuacct next,
// rusage last; memory from v2 memory.peak, v1 memory.max_usage_in_bytes, rusage last.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace perfgate::measure {

namespace fs = std::filesystem;

struct CgroupLayout {
  std::string layout = "none";        // v2 | hybrid | v1 | none
  std::optional<fs::path> v2_parent;  // where we create v2 children (our own v2 cgroup)
  std::optional<fs::path> cpuacct_parent;
  std::optional<fs::path> memory_parent;
  bool v2_memory = false;                // the v2 parent delegates the memory controller
  std::string cpu_source = "rusage";     // cgroup-v2 | cgroup-v1-cpuacct | rusage
  std::string memory_source = "rusage";  // cgroup-v2 | cgroup-v1-memory | rusage
  bool writable = false;
  std::string note;  // why a weaker source was chosen
};

// Reads /proc/self/mountinfo and /proc/self/cgroup and tries to create a child cgroup in each
// hierarchy. PERFGATE_CGROUP=none forces the rusage fallback (tests use it).
const CgroupLayout& cgroup_layout();

// The directories sample cgroups are made in (each hierarchy perfgate uses here).
std::vector<fs::path> cgroup_parents();

struct CpuUsage {
  std::uint64_t usage_usec = 0, user_usec = 0, system_usec = 0;
};

// One cgroup per sample (a directory in each usable hierarchy, named
// "perfgate-<pid>-<start>-<name>" after its owner, see process/owner.hpp), removed on
// destruction after every process in it is killed.
class SampleCgroup {
 public:
  explicit SampleCgroup(const std::string& name);
  ~SampleCgroup();
  SampleCgroup(const SampleCgroup&) = delete;
  SampleCgroup& operator=(const SampleCgroup&) = delete;

  // `cgroup.procs` files a child writes "0" into, between fork and exec.
  const std::vector<std::string>& procs_files() const { return procs_files_; }
  // The v2 directory a child can be born into (process::SpawnSpec::v2_cgroup), and the v1 ones
  // it must join.
  const std::optional<fs::path>& v2_dir() const { return v2_dir_; }
  const std::vector<fs::path>& v1_dirs() const { return v1_dirs_; }
  bool has_cpu() const { return cpu_dir_.has_value(); }
  bool has_memory() const { return memory_dir_.has_value(); }
  std::string cpu_source() const;
  std::string memory_source() const;
  std::optional<CpuUsage> cpu() const;
  std::optional<std::uint64_t> memory_peak_bytes() const;
  std::vector<pid_t> pids() const;
  // SIGKILL every process in the cgroup and wait (briefly) until it is empty.
  void kill_all() const;

 private:
  std::vector<fs::path> dirs_;  // every directory we created, removed in reverse order
  std::optional<fs::path> cpu_dir_;
  bool cpu_is_v2_ = false;
  std::optional<fs::path> memory_dir_;
  bool memory_is_v2_ = false;
  std::vector<std::string> procs_files_;
  std::optional<fs::path> v2_dir_;
  std::vector<fs::path> v1_dirs_;
};

// Microseconds some task of the cgroup was runnable but not running (PSI "some total"), in ms:
// the part of wall time a CPU-bound program lost to other work on its CPU, which is not a
// cost of the program. Null without cgroup v2 pressure accounting.
std::optional<double> cpu_wait_ms(const SampleCgroup& cgroup);

}  // namespace perfgate::measure
