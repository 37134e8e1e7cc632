#include "common/git_probe.hpp"

#include <chrono>
#include <cstdlib>
#include <vector>

#include "process/capture.hpp"

namespace perfgate {

std::optional<std::string> git_stdout(const std::filesystem::path& dir, const std::vector<std::string>& args) {
  std::vector<std::string> argv = {"git", "-C", dir.string()};
  argv.insert(argv.end(), args.begin(), args.end());
  return process::capture_stdout(argv, std::chrono::seconds(30));
}

namespace {

// The trimmed stdout of `git -C DIR ARGS`; empty when git is missing, fails or hangs.
std::string git_output(const std::filesystem::path& dir, const std::vector<std::string>& args) {
  std::string out = git_stdout(dir, args).value_or("");
  while (!out.empty() && (out.back() == '\n' || out.back() == ' ')) out.pop_back();
  return out;
}

// CI checks out a detached commit: its own variables name the branch. GITHUB_HEAD_REF is a pull
// request's source branch (GITHUB_REF_NAME is then "N/merge").
std::string ci_branch() {
  for (const char* v : {"GITHUB_HEAD_REF", "GITHUB_REF_NAME", "CI_COMMIT_REF_NAME"}) {
    const char* value = std::getenv(v);
    if (value && *value) return value;
  }
  return "";
}

std::string branch_of(const std::filesystem::path& dir) {
  std::string b = ci_branch();
  if (b.empty()) b = git_output(dir, {"rev-parse", "--abbrev-ref", "HEAD"});
  return b == "HEAD" ? "" : b;  // detached outside CI: no branch to name
}

}  // namespace

GitState git_state(const std::filesystem::path& dir) {
  GitState s;
  const std::string commit = git_output(dir, {"rev-parse", "HEAD"});
  if (commit.empty()) return s;
  s.commit = commit;
  s.dirty = !git_output(dir, {"status", "--porcelain", "--untracked-files=no"}).empty();
  s.branch = branch_of(dir);
  return s;
}

}  // namespace perfgate
