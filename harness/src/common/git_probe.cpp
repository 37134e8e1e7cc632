#include "common/git_probe.hpp"

#include <chrono>
#include <vector>

#include "process/capture.hpp"

namespace perfgate {

namespace {

// The trimmed stdout of `git -C DIR ARGS`; empty when git is missing, fails or hangs.
std::string git_output(const std::filesystem::path& dir, const std::vector<std::string>& args) {
  std::vector<std::string> argv = {"git", "-C", dir.string()};
  argv.insert(argv.end(), args.begin(), args.end());
  std::string out = process::capture_stdout(argv, std::chrono::seconds(10)).value_or("");
  while (!out.empty() && (out.back() == '\n' || out.back() == ' ')) out.pop_back();
  return out;
}

}  // namespace

GitState git_state(const std::filesystem::path& dir) {
  GitState s;
  const std::string commit = git_output(dir, {"rev-parse", "HEAD"});
  if (commit.empty()) return s;
  s.commit = commit;
  s.dirty = !git_output(dir, {"status", "--porcelain", "--untracked-files=no"}).empty();
  return s;
}

}  // namespace perfgate
