// A long command whose output is kept for people, not parsed: a build. Started through
// spawn() like every other child; its output goes to a log file.
#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace perfgate::process {

struct LoggedRun {
  int exit_code = 0;         // the exit status, 128 + signal when killed, 127 when it could not start
  bool interrupted = false;  // `stop` said so: its process group was killed
};

// Runs argv (argv[0] looked up on PATH when it has no slash) in `cwd` in a process group of its
// own, stdout and stderr appended to `log`, and waits for it. `stop` is asked every 100 ms.
LoggedRun run_logged(const std::vector<std::string>& argv, const std::filesystem::path& cwd,
                     const std::filesystem::path& log, const std::function<bool()>& stop);

}  // namespace perfgate::process
