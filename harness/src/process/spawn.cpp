#include "process/spawn.hpp"

#include <fcntl.h>
#include <grp.h>
#include <linux/sched.h>
#include <pthread.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <sys/resource.h>
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
#include <fstream>
#include <optional>

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
  int devnull = -1, in_fd = -1, out_fd = -1, err_fd = -1, errpipe = -1;
  pid_t parent = 0;
  bool born_in_cgroup = false;  // set before the child is created: clone3 places it
  const SpawnSpec* spec = nullptr;
  // A page shared with the child: it stores CLOCK_MONOTONIC just before execve. The parent
  // learns of the exec only when it is next scheduled, which on a busy or shared core came
  // up to 3.5 ms late and made a 3.6 ms program measure 0.03 ms.
  volatile std::int64_t* exec_ns = nullptr;
  volatile std::int64_t* exec_cpu_ns = nullptr;  // the child's CPU time at that instant
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

// Signals with a handler of ours: in a child sharing our memory (CLONE_VM) a handler would
// run on our data, so every one goes back to its default before the mask is lifted.
void default_dispositions() {
  for (int sig = 1; sig < NSIG; ++sig) {
    struct sigaction old {};
    if (::sigaction(sig, nullptr, &old) != 0) continue;
    if ((old.sa_flags & SA_SIGINFO) || (old.sa_handler != SIG_DFL && old.sa_handler != SIG_IGN)) ::signal(sig, SIG_DFL);
  }
  // Dispositions and masks we set for ourselves must not leak into the program.
  for (int sig : {SIGINT, SIGTERM, SIGQUIT, SIGHUP, SIGPIPE, SIGCHLD, SIGUSR1, SIGUSR2, SIGALRM})
    ::signal(sig, SIG_DFL);
}

std::int64_t thread_cpu_ns() {
  timespec ts{};
  if (::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0) return 0;
  return static_cast<std::int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

[[noreturn]] void child_main(const Prepared& p) {
  const SpawnSpec& spec = *p.spec;
  const int efd = p.errpipe;
  if (spec.before_exec && *spec.before_exec) (*spec.before_exec)();
  default_dispositions();
  sigset_t none;
  sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
  if (spec.new_process_group && ::setpgid(0, 0) != 0) child_fail(efd, kSetpgid);
  if (!p.born_in_cgroup && !p.v2_procs.empty() && !join(p.v2_procs)) child_fail(efd, kJoinCgroup);
  for (const auto& f : p.join_files)
    if (!join(f)) child_fail(efd, kJoinCgroup);
  if (::dup2(p.in_fd, 0) < 0 || ::dup2(p.out_fd, 1) < 0 || ::dup2(p.err_fd, 2) < 0) child_fail(efd, kDup);
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
  if (spec.nice) ::setpriority(PRIO_PROCESS, 0, *spec.nice);
  if (spec.fixed_addresses) {
    const int persona = ::personality(0xffffffff);
    if (persona != -1) ::personality(static_cast<unsigned long>(persona) | ADDR_NO_RANDOMIZE);
  }
  mark_cloexec_from(3);
  if (spec.inherit_fd >= 0 && ::fcntl(spec.inherit_fd, F_SETFD, 0) != 0) child_fail(efd, kDup);
  *p.exec_cpu_ns = thread_cpu_ns();
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
    void* m = ::mmap(nullptr, 2 * sizeof(std::int64_t), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) throw SpawnError(std::string("mmap of the exec time stamp: ") + std::strerror(errno));
    ns_ = static_cast<volatile std::int64_t*>(m);
    ns_[0] = 0;
    ns_[1] = 0;
  }
  ~ExecStamp() { ::munmap(const_cast<std::int64_t*>(ns_), 2 * sizeof(std::int64_t)); }
  ExecStamp(const ExecStamp&) = delete;
  ExecStamp& operator=(const ExecStamp&) = delete;
  volatile std::int64_t* page() const { return ns_; }
  volatile std::int64_t* cpu_slot() const { return ns_ + 1; }
  double cpu_ms() const { return static_cast<double>(ns_[1]) / 1e6; }
  // When the child called execve; `fallback` when it never got that far.
  std::chrono::steady_clock::time_point at(std::chrono::steady_clock::time_point fallback) const {
    const std::int64_t ns = ns_[0];
    if (ns <= 0) return fallback;
    return std::chrono::steady_clock::time_point(
        std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::nanoseconds(ns)));
  }

 private:
  volatile std::int64_t* ns_ = nullptr;
};

