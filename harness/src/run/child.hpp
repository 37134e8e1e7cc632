// The one place perfgate starts sample processes. A child is started with Boost.Process,
// and between fork and exec — before a line of its own code runs — it moves into its own
// process group and its sample cgroup, pins itself to its CPUs and asks to die with us.
// Its /proc/<pid>/io is read after it exits and before it is reaped (waitid WNOWAIT).
#pragma once

#include <sys/resource.h>
#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "measure/cgroup.hpp"
#include "measure/proc_io.hpp"

namespace perfgate::run {

namespace fs = std::filesystem;

struct ChildSpec {
  std::vector<std::string> argv;           // argv[0] is a path or a name looked up on PATH
  std::map<std::string, std::string> env;  // added to (or overriding) our environment
  fs::path cwd;
  fs::path stdout_path, stderr_path;  // empty: inherit
  std::vector<int> cpus;              // empty: not pinned
  double timeout_s = 0;               // 0: none
};

struct ChildResult {
  int exit_code = -1;  // -1 when killed by a signal
  int signal = 0;
  bool timed_out = false;
  double wall_ms = 0;
  struct rusage usage {};
  std::optional<measure::ProcIo> io;
  std::optional<measure::CpuUsage> cgroup_cpu;
  std::optional<std::uint64_t> cgroup_memory_peak;
  std::string cpu_source, memory_source;
};

// Runs one child to completion in `cgroup` (which may have no usable hierarchy: then CPU and
// memory come from rusage). Throws Interrupted on SIGINT/SIGTERM after killing the child, and
// RunError when the program cannot be started.
ChildResult run_child(const ChildSpec& spec, measure::SampleCgroup& cgroup);

// A long-lived child (a service): started like a sample, stopped with SIGTERM then SIGKILL.
class ServiceProcess {
 public:
  ServiceProcess(const ChildSpec& spec, measure::SampleCgroup& cgroup);
  ~ServiceProcess();
  ServiceProcess(const ServiceProcess&) = delete;
  ServiceProcess& operator=(const ServiceProcess&) = delete;
  pid_t pid() const { return pid_; }
  bool running();
  // SIGTERM, wait up to grace_s, then SIGKILL. Returns the exit code (-1 for a signal).
  int stop(double grace_s = 5);

 private:
  pid_t pid_ = -1;
  bool reaped_ = false;
  int exit_code_ = -1;
  measure::SampleCgroup& cgroup_;
};

// Split a command line into words as a POSIX shell would (quotes, backslashes, $VAR), without
// running a shell and refusing command substitution.
std::vector<std::string> split_command(const std::string& command);

// Resolve argv[0] against PATH when it has no slash; throws UsageError naming it when missing.
std::string resolve_program(const std::string& name);

}  // namespace perfgate::run
