#include "process/logged_run.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "process/spawn.hpp"

namespace perfgate::process {

LoggedRun run_logged(const std::vector<std::string>& argv, const std::filesystem::path& cwd,
                     const std::filesystem::path& log, const std::function<bool()>& stop) {
  LoggedRun out;
  const auto exe = argv.empty() ? std::nullopt : find_program(argv[0]);
  const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (!exe || fd < 0) {
    if (fd >= 0) ::close(fd);
    out.exit_code = 127;
    return out;
  }
  SpawnSpec spec;
  spec.argv = argv;
  spec.argv[0] = *exe;
  spec.env = environment_with({});
  spec.cwd = cwd;
  spec.stdout_fd = fd;
  spec.stderr_fd = fd;
  pid_t pid;
  try {
    pid = spawn(spec).pid;
  } catch (const SpawnError& e) {
    const std::string line = std::string("perfgate: ") + e.what() + "\n";
    [[maybe_unused]] auto n = ::write(fd, line.data(), line.size());
    ::close(fd);
    out.exit_code = 127;
    return out;
  }
  ::close(fd);
  int status = 0;
  for (;;) {
    const pid_t r = ::waitpid(pid, &status, WNOHANG);
    if (r == pid) break;
    if (r < 0 && errno != EINTR) break;
    if (stop && stop()) {
      ::kill(-pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      out.interrupted = true;
      break;
    }
    ::poll(nullptr, 0, 100);
  }
  out.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : WIFSIGNALED(status) ? 128 + WTERMSIG(status) : 1;
  return out;
}

}  // namespace perfgate::process