// 0: not tried yet, 1: clone3 into a cgroup works here, 2: it does not (or is switched off).
std::atomic<int> g_clone3{0};

bool fork_forced() {
  const char* force = std::getenv("PERFGATE_SPAWN");
  return force && std::string(force) == "fork";
}

bool clone3_wanted() {
  if (g_clone3.load() == 2) return false;
  if (fork_forced()) {
    g_clone3 = 2;
    return false;
  }
  return true;
}

// The stack a child sharing our memory runs on until it execs (ours is the caller's, live).
class ChildStack {
 public:
  static constexpr std::size_t kSize = 256 * 1024;
  ChildStack() {
    void* m = ::mmap(nullptr, kSize, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
    if (m == MAP_FAILED) throw SpawnError(std::string("mmap of a child stack: ") + std::strerror(errno));
    base_ = static_cast<char*>(m);
  }
  ~ChildStack() { ::munmap(base_, kSize); }
  ChildStack(const ChildStack&) = delete;
  ChildStack& operator=(const ChildStack&) = delete;
  char* base() const { return base_; }
  char* top() const { return base_ + kSize; }  // page-aligned, so 16-byte aligned

 private:
  char* base_ = nullptr;
};

// While a child shares our memory no handler of ours may run in it: every signal is blocked
// in this thread from before the child exists until it has exec'd (it unblocks its own).
class SignalsBlocked {
 public:
  SignalsBlocked() {
    sigset_t all;
    sigfillset(&all);
    ::pthread_sigmask(SIG_SETMASK, &all, &old_);
  }
  ~SignalsBlocked() { ::pthread_sigmask(SIG_SETMASK, &old_, nullptr); }
  SignalsBlocked(const SignalsBlocked&) = delete;
  SignalsBlocked& operator=(const SignalsBlocked&) = delete;

 private:
  sigset_t old_;
};

void child_entry(void* prepared) { child_main(*static_cast<const Prepared*>(prepared)); }
int child_entry_int(void* prepared) { child_main(*static_cast<const Prepared*>(prepared)); }

#if defined(__x86_64__)
constexpr bool kCanShareWithClone3 = true;
// clone3 whose child starts on its own stack and calls fn(arg) there, never returning into our
// frames (glibc's clone3.S does this; glibc 2.36 does not export clone3). Returns the pid, or
// -errno.
long clone3_calling(struct clone_args* args, void (*fn)(void*), void* arg) {
  long ret;
  register void (*entry)(void*) asm("r12") = fn;
  register void* entry_arg asm("r13") = arg;
  asm volatile(
      "syscall\n\t"
      "test %%rax, %%rax\n\t"
      "jnz 1f\n\t"
      "xor %%ebp, %%ebp\n\t"
      "mov %%r13, %%rdi\n\t"
      "call *%%r12\n\t"
      "mov $127, %%edi\n\t"
      "mov $231, %%eax\n\t"  // exit_group, should fn ever return
      "syscall\n\t"
      "hlt\n"
      "1:\n\t"
      : "=a"(ret)
      : "0"(static_cast<long>(SYS_clone3)), "D"(args), "S"(sizeof *args), "r"(entry), "r"(entry_arg)
      : "rcx", "r11", "memory");
  return ret;
}
#else
constexpr bool kCanShareWithClone3 = false;
long clone3_calling(struct clone_args*, void (*)(void*), void*) { return -ENOSYS; }
#endif

// clone3 into the cgroup behind `cgroup_fd`: returns the pid, or -1 with errno when the kernel
// refuses. Sharing our memory (`stack` given), the child runs child_main on that stack;
// otherwise it is a copy of us and continues here.
pid_t clone_into(int cgroup_fd, Prepared& p, const ChildStack* stack) {
  struct clone_args args;
  std::memset(&args, 0, sizeof args);
  args.flags = CLONE_INTO_CGROUP;
  args.exit_signal = SIGCHLD;
  args.cgroup = static_cast<std::uint64_t>(cgroup_fd);
  p.born_in_cgroup = true;
  if (stack) {
    args.flags |= CLONE_VM | CLONE_VFORK;
    args.stack = reinterpret_cast<std::uint64_t>(stack->base());
    args.stack_size = ChildStack::kSize;
    const long r = clone3_calling(&args, child_entry, &p);
    if (r < 0) errno = static_cast<int>(-r);
    return r < 0 ? -1 : static_cast<pid_t>(r);
  }
  const pid_t pid = static_cast<pid_t>(::syscall(SYS_clone3, &args, sizeof args));
  if (pid == 0) child_main(p);
  return pid;
}

// Without clone3 into a cgroup: the child joins its cgroups itself before exec.
pid_t clone_plain(Prepared& p, const ChildStack* stack) {
  p.born_in_cgroup = false;
  if (stack) return ::clone(child_entry_int, stack->top(), CLONE_VM | CLONE_VFORK | SIGCHLD, &p);
  const pid_t pid = ::fork();
  if (pid == 0) child_main(p);
  return pid;
}

}  // namespace

