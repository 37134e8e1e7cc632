#include "run/child.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <iostream>
#include <mutex>
#include <optional>
#include <thread>

#include "common/errors.hpp"
#include "common/files.hpp"
#include "common/interrupt.hpp"
#include "measure/proc_stat.hpp"
#include "process/reap.hpp"
#include "process/spawn.hpp"

namespace perfgate::run {

namespace {

// Outputs of a child: a file we create, or ours (fd 1/2) when no path is given.
struct OutputFile {
  int fd = -1;
  bool owned = false;
  OutputFile(const fs::path& path, int inherit) {
    if (path.empty()) {
      fd = inherit;
      return;
    }
    fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) throw RunError("cannot create " + path.string() + ": " + std::strerror(errno));
    owned = true;
  }
  ~OutputFile() {
    if (owned) ::close(fd);
  }
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;
};

// A sample's stdin (ab --input FILE): opened for each sample, so each reads it from the start.
struct InputFile {
  int fd = -1;
  explicit InputFile(const fs::path& path) {
    fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw RunError("cannot open " + path.string() + " (the input): " + std::strerror(errno));
  }
  ~InputFile() { ::close(fd); }
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;
};

// Whatever earlier runs killed with SIGKILL left, removed once per process, before our first
// child; one line on stderr says what.
void reap_once() {
  static std::once_flag once;
  std::call_once(once, [] { reap_leftovers(); });
}

process::Spawned spawn(const ChildSpec& spec, measure::SampleCgroup& cgroup, const WindowMarks* marks = nullptr) {
  if (spec.argv.empty()) throw UsageError("empty command");
  reap_once();
  process::SpawnSpec s;
  s.argv = spec.argv;
  s.argv[0] = resolve_program(spec.argv[0]);
  std::map<std::string, std::string> env = spec.env;
  if (marks) {
    env["PERFGATE_WINDOW_FD"] = std::to_string(marks->child_fd());
    s.inherit_fd = marks->child_fd();
  }
  s.env = process::environment_with({env.begin(), env.end()});
  s.cwd = spec.cwd.empty() ? fs::current_path() : spec.cwd;
  OutputFile out(spec.stdout_fd >= 0 ? fs::path() : spec.stdout_path, STDOUT_FILENO),
      err(spec.stderr_path, STDERR_FILENO);
  s.stdout_fd = spec.stdout_fd >= 0 ? spec.stdout_fd : out.fd;
  s.stderr_fd = err.fd;
  std::optional<InputFile> in;
  if (!spec.stdin_path.empty()) {
    in.emplace(spec.stdin_path);
    s.stdin_fd = in->fd;
  }
  s.cpus = spec.cpus;
  s.fixed_addresses = spec.fixed_addresses;
  s.nice = spec.nice;
  s.v2_cgroup = cgroup.v2_dir();
  s.v1_cgroups = cgroup.v1_dirs();
  try {
    return process::spawn(s);
  } catch (const process::SpawnError& e) {
    throw RunError(e.what());
  }
}

int open_pidfd(pid_t pid) {
#ifdef SYS_pidfd_open
  return static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
#else
  (void)pid;
  return -1;
#endif
}

// Wait until `pid` has exited (without reaping it), the deadline passes, or an interrupt.
enum class WaitOutcome { Exited, TimedOut, Interrupted };

// A program's window marks are answered as they come (it waits for each answer).
WaitOutcome wait_exit(pid_t pid, std::chrono::steady_clock::time_point deadline, bool has_deadline, WindowMarks* marks,
                      const measure::SampleCgroup& cgroup) {
  int pidfd = open_pidfd(pid);
  for (;;) {
    if (interrupted()) {
      if (pidfd >= 0) ::close(pidfd);
      return WaitOutcome::Interrupted;
    }
    siginfo_t info{};
    struct pollfd p[2] = {{pidfd, POLLIN, 0}, {marks ? marks->fd() : -1, POLLIN, 0}};
    if (pidfd >= 0) {
      const int rc = ::poll(p, 2, 50);
      if (rc > 0 && (p[1].revents & POLLIN)) marks->serve(cgroup);
      if (rc > 0 && p[0].revents) {
        ::close(pidfd);
        if (marks) marks->serve(cgroup);
        return WaitOutcome::Exited;
      }
    } else {
      if (::poll(p + 1, 1, 2) > 0 && (p[1].revents & POLLIN)) marks->serve(cgroup);
      info.si_pid = 0;
      if (::waitid(P_PID, pid, &info, WEXITED | WNOWAIT | WNOHANG) == 0 && info.si_pid == pid)
        return WaitOutcome::Exited;
    }
    if (has_deadline && std::chrono::steady_clock::now() >= deadline) {
      if (pidfd >= 0) ::close(pidfd);
      return WaitOutcome::TimedOut;
    }
  }
}

void kill_and_reap(pid_t pid, measure::SampleCgroup& cgroup) {
  ::kill(-pid, SIGKILL);  // its process group: grandchildren too
  ::kill(pid, SIGKILL);
  cgroup.kill_all();
  int status;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
}

}  // namespace

