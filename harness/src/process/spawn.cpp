#include "process/spawn.hpp"

#include <fcntl.h>
#include <grp.h>
#include <linux/sched.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <boost/process/search_path.hpp>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <ctime>

#ifndef CLOSE_RANGE_CLOEXEC
#define CLOSE_RANGE_CLOEXEC (1U << 2)
#endif

extern char** environ;

namespace perfgate::process {

namespace {

enum Step {
  kSetpgid,
  kJoinCgroup,
  kDup,
  kSetgroups,
  kSetgid,
  kSetuid,
  kPdeathsig,
  kParentDied,
  kAffinity,
  kChdir,
  kExec
};
const char* const kSteps[] = {"setpgid",
                              "joining its cgroup (write to cgroup.procs)",
                              "dup2 of stdin/stdout/stderr",
                              "setgroups",
                              "setgid",
                              "setuid",
                              "prctl(PR_SET_PDEATHSIG)",
                              "parent died",
                              "sched_setaffinity",
                              "chdir",
                              "execve"};

struct ChildError {
  int step;
  int err;
};

// Everything the child touches, built before the child exists: after clone3/fork only
// async-signal-safe calls run (another thread may hold malloc's lock at that instant).
struct Prepared {
  std::vector<char*> argv, envp;
  std::string exe;  // argv[0] made absolute: the child changes directory before exec
  std::string cwd;
  std::vector<std::string> join_files;  // v1 cgroup.procs (and v2's when not born in it)
  std::string v2_procs;
  cpu_set_t cpus;
  bool pin = false;
  int devnull = -1, out_fd = -1, err_fd = -1, errpipe = -1;
  pid_t parent = 0;
  const SpawnSpec* spec = nullptr;
  // A page shared with the child: it stores CLOCK_MONOTONIC just before execve. The parent
  // learns of the exec only when it is next scheduled, which on a busy or shared core came
  // up to 3.5 ms late and made a 3.6 ms program measure 0.03 ms.
  volatile std::int64_t* exec_ns = nullptr;
};

[[noreturn]] void child_fail(int fd, int step) {
  ChildError e{step, errno};
  ssize_t ignored = ::write(fd, &e, sizeof e);
  (void)ignored;
  ::_exit(127);
}

void mark_cloexec_from(int first) {
  if (::syscall(SYS_close_range, static_cast<unsigned>(first), ~0U, CLOSE_RANGE_CLOEXEC) == 0) return;
  long max = ::sysconf(_SC_OPEN_MAX);
  if (max < 0 || max > 65536) max = 65536;
  for (int fd = first; fd < max; ++fd) {
    int flags = ::fcntl(fd, F_GETFD);
    if (flags >= 0) ::fcntl(fd, F_SETFD, flags | FD_CLOEXEC);
  }
}

bool join(const std::string& procs) {
  int fd = ::open(procs.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) return false;
  const bool ok = ::write(fd, "0", 1) == 1;
  ::close(fd);
  return ok;
}

[[noreturn]] void child_main(const Prepared& p, bool born_in_cgroup) {
  const SpawnSpec& spec = *p.spec;
  const int efd = p.errpipe;
  if (spec.before_exec && *spec.before_exec) (*spec.before_exec)();
  // Dispositions and masks we set for ourselves must not leak into the program.
  sigset_t none;
  sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
  for (int sig : {SIGINT, SIGTERM, SIGQUIT, SIGHUP, SIGPIPE, SIGCHLD, SIGUSR1, SIGUSR2, SIGALRM})
    ::signal(sig, SIG_DFL);
  if (spec.new_process_group && ::setpgid(0, 0) != 0) child_fail(efd, kSetpgid);
  if (!born_in_cgroup && !p.v2_procs.empty() && !join(p.v2_procs)) child_fail(efd, kJoinCgroup);
  for (const auto& f : p.join_files)
    if (!join(f)) child_fail(efd, kJoinCgroup);
  if (::dup2(p.devnull, 0) < 0 || ::dup2(p.out_fd, 1) < 0 || ::dup2(p.err_fd, 2) < 0) child_fail(efd, kDup);
  if (spec.uid) {
    const gid_t gid = spec.gid.value_or(0);
    if (::setgroups(1, &gid) != 0) child_fail(efd, kSetgroups);
    if (::setgid(gid) != 0) child_fail(efd, kSetgid);
    if (::setuid(*spec.uid) != 0) child_fail(efd, kSetuid);
  }
  // After setuid: a change of credentials clears the parent-death signal.
  if (spec.pdeath_signal && ::prctl(PR_SET_PDEATHSIG, spec.pdeath_signal) != 0) child_fail(efd, kPdeathsig);
  if (::getppid() != p.parent) {
    errno = ESRCH;
    child_fail(efd, kParentDied);
  }
  if (p.pin && ::sched_setaffinity(0, sizeof p.cpus, &p.cpus) != 0) child_fail(efd, kAffinity);
  if (!p.cwd.empty() && ::chdir(p.cwd.c_str()) != 0) child_fail(efd, kChdir);
  mark_cloexec_from(3);
  timespec ts{};
  if (::clock_gettime(CLOCK_MONOTONIC, &ts) == 0)
    *p.exec_ns = static_cast<std::int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
  ::execve(p.exe.c_str(), p.argv.data(), p.envp.data());
  child_fail(efd, kExec);
}

// The page behind Prepared::exec_ns, unmapped on every way out of spawn().
class ExecStamp {
 public:
  ExecStamp() {
    void* m = ::mmap(nullptr, sizeof(std::int64_t), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) throw SpawnError(std::string("mmap of the exec time stamp: ") + std::strerror(errno));
    ns_ = static_cast<volatile std::int64_t*>(m);
    *ns_ = 0;
  }
  ~ExecStamp() { ::munmap(const_cast<std::int64_t*>(ns_), sizeof(std::int64_t)); }
  ExecStamp(const ExecStamp&) = delete;
  ExecStamp& operator=(const ExecStamp&) = delete;
  volatile std::int64_t* page() const { return ns_; }
  // When the child called execve; `fallback` when it never got that far.
  std::chrono::steady_clock::time_point at(std::chrono::steady_clock::time_point fallback) const {
    const std::int64_t ns = *ns_;
    if (ns <= 0) return fallback;
    return std::chrono::steady_clock::time_point(
        std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::nanoseconds(ns)));
  }

