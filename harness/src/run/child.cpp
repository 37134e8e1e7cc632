#include "run/child.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <wordexp.h>

#include <boost/process.hpp>
#include <boost/process/extend.hpp>
#include <cstring>
#include <thread>

#include "common/errors.hpp"
#include "common/interrupt.hpp"

namespace perfgate::run {
namespace bp = boost::process;

std::vector<std::string> split_command(const std::string& command) {
  wordexp_t we{};
  int rc = wordexp(command.c_str(), &we, WRDE_NOCMD);
  if (rc != 0) {
    if (rc == 0 || rc == WRDE_NOSPACE) wordfree(&we);
    const char* why = rc == WRDE_BADCHAR  ? "an unquoted | & ; < > ( ) { } or newline (use --shell)"
                      : rc == WRDE_CMDSUB ? "a command substitution (use --shell)"
                      : rc == WRDE_SYNTAX ? "unbalanced quotes"
                                          : "an expansion error";
    throw UsageError("cannot split the command '" + command + "': it has " + why);
  }
  std::vector<std::string> words(we.we_wordv, we.we_wordv + we.we_wordc);
  wordfree(&we);
  if (words.empty()) throw UsageError("empty command");
  return words;
}

std::string resolve_program(const std::string& name) {
  if (name.find('/') != std::string::npos) {
    if (::access(name.c_str(), X_OK) != 0) throw UsageError("cannot execute " + name + ": " + std::strerror(errno));
    return name;
  }
  auto p = bp::search_path(name);
  if (p.empty()) throw UsageError("command not found: " + name);
  return p.string();
}

namespace {

// Everything the child does between fork and exec; only async-signal-safe calls.
struct ChildSetup {
  std::vector<std::string> procs_files;
  cpu_set_t cpus;
  bool pin = false;

  void operator()() const {
    ::setpgid(0, 0);
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    for (const auto& f : procs_files) {
      int fd = ::open(f.c_str(), O_WRONLY | O_CLOEXEC);
      if (fd >= 0) {
        (void)!::write(fd, "0", 1);
        ::close(fd);
      }
    }
    if (pin) ::sched_setaffinity(0, sizeof cpus, &cpus);
    // Dispositions we set for ourselves must not leak into the sample.
    ::signal(SIGPIPE, SIG_DFL);
    sigset_t none;
    sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
  }
};

pid_t spawn(const ChildSpec& spec, measure::SampleCgroup& cgroup) {
  if (spec.argv.empty()) throw UsageError("empty command");
  ChildSetup setup;
  setup.procs_files = cgroup.procs_files();
  CPU_ZERO(&setup.cpus);
  for (int c : spec.cpus) CPU_SET(c, &setup.cpus);
  setup.pin = !spec.cpus.empty();

  bp::environment env = boost::this_process::environment();
  for (const auto& [k, v] : spec.env) env[k] = v;
  std::string exe = resolve_program(spec.argv[0]);
  std::vector<std::string> args(spec.argv.begin() + 1, spec.argv.end());
  std::error_code ec;
  fs::path out = spec.stdout_path.empty() ? fs::path("/dev/stdout") : spec.stdout_path;
  fs::path err = spec.stderr_path.empty() ? fs::path("/dev/stderr") : spec.stderr_path;
  bp::child c(
      bp::exe = exe, bp::args = args, bp::env = env,
      bp::start_dir = (spec.cwd.empty() ? fs::current_path() : spec.cwd).string(),
      bp::std_in<bp::null, bp::std_out> out.string(), bp::std_err > err.string(),
      bp::extend::on_exec_setup = [&setup](auto&) { setup(); }, ec);
  if (ec) throw RunError("cannot start " + exe + ": " + ec.message());
  pid_t pid = c.id();
  c.detach();  // we reap it ourselves, after reading /proc/<pid>/io
  return pid;
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

WaitOutcome wait_exit(pid_t pid, std::chrono::steady_clock::time_point deadline, bool has_deadline) {
  int pidfd = open_pidfd(pid);
  for (;;) {
    if (interrupted()) {
      if (pidfd >= 0) ::close(pidfd);
      return WaitOutcome::Interrupted;
    }
    siginfo_t info{};
    if (pidfd >= 0) {
      struct pollfd p {
        pidfd, POLLIN, 0
      };
      int rc = ::poll(&p, 1, 50);
      if (rc > 0) {
        ::close(pidfd);
        return WaitOutcome::Exited;
      }
    } else {
      info.si_pid = 0;
      if (::waitid(P_PID, pid, &info, WEXITED | WNOWAIT | WNOHANG) == 0 && info.si_pid == pid)
        return WaitOutcome::Exited;
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
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
  const auto start = std::chrono::steady_clock::now();
  pid_t pid = spawn(spec, cgroup);
  const bool has_deadline = spec.timeout_s > 0;
  const auto deadline = start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                    std::chrono::duration<double>(spec.timeout_s));
  WaitOutcome w = wait_exit(pid, deadline, has_deadline);
  r.wall_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
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
  return r;
}

ServiceProcess::ServiceProcess(const ChildSpec& spec, measure::SampleCgroup& cgroup) : cgroup_(cgroup) {
  pid_ = spawn(spec, cgroup);
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