bool may_raise_priority() {
  // CAP_SYS_NICE among the effective capabilities, not uid 0: root in a container may lack it.
  constexpr int kCapSysNice = 23;
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line))
    if (line.rfind("CapEff:", 0) == 0 && ((std::stoull(line.substr(7), nullptr, 16) >> kCapSysNice) & 1)) return true;
  rlimit limit{};
  return ::getrlimit(RLIMIT_NICE, &limit) == 0 && limit.rlim_cur >= 40;
}

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
  p.exec_cpu_ns = stamp.cpu_slot();

  p.devnull = ::open("/dev/null", O_RDWR | O_CLOEXEC);
  if (p.devnull < 0) throw SpawnError(std::string("cannot open /dev/null: ") + std::strerror(errno));
  p.in_fd = spec.stdin_fd >= 0 ? spec.stdin_fd : p.devnull;
  p.out_fd = spec.stdout_fd >= 0 ? spec.stdout_fd : p.devnull;
  p.err_fd = spec.stderr_fd >= 0 ? spec.stderr_fd : p.devnull;
  int errpipe[2];
  if (::pipe2(errpipe, O_CLOEXEC) != 0) {
    const int e = errno;
    ::close(p.devnull);
    throw SpawnError(std::string("pipe2: ") + std::strerror(e));
  }
  p.errpipe = errpipe[1];

  // Sharing our memory until exec, unless the child must run code of the caller's or switch
  // users first (glibc's setuid would signal our threads from it).
  const bool share = !fork_forced() && !spec.uid && !(spec.before_exec && *spec.before_exec);
  std::optional<ChildStack> stack;
  std::optional<SignalsBlocked> blocked;
  if (share) {
    stack.emplace();
    blocked.emplace();
  }
  Spawned s;
  pid_t pid = -1;
  if (spec.v2_cgroup && clone3_wanted()) {
    const int cg = ::open(spec.v2_cgroup->c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (cg >= 0) {
      pid = clone_into(cg, p, share && kCanShareWithClone3 ? &*stack : nullptr);
      const int e = errno;
      ::close(cg);
      if (pid > 0) {
        s.born_in_cgroup = true;
        g_clone3 = 1;
      } else if (e == EAGAIN || e == ENOMEM) {
        ::close(p.devnull), ::close(errpipe[0]), ::close(errpipe[1]);
        throw SpawnError("cannot start " + spec.argv[0] + ": clone3: " + std::strerror(e));
      } else {
        g_clone3 = 2;  // ENOSYS (kernel < 5.3), E2BIG/EINVAL (< 5.7), EPERM/EACCES/EBUSY: join by writing instead
      }
    }
  }
  if (pid < 0) {
    pid = clone_plain(p, share ? &*stack : nullptr);
    if (pid < 0) {
      const int e = errno;
      ::close(p.devnull), ::close(errpipe[0]), ::close(errpipe[1]);
      throw SpawnError("cannot start " + spec.argv[0] + ": " + (share ? "clone" : "fork") + ": " + std::strerror(e));
    }
  }
  blocked.reset();
  s.pid = pid;
  ::close(p.devnull);
  ::close(errpipe[1]);
  ChildError e{};
  ssize_t n;
  do n = ::read(errpipe[0], &e, sizeof e);
  while (n < 0 && errno == EINTR);
  s.exec_at = stamp.at(std::chrono::steady_clock::now());
  s.pre_exec_cpu_ms = stamp.cpu_ms();
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
  if (fork_forced()) return "fork+cgroup.procs";
  if (g_clone3.load() != 2) return kCanShareWithClone3 ? "clone3-vfork-into-cgroup" : "clone3-into-cgroup";
  return "vfork+cgroup.procs";
}

}  // namespace perfgate::process
