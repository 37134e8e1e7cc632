#include "run/output_check.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>

#include "common/errors.hpp"
#include "common/files.hpp"
#include "process/spawn.hpp"

namespace perfgate::run {

CheckVerdict check_outputs(const std::vector<std::string>& check_argv, const std::filesystem::path& reference,
                           const std::filesystem::path& other, const std::filesystem::path& scratch, double timeout_s) {
  if (check_argv.empty()) throw UsageError("--check: an empty command");
  const auto exe = process::find_program(check_argv[0]);
  if (!exe) throw RunError("--check: '" + check_argv[0] + "' not found");
  const std::filesystem::path said = scratch / "check-output";
  const int fd = ::open(said.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw RunError("--check: cannot write " + said.string());
  process::SpawnSpec spec;
  spec.argv = check_argv;
  spec.argv[0] = *exe;
  spec.argv.push_back(reference.string());
  spec.argv.push_back(other.string());
  spec.env = process::environment_with({});
  spec.stdout_fd = fd;
  spec.stderr_fd = fd;
  pid_t pid;
  try {
    pid = process::spawn(spec).pid;
  } catch (const process::SpawnError& e) {
    ::close(fd);
    throw RunError(std::string("--check: ") + e.what());
  }
  ::close(fd);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
  int status = 0;
  bool timed_out = false;
  for (;;) {
    const pid_t r = ::waitpid(pid, &status, WNOHANG);
    if (r == pid || (r < 0 && errno != EINTR)) break;
    if (std::chrono::steady_clock::now() >= deadline) {
      ::kill(-pid, SIGKILL);  // its own process group: whatever it started goes too
      ::waitpid(pid, &status, 0);
      timed_out = true;
      break;
    }
    ::poll(nullptr, 0, 5);
  }
  const std::string tail = tail_of_file(said, 400);
  CheckVerdict v;
  if (timed_out) {
    v.how = "timed out after " + std::to_string(static_cast<int>(timeout_s)) + " s";
  } else if (WIFSIGNALED(status)) {
    v.how = "killed by signal " + std::to_string(WTERMSIG(status));
  } else {
    v.same = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    v.how = "exit " + std::to_string(WEXITSTATUS(status));
  }
  if (!tail.empty()) v.how += ": " + tail;
  while (!v.how.empty() && (v.how.back() == '\n' || v.how.back() == ' ')) v.how.pop_back();
  return v;
}

}  // namespace perfgate::run
