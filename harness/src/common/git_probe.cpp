#include "common/git_probe.hpp"

#include <cstdio>
#include <vector>

#include "common/shell_words.hpp"

namespace perfgate {

namespace {

// The trimmed stdout of `git -C DIR ARGS`; empty when git is missing or fails.
// TODO(process module): spawn through harness/src/process/ once it exists, not popen.
std::string git_output(const std::filesystem::path& dir, const std::vector<std::string>& args) {
  std::vector<std::string> argv = {"git", "-C", dir.string()};
  argv.insert(argv.end(), args.begin(), args.end());
  std::string out;
  if (FILE* p = ::popen((join_command(argv) + " 2>/dev/null").c_str(), "r")) {
    char buf[512];
    while (std::fgets(buf, sizeof buf, p)) out += buf;
    ::pclose(p);
  }
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
