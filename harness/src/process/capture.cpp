#include "process/capture.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "process/spawn.hpp"

namespace perfgate::process {

std::optional<std::string> capture_stdout(const std::vector<std::string>& argv, std::chrono::milliseconds timeout,
                                          const std::filesystem::path& cwd, const std::vector<std::string>& env) {
  if (argv.empty()) return std::nullopt;
  auto exe = find_program(argv[0]);
  if (!exe) return std::nullopt;
  int p[2];
  if (::pipe2(p, O_CLOEXEC) != 0) return std::nullopt;
  SpawnSpec spec;
  spec.argv = argv;
  spec.argv[0] = *exe;
  spec.env = env.empty() ? environment_with({}) : env;
  spec.cwd = cwd;
  spec.stdout_fd = p[1];
  spec.new_process_group = false;
  pid_t pid;
  try {
    pid = spawn(spec).pid;
  } catch (const SpawnError&) {
    ::close(p[0]);
    ::close(p[1]);
    return std::nullopt;
  }
  ::close(p[1]);
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  std::string out;
  bool timed_out = false;
  for (;;) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      timed_out = true;
      break;
    }
    struct pollfd pfd {
      p[0], POLLIN, 0
    };
    const int rc = ::poll(&pfd, 1, static_cast<int>(std::min<long long>(left.count(), 1000)));
    if (rc < 0 && errno != EINTR) break;
    if (rc <= 0) continue;
    char buf[4096];
    const ssize_t n = ::read(p[0], buf, sizeof buf);
    if (n > 0)
      out.append(buf, static_cast<std::size_t>(n));
    else if (n == 0 || errno != EINTR)
      break;
  }
  ::close(p[0]);
  // Its stdout may close before it exits: the deadline holds for the exit too.
  if (timed_out) ::kill(pid, SIGKILL);
  int status = 0;
  for (;;) {
    const pid_t r = ::waitpid(pid, &status, timed_out ? 0 : WNOHANG);
    if (r == pid || (r < 0 && errno != EINTR)) break;
    if (r == 0 && std::chrono::steady_clock::now() >= deadline) {
      timed_out = true;
      ::kill(pid, SIGKILL);
    } else if (r == 0) {
      ::poll(nullptr, 0, 5);
    }
  }
  if (timed_out || !WIFEXITED(status) || WEXITSTATUS(status) != 0) return std::nullopt;
  return out;
}

}  // namespace perfgate::process
