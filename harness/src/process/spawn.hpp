// The one function that creates a child process. Everything else that starts a program
// (samples, services, PostgreSQL, short probes) describes it in a SpawnSpec and calls spawn().
//
// Where cgroup v2 allows it (Linux >= 5.7), the child is created directly inside its cgroup
// with clone3(CLONE_INTO_CGROUP): it never moves, so the move's cost never lands in the
// sample's wall time. Boost.Process 1.74 only forks, so this is a raw syscall. Otherwise (an
// older kernel, a refused clone3, v1 hierarchies) the child writes itself into each
// cgroup.procs between its creation and exec, before a line of the program runs.
//
// The child shares our memory until it execs (CLONE_VM|CLONE_VFORK, as posix_spawn does) on
// x86-64: a copy of perfgate's address space, made and torn down again at exec, would be CPU
// time charged to the program (1.2 ms of cgroup CPU for /bin/true with fork semantics). With a
// user to switch to or a caller's own pre-exec hook it forks as before.
#pragma once

#include <signal.h>
#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace perfgate::process {

namespace fs = std::filesystem;

struct SpawnSpec {
  std::vector<std::string> argv;      // argv[0]: the program's path (see find_program)
  std::vector<std::string> env;       // the whole environment of the child, NAME=value
  fs::path cwd;                       // empty: ours
  int stdout_fd = -1;                 // -1: /dev/null
  int stderr_fd = -1;                 // -1: /dev/null
  std::vector<int> cpus;              // empty: not pinned
  int stdin_fd = -1;                  // -1: /dev/null
  int inherit_fd = -1;                // >= 0: left open across exec under its own number
  std::optional<fs::path> v2_cgroup;  // a cgroup v2 directory to be born into
  std::vector<fs::path> v1_cgroups;   // v1 directories the child joins before exec
  std::optional<uid_t> uid;           // drop to this user (and gid) before exec; needs root
  std::optional<gid_t> gid;
  int pdeath_signal = SIGKILL;  // sent to the child when the thread that started it exits
  bool new_process_group = true;
  // The program's addresses the same every run (ADDR_NO_RANDOMIZE, as `setarch -R`) where the
  // kernel allows it; otherwise it runs randomised as always.
  bool fixed_addresses = false;
  // The child's nice value (setpriority) where it may have it: below ours needs CAP_SYS_NICE or
  // RLIMIT_NICE (may_raise_priority), otherwise it keeps ours. Empty: ours.
  std::optional<int> nice;
  // Runs first in the child (async-signal-safe calls only); for callers with their own setup.
  const std::function<void()>* before_exec = nullptr;
};

// Whether this process may give a child a nice value below 0 (CAP_SYS_NICE, or RLIMIT_NICE allows -20).
bool may_raise_priority();

struct Spawned {
  pid_t pid = -1;
  bool born_in_cgroup = false;  // clone3 placed it in v2_cgroup: no cgroup.procs write
  // When the child called execve (its own clock reading, not our wake-up): the program's
  // first instant. Wall time measured from here leaves out creation, cgroup moves and pinning.
  std::chrono::steady_clock::time_point exec_at;
  // The child's own CPU time up to that instant (CLOCK_THREAD_CPUTIME_ID): creation, joining
  // cgroups, pinning. Its cgroup's and its rusage's CPU include it; the program's does not.
  double pre_exec_cpu_ms = 0;
};

// The child could not be created or could not exec: names the program, the step and errno.
struct SpawnError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Creates the child and returns once it has exec'd (or throws SpawnError).
Spawned spawn(const SpawnSpec& spec);

// Our environment as NAME=value, with `overrides` added or replacing.
std::vector<std::string> environment_with(const std::vector<std::pair<std::string, std::string>>& overrides);

// Resolve a program name against PATH (a name with a slash is returned as is); nullopt when
// not found.
std::optional<std::string> find_program(const std::string& name);

// Which way children are created here: "clone3-vfork-into-cgroup" (x86-64), "clone3-into-cgroup",
// "vfork+cgroup.procs" or "fork+cgroup.procs". PERFGATE_SPAWN=fork forces the last (to measure
// what the move and the copy cost).
std::string creation_method();

}  // namespace perfgate::process