 private:
  volatile std::int64_t* ns_ = nullptr;
};

// 0: not tried yet, 1: clone3 into a cgroup works here, 2: it does not (or is switched off).
std::atomic<int> g_clone3{0};

bool clone3_wanted() {
  if (g_clone3.load() == 2) return false;
  const char* force = std::getenv("PERFGATE_SPAWN");
  if (force && std::string(force) == "fork") {
    g_clone3 = 2;
    return false;
  }
  return true;
}

// clone3 into the cgroup behind `cgroup_fd`: returns the pid (0 in the child), or -1 with
// errno when the kernel refuses.
pid_t clone_into(int cgroup_fd) {
  struct clone_args args;
  std::memset(&args, 0, sizeof args);
  args.flags = CLONE_INTO_CGROUP;
  args.exit_signal = SIGCHLD;
  args.cgroup = static_cast<std::uint64_t>(cgroup_fd);
  return static_cast<pid_t>(::syscall(SYS_clone3, &args, sizeof args));
}

}  // namespace

Spawned spawn(const SpawnSpec& spec) {
  if (spec.argv.empty()) throw SpawnError("cannot start a program: empty command");
  Prepared p;
  p.spec = &spec;
  for (const auto& a : spec.argv) p.argv.push_back(const_cast<char*>(a.c_str()));
  p.argv.push_back(nullptr);
  for (const auto& e : spec.env) p.envp.push_back(const_cast<char*>(e.c_str()));
  p.envp.push_back(nullptr);
  p.exe = spec.argv[0].find('/') == std::string::npos ? spec.argv[0] : fs::absolute(spec.argv[0]).string();
  p.cwd = spec.cwd.string();
  for (const auto& d : spec.v1_cgroups) p.join_files.push_back((d / "cgroup.procs").string());
  if (spec.v2_cgroup) p.v2_procs = (*spec.v2_cgroup / "cgroup.procs").string();
  CPU_ZERO(&p.cpus);
  for (int c : spec.cpus) CPU_SET(c, &p.cpus);
  p.pin = !spec.cpus.empty();
  p.parent = ::getpid();
  const ExecStamp stamp;
  p.exec_ns = stamp.page();

  p.devnull = ::open("/dev/null", O_RDWR | O_CLOEXEC);
  if (p.devnull < 0) throw SpawnError(std::string("cannot open /dev/null: ") + std::strerror(errno));
  p.out_fd = spec.stdout_fd >= 0 ? spec.stdout_fd : p.devnull;
  p.err_fd = spec.stderr_fd >= 0 ? spec.stderr_fd : p.devnull;
  int errpipe[2];
  if (::pipe2(errpipe, O_CLOEXEC) != 0) {
    const int e = errno;
    ::close(p.devnull);
    throw SpawnError(std::string("pipe2: ") + std::strerror(e));
  }
  p.errpipe = errpipe[1];

  Spawned s;
  pid_t pid = -1;
  if (spec.v2_cgroup && clone3_wanted()) {
    const int cg = ::open(spec.v2_cgroup->c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (cg >= 0) {
      pid = clone_into(cg);
      if (pid == 0) child_main(p, true);
      const int e = errno;
      ::close(cg);
      if (pid > 0) {
        s.born_in_cgroup = true;
        g_clone3 = 1;
      } else if (e == EAGAIN || e == ENOMEM) {
        ::close(p.devnull), ::close(errpipe[0]), ::close(errpipe[1]);
        throw SpawnError("cannot start " + spec.argv[0] + ": clone3: " + std::strerror(e));
      } else {
        g_clone3 = 2;  // ENOSYS (kernel < 5.3), E2BIG/EINVAL (< 5.7), EPERM/EACCES/EBUSY: fork instead
      }
    }
  }
  if (pid < 0) {
    pid = ::fork();
    if (pid == 0) child_main(p, false);
    if (pid < 0) {
      const int e = errno;
      ::close(p.devnull), ::close(errpipe[0]), ::close(errpipe[1]);
      throw SpawnError("cannot start " + spec.argv[0] + ": fork: " + std::strerror(e));
    }
  }
  s.pid = pid;
  ::close(p.devnull);
  ::close(errpipe[1]);
  ChildError e{};
  ssize_t n;
  do n = ::read(errpipe[0], &e, sizeof e);
  while (n < 0 && errno == EINTR);
  s.exec_at = stamp.at(std::chrono::steady_clock::now());
  ::close(errpipe[0]);
  if (n == static_cast<ssize_t>(sizeof e)) {
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    std::string what = e.step >= 0 && e.step <= kExec ? kSteps[e.step] : "?";
    if (e.step >= kSetgroups && e.step <= kSetuid) what += " to uid " + std::to_string(spec.uid.value_or(0));
    throw SpawnError("cannot start " + spec.argv[0] + ": " + what + " failed: " + std::strerror(e.err));
  }
  return s;
}

std::vector<std::string> environment_with(const std::vector<std::pair<std::string, std::string>>& overrides) {
  std::vector<std::string> env;
  for (char** e = environ; e && *e; ++e) {
    std::string kv = *e;
    const std::string name = kv.substr(0, kv.find('='));
    bool replaced = false;
    for (const auto& [k, v] : overrides) replaced = replaced || k == name;
    if (!replaced) env.push_back(std::move(kv));
  }
  for (const auto& [k, v] : overrides) env.push_back(k + "=" + v);
  return env;
}

std::optional<std::string> find_program(const std::string& name) {
  if (name.find('/') != std::string::npos) return name;
  auto p = boost::process::search_path(name);
  if (p.empty()) return std::nullopt;
  return p.string();
}

std::string creation_method() {
  return clone3_wanted() && g_clone3.load() != 2 ? "clone3-into-cgroup" : "fork+cgroup.procs";
}

}  // namespace perfgate::process
