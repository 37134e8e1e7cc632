// Sample and service processes. Each is created by process::spawn (the one function that
// creates children): born into its v2 sample cgroup by clone3 where the kernel allows, and
// before a line of its own code runs in its own process group, in its v1 cgroups, pinned to
// its CPUs and set to die with us. Its /proc/<pid>/io is read after it exits and before it is
// reaped (waitid WNOWAIT); /proc/stat's steal and interrupt time of its CPUs around it.
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

#include "common/program_path.hpp"
#include "common/shell_words.hpp"
#include "measure/cgroup.hpp"
#include "measure/proc_io.hpp"
#include "process/reap.hpp"
#include "run/window_marks.hpp"

namespace perfgate::run {

namespace fs = std::filesystem;

struct ChildSpec {
  std::vector<std::string> argv;           // argv[0] is a path or a name looked up on PATH
  std::map<std::string, std::string> env;  // added to (or overriding) our environment
  fs::path cwd;
  fs::path stdout_path, stderr_path;  // empty: inherit
  int stdout_fd = -1;                 // >= 0: this descriptor (a pipe's end) instead of stdout_path
  fs::path stdin_path;                // empty: /dev/null
  bool window_marks = true;           // the program may mark windows (run/window_marks.hpp)
  std::vector<int> cpus;              // empty: not pinned
  double timeout_s = 0;               // 0: none
  bool fixed_addresses = false;       // no address randomisation (process/spawn.hpp)
  std::optional<int> nice;            // the child's nice value where allowed (process/spawn.hpp)
};

struct ChildResult {
  int exit_code = -1;  // -1 when killed by a signal
  int signal = 0;
  bool timed_out = false;
  double wall_ms = 0;          // from the program's exec to its exit
  double pre_exec_cpu_ms = 0;  // the child's CPU before its exec, inside cgroup_cpu and usage
  struct rusage usage {};
  std::optional<measure::ProcIo> io;
  std::optional<measure::CpuUsage> cgroup_cpu;
  std::optional<std::uint64_t> cgroup_memory_peak;
  std::string cpu_source, memory_source;
  std::optional<double> steal_ms, irq_ms;       // what the sample's CPUs lost while it ran (/proc/stat)
  std::map<std::string, WindowTotals> windows;  // what the program marked (run/window_marks.hpp)
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

// Removes the cgroups and temporary directories of perfgate processes that no longer run
// (killed by SIGKILL), saying so in one line to `say` (without it, on stderr) when there were
// any. The first child of a process does this by itself; commands call it first thing to reap
// before anything else.
process::Reaped reap_leftovers(const std::function<void(const std::string&)>& say = nullptr);

// Split a command line into words: common/shell_words.hpp.
using perfgate::split_command;

// Resolve argv[0] against PATH when it has no slash: common/program_path.hpp.
using perfgate::resolve_program;

}  // namespace perfgate::run