ChildResult run_child(const ChildSpec& spec, measure::SampleCgroup& cgroup) {
  check_interrupted();
  ChildResult r;
  r.cpu_source = cgroup.cpu_source();
  r.memory_source = cgroup.memory_source();
  const auto stat_before = measure::read_proc_stat();
  const auto created = std::chrono::steady_clock::now();
  std::optional<WindowMarks> marks;
  if (spec.window_marks) marks.emplace();
  const auto child = spawn(spec, cgroup, marks ? &*marks : nullptr);
  if (marks) marks->close_child_end();
  const pid_t pid = child.pid;
  // Wall time runs from the program's exec: creating the child, joining its cgroups (a v1
  // cgroup.procs write waits for an RCU grace period, ~5 ms here) and pinning are ours, not
  // the program's. The timeout counts from creation.
  const auto start = child.exec_at;
  r.pre_exec_cpu_ms = child.pre_exec_cpu_ms;
  const bool has_deadline = spec.timeout_s > 0;
  const auto deadline = created + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                      std::chrono::duration<double>(spec.timeout_s));
  WaitOutcome w = wait_exit(pid, deadline, has_deadline, marks ? &*marks : nullptr, cgroup);
  r.wall_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  if (const auto stat_after = measure::read_proc_stat(); !stat_before.empty() && !stat_after.empty()) {
    const auto loss = measure::cpu_loss(stat_before, stat_after, spec.cpus, ::sysconf(_SC_CLK_TCK));
    r.steal_ms = loss.steal_ms;
    r.irq_ms = loss.irq_ms;
  }
  if (w == WaitOutcome::Interrupted) {
    kill_and_reap(pid, cgroup);
    throw Interrupted();
  }
  if (w == WaitOutcome::TimedOut) {
    kill_and_reap(pid, cgroup);
    r.timed_out = true;
    return r;
  }
  siginfo_t info{};
  while (::waitid(P_PID, pid, &info, WEXITED | WNOWAIT) < 0 && errno == EINTR) {
  }
  r.io = measure::read_proc_io(pid);
  int status = 0;
  while (::wait4(pid, &status, 0, &r.usage) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status))
    r.exit_code = WEXITSTATUS(status);
  else if (WIFSIGNALED(status))
    r.signal = WTERMSIG(status);
  // Anything the sample left running is part of the sample: stop it before reading totals.
  ::kill(-pid, SIGKILL);
  cgroup.kill_all();
  r.cgroup_cpu = cgroup.cpu();
  r.cgroup_memory_peak = cgroup.memory_peak_bytes();
  // A program that failed may have left a window open; its failure is the message, not that.
  if (marks && r.exit_code == 0) r.windows = marks->totals();
  return r;
}

process::Reaped reap_leftovers(const std::function<void(const std::string&)>& say) {
  const char* base = std::getenv("TMPDIR");
  auto reaped = process::reap_dead_owners(measure::cgroup_parents(), fs::path(base && *base ? base : "/tmp"),
                                          temp_dir_prefixes());
  if (reaped.empty()) return reaped;
  if (say)
    say(process::describe(reaped));
  else
    std::cerr << "perfgate: " << process::describe(reaped) << std::endl;
  return reaped;
}

ServiceProcess::ServiceProcess(const ChildSpec& spec, measure::SampleCgroup& cgroup) : cgroup_(cgroup) {
  pid_ = spawn(spec, cgroup).pid;
}

ServiceProcess::~ServiceProcess() {
  if (!reaped_) {
    ::kill(-pid_, SIGKILL);
    ::kill(pid_, SIGKILL);
    int status;
    while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
  }
  cgroup_.kill_all();
}

bool ServiceProcess::running() {
  if (reaped_) return false;
  siginfo_t info{};
  info.si_pid = 0;
  if (::waitid(P_PID, pid_, &info, WEXITED | WNOWAIT | WNOHANG) == 0 && info.si_pid == pid_) return false;
  return true;
}

int ServiceProcess::stop(double grace_s) {
  if (reaped_) return exit_code_;
  ::kill(pid_, SIGTERM);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(static_cast<int>(grace_s * 1000));
  int status = 0;
  for (;;) {
    pid_t r = ::waitpid(pid_, &status, WNOHANG);
    if (r == pid_) break;
    if (std::chrono::steady_clock::now() >= deadline) {
      ::kill(-pid_, SIGKILL);
      ::kill(pid_, SIGKILL);
      while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
      }
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  reaped_ = true;
  exit_code_ = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  ::kill(-pid_, SIGKILL);
  cgroup_.kill_all();
  return exit_code_;
}

}  // namespace perfgate::run
