// Which commit (and branch) a tree is at, for the results' run.git and --against's other build. A tree
// that is not a git checkout (a release tarball) answers "unknown", never an error.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace perfgate {

struct GitState {
  std::string commit = "unknown";  // HEAD, or "unknown"
  bool dirty = false;              // tracked files modified
  // The branch checked out, or CI's name for it (a CI checkout is detached); empty when unknown.
  std::string branch;
};

GitState git_state(const std::filesystem::path& dir);

// The stdout of `git -C DIR ARGS`, or none when git is missing, fails or hangs (30 s).
std::optional<std::string> git_stdout(const std::filesystem::path& dir, const std::vector<std::string>& args);

}  // namespace perfgate
